// A memory object: one or more USM buffers of one kind on an engine's
// context. Each buffer is a user pointer (checked to be USM of the engine's
// context and of the declared kind; never freed), a buffer the library
// allocated (freed on destroy or replacement), or none yet.
#pragma once

#include "common/object.hpp"
#include "engine/engine.hpp"

#include <vector>

namespace imex_l0 {

class Memory : public Tagged<0x4d454d4f5259ull /* "MEMORY" */> {
public:
    Memory(Engine *engine, imex_l0_memory_kind_t kind) : child_(engine), kind_(kind) {}
    ~Memory();

    // Appends one buffer: handle is a user USM pointer, IMEX_L0_MEMORY_NONE or
    // IMEX_L0_MEMORY_ALLOCATE.
    void add(size_t size, void *handle);
    void set(size_t index, void *ptr);
    void *get(size_t index) const { return buffers_.at(checkIndex(index)).ptr; }
    size_t size(size_t index) const { return buffers_.at(checkIndex(index)).size; }
    size_t count() const { return buffers_.size(); }
    imex_l0_memory_kind_t kind() const { return kind_; }
    Engine *engine() const { return child_.engine(); }

private:
    struct Buffer {
        void *ptr = nullptr;
        size_t size = 0;
        bool owned = false;
    };
    size_t checkIndex(size_t index) const;
    void *allocate(size_t size) const;
    void checkUserPointer(void *ptr, size_t size) const;

    EngineChild child_;
    imex_l0_memory_kind_t kind_;
    std::vector<Buffer> buffers_;
};

const char *memoryKindName(imex_l0_memory_kind_t kind);

} // namespace imex_l0
