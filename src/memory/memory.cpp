#include "memory/memory.hpp"

#include "memory/usm.hpp"

#include <string>

namespace imex_l0 {

namespace {

ze_memory_type_t zeTypeOf(imex_l0_memory_kind_t kind) {
    switch (kind) {
    case imex_l0_memory_kind_device:
        return ZE_MEMORY_TYPE_DEVICE;
    case imex_l0_memory_kind_host:
        return ZE_MEMORY_TYPE_HOST;
    case imex_l0_memory_kind_shared:
        return ZE_MEMORY_TYPE_SHARED;
    }
    return ZE_MEMORY_TYPE_UNKNOWN;
}

// USM allocations are at least this aligned on every Level Zero driver we
// know; asking for more would be a framework's business, not ours.
constexpr size_t kAlignment = 64;

} // namespace

const char *memoryKindName(imex_l0_memory_kind_t kind) { return usmTypeName(zeTypeOf(kind)); }

Memory::~Memory() {
    for (auto &b : buffers_)
        if (b.owned && b.ptr) {
            engine()->usmRanges().remove(b.ptr);
            zeMemFree(engine()->context(), b.ptr);
        }
}

size_t Memory::checkIndex(size_t index) const {
    if (index >= buffers_.size())
        failInvalid("index " + std::to_string(index) + " is out of range: the memory object has " +
                    std::to_string(buffers_.size()) + " buffer(s)");
    return index;
}

void *Memory::allocate(size_t size) const {
    if (size == 0)
        failInvalid("size is 0: ALLOCATE needs a size of at least one byte");
    Engine *e = engine();
    e->checkAllocationSize(size);
    void *ptr = nullptr;
    switch (kind_) {
    case imex_l0_memory_kind_device: {
        ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        IMEX_L0_ZE(zeMemAllocDevice(e->context(), &desc, size, kAlignment, e->device(), &ptr));
        break;
    }
    case imex_l0_memory_kind_host: {
        ze_host_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        IMEX_L0_ZE(zeMemAllocHost(e->context(), &desc, size, kAlignment, &ptr));
        break;
    }
    case imex_l0_memory_kind_shared: {
        ze_device_mem_alloc_desc_t device = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        ze_host_mem_alloc_desc_t host = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        IMEX_L0_ZE(zeMemAllocShared(e->context(), &device, &host, size, kAlignment, e->device(),
                                    &ptr));
        break;
    }
    }
    return ptr;
}

void Memory::checkUserPointer(void *ptr, size_t size) const {
    UsmAllocation usm = usmAllocation(engine()->context(), ptr);
    if (usm.type == ZE_MEMORY_TYPE_UNKNOWN)
        failInvalid("pointer is not USM of the engine's context (a plain host pointer, freed "
                    "memory, or USM of another context): allocate it with zeMemAlloc* on the "
                    "engine's context");
    if (usm.type != zeTypeOf(kind_))
        failInvalid(std::string("pointer is ") + usmTypeName(usm.type) +
                    " USM but the memory object was declared " + memoryKindName(kind_) +
                    ": pass the matching imex_l0_memory_kind_t");
    // The declared size must lie inside the allocation, or kernels would be
    // handed a buffer larger than what exists.
    if (size > usm.bytesFrom(ptr))
        failInvalid("size " + std::to_string(size) + " exceeds the USM allocation: only " +
                    std::to_string(usm.bytesFrom(ptr)) + " bytes lie between the pointer and "
                    "the end of its allocation");
}

void Memory::add(size_t size, void *handle) {
    Buffer b;
    b.size = size;
    buffers_.reserve(buffers_.size() + 1); // so push_back cannot throw after an allocation
    if (handle == IMEX_L0_MEMORY_ALLOCATE) {
        b.ptr = allocate(size);
        b.owned = true;
    } else if (handle != IMEX_L0_MEMORY_NONE) {
        checkUserPointer(handle, size);
        b.ptr = handle;
    }
    buffers_.push_back(b);
}

void Memory::set(size_t index, void *ptr) {
    Buffer &b = buffers_[checkIndex(index)];
    if (ptr == IMEX_L0_MEMORY_ALLOCATE)
        failInvalid("set_mem_object takes a USM pointer or NONE, not ALLOCATE");
    if (ptr)
        checkUserPointer(ptr, b.size);
    if (b.owned && b.ptr) {
        engine()->usmRanges().remove(b.ptr);
        IMEX_L0_ZE(zeMemFree(engine()->context(), b.ptr));
    }
    b.ptr = ptr;
    b.owned = false;
}

} // namespace imex_l0
