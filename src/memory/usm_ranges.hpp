// The address ranges of an engine's context already found to be USM
// allocations (zeMemGetAllocProperties + zeMemGetAddressRange), so that a
// launch passing a pointer into one of them skips those two Level Zero
// calls: a framework's launches cycle through many buffers, each validated
// once. The library forgets a range when it frees the allocation itself; one
// the caller frees with zeMemFree stays known until the cache is full, as a
// pointer the caller keeps using after freeing it is not detected either way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <shared_mutex>

namespace imex_l0 {

class UsmRanges {
public:
    // Ranges kept at most; beyond it the cache starts again empty.
    static constexpr size_t kMaxRanges = 4096;

    bool contains(const void *ptr) const;
    void add(const void *base, size_t size);
    // The allocation at `base` is about to be freed.
    void remove(const void *base);

private:
    mutable std::shared_mutex mutex_;
    std::map<uintptr_t, uintptr_t> ends_; // base -> one past the end
};

} // namespace imex_l0
