// Physical and virtual memory: a context's reservations of address space, and
// physical memory objects mapped into them.
//
// On a device that reaches system memory (a CPU device), virtual memory is
// the host's own: a reservation is an inaccessible anonymous mapping, physical
// memory is a memory file (memfd), and mapping it is an mmap of the file over
// the reserved pages with the asked protection. Kernels, copies and fills then
// take pointers into mapped ranges like any other host memory.
#pragma once

#include "object.hpp"

#include <map>
#include <mutex>
#include <vector>

namespace ze_driver {

class Device;

class PhysicalMemory : public Object {
public:
    static constexpr Tag kTag = Tag::PhysicalMemory;
    // A memory file of `size` bytes (a multiple of the page size).
    explicit PhysicalMemory(size_t size);
    ~PhysicalMemory();
    int fd() const { return fd_; }
    size_t size() const { return size_; }

private:
    int fd_ = -1;
    size_t size_;
};

// A context's reservations. Thread-safe.
class VirtualMemory {
public:
    VirtualMemory() = default;
    ~VirtualMemory(); // releases what is still reserved, as the context goes
    VirtualMemory(const VirtualMemory &) = delete;
    VirtualMemory &operator=(const VirtualMemory &) = delete;

    void *reserve(const void *hint, size_t size);
    void free(void *base, size_t size);
    void map(void *at, size_t size, const PhysicalMemory &memory, size_t offset,
             ze_memory_access_attribute_t access);
    void unmap(void *at, size_t size);
    void setAccess(void *at, size_t size, ze_memory_access_attribute_t access);
    // The attribute at `at` and how many bytes from `at` (at most `size`)
    // share it.
    std::pair<ze_memory_access_attribute_t, size_t> access(const void *at, size_t size) const;

    // The physical memory mapped where `at` lies, for IPC: a descriptor of
    // its memory file (valid while the mapping is), the mapping's start and
    // length, and the file offset of its start.
    struct MappedFile {
        int fd;
        const void *start;
        size_t bytes;
        size_t offset;
    };
    bool mappedFile(const void *at, MappedFile *out) const;

private:
    struct Reservation {
        size_t size = 0;
        std::vector<ze_memory_access_attribute_t> pages; // each page's attribute
    };
    // The reservation wholly containing the page-aligned range [at, at+size),
    // and the index of its first page; errors name what is wrong with it.
    std::pair<Reservation *, size_t> within(const void *at, size_t size);
    std::pair<const Reservation *, size_t> within(const void *at, size_t size) const;

    // Forgets the mappings that start in [at, at + size).
    void forgetMappings(uintptr_t at, size_t size);

    struct Mapping {
        size_t size;
        int fd; // a duplicate of the physical memory's, owned: it may be destroyed first
        size_t offset;
    };
    mutable std::mutex mutex_;                      // guards both maps
    std::map<uintptr_t, Reservation> reservations_; // by base address
    std::map<uintptr_t, Mapping> mappings_;         // by start address
};

} // namespace ze_driver
