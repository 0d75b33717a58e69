// Every public handle points at an object that starts with a magic tag, so a
// NULL, foreign or destroyed handle is reported instead of dereferenced
// further. Destruction clears the tag.
#pragma once

#include "common/status.hpp"

#include <cstdint>
#include <string>

namespace imex_l0 {

template <uint64_t Magic> class Tagged {
public:
    static constexpr uint64_t kMagic = Magic;
    Tagged() = default;
    Tagged(const Tagged &) = delete;
    Tagged &operator=(const Tagged &) = delete;
    ~Tagged() { magic_ = 0; }
    bool tagValid() const { return magic_ == Magic; }

private:
    volatile uint64_t magic_ = Magic;
};

// Returns the object behind a public handle or throws invalid_arguments
// naming the argument.
template <typename Object, typename Handle> Object *validate(Handle handle, const char *what) {
    auto *object = reinterpret_cast<Object *>(handle);
    if (!handle || !object->tagValid())
        failInvalidHandle(!handle, what);
    return object;
}

template <typename T> void requireOutput(T *out, const char *what) {
    if (!out)
        failInvalid(std::string(what) + " (the output argument) is NULL");
}

} // namespace imex_l0
