// Physical and virtual memory (zePhysicalMem*, zeVirtualMem*): a context's
// reservations of address space, and physical memory mapped into them.
//
// The core keeps the books (which pages are reserved, what is mapped where,
// each page's access attribute) and checks every request against them; the
// backend (backend.hpp, "Physical and virtual memory") reserves addresses,
// makes physical memory and maps it. A mapping keeps its physical memory
// alive: zePhysicalMemDestroy may come first, as the specification allows.
#pragma once

#include "backend_native.hpp"
#include "object.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace ze_driver {

class Context;
class Device;

class PhysicalMemory : public Object {
public:
    static constexpr Tag kTag = Tag::PhysicalMemory;
    PhysicalMemory(Device *device, size_t size, std::shared_ptr<PhysicalMemoryNative> native)
        : Object(kTag), device_(device), size_(size), native_(std::move(native)) {}
    Device *device() const { return device_; }
    size_t size() const { return size_; }
    const std::shared_ptr<PhysicalMemoryNative> &native() const { return native_; }

private:
    Device *device_;
    size_t size_;
    std::shared_ptr<PhysicalMemoryNative> native_;
};

// A context's reservations. Thread-safe. Sizes, addresses and offsets are in
// whole pages of backend::virtualPageSize; errors name what is wrong.
class VirtualMemory {
public:
    explicit VirtualMemory(Context *context) : context_(context) {}
    VirtualMemory(const VirtualMemory &) = delete;
    VirtualMemory &operator=(const VirtualMemory &) = delete;
    // Unmaps and frees what is still reserved, as the context goes.
    void releaseAll() noexcept;

    void *reserve(const void *hint, size_t size);
    void free(void *base, size_t size);
    // A mapping over mapped pages replaces what was mapped there.
    void map(void *at, size_t size, const PhysicalMemory &memory, size_t offset,
             ze_memory_access_attribute_t access);
    void unmap(void *at, size_t size);
    void setAccess(void *at, size_t size, ze_memory_access_attribute_t access);
    // The attribute at `at` and how many bytes from `at` (at most `size`)
    // share it.
    std::pair<ze_memory_access_attribute_t, size_t> access(const void *at, size_t size) const;

    // What is mapped where `at` lies (for IPC): the mapping's start and
    // length, the physical memory, and the offset in it of the start.
    struct Mapped {
        const void *start;
        size_t bytes;
        std::shared_ptr<PhysicalMemoryNative> memory;
        size_t offset;
    };
    bool mappedAt(const void *at, Mapped *out) const;

private:
    struct Reservation {
        size_t size = 0;
        std::vector<ze_memory_access_attribute_t> pages; // each page's attribute
    };
    struct Mapping {
        size_t size;
        std::shared_ptr<PhysicalMemoryNative> memory;
        size_t offset;
    };
    // The reservation wholly containing the page-aligned range [at, at+size),
    // and the index of its first page.
    std::pair<Reservation *, size_t> within(const void *at, size_t size);
    std::pair<const Reservation *, size_t> within(const void *at, size_t size) const;
    // Unmaps [at, at + size) wherever something is mapped in it; a mapping
    // reaching out of the range keeps its parts outside.
    void unmapRange(uintptr_t at, size_t size);
    // Calls `each(start, bytes, mapping, offset)` for every mapped part of
    // [at, at + size), `offset` that of `start` in the mapping's memory.
    template <class F> void forEachMapped(uintptr_t at, size_t size, F each);

    Context *context_;
    mutable std::mutex mutex_;                      // guards both maps
    std::map<uintptr_t, Reservation> reservations_; // by base address
    std::map<uintptr_t, Mapping> mappings_;         // by start address, never overlapping
};

} // namespace ze_driver
