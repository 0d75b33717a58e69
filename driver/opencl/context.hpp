// A context: a reference to its driver's one OpenCL context (shared by every
// L0 context of the driver), and the USM allocations made in it.
#pragma once

#include "backend_native.hpp"
#include "virtual_memory.hpp"

#include <map>
#include <mutex>

namespace ze_driver {

class Driver;
class Device;

struct Allocation {
    void *base = nullptr;
    size_t size = 0;
    void *svm = nullptr; // what clSVMAlloc returned: base, or below it when padded for alignment
    ze_memory_type_t type = ZE_MEMORY_TYPE_UNKNOWN;
    Device *device = nullptr; // null for host allocations
    uint64_t id = 0;          // unique within the process, for zeMemGetAllocProperties
    // Host pages (host_pages.hpp) instead of clSVMAlloc memory: their length
    // from base, the memory file once exported (-1 before), and whether they
    // are another process's memory opened through IPC.
    size_t pages = 0;
    int fd = -1;
    bool imported = false;
};

class Context : public Object, public Counted<Context> {
public:
    static constexpr Tag kTag = Tag::Context;
    // The granularity of USM allocations (zeMemGetAllocProperties' pageSize).
    static constexpr size_t kPageSize = 4096;
    // The address space each allocation of host pages takes, as Intel's
    // driver's 64 KiB: kernels that stray past a small allocation, which that
    // driver forgives, fault neither the process nor another allocation.
    // Pages are backed only once touched, so it costs address space, not
    // memory.
    static constexpr size_t kHostPagesGranularity = 64 * 1024;

    explicit Context(Driver *driver);
    ~Context();
    void init();

    Driver *driver() const { return driver_; }
    // The device behind `hDevice`, which must be one of the driver's
    // (INVALID_ARGUMENT otherwise).
    Device *deviceOf(ze_device_handle_t hDevice) const;
    cl_context cl() const { return cl_; }

    void *allocate(size_t size, size_t alignment, ze_memory_type_t type, Device *device);
    // Frees an allocation of this context or, as on Intel's driver, of
    // another context of the driver; anything else is INVALID_ARGUMENT.
    void free(void *pointer);
    // Frees `pointer` if this context allocated it.
    bool tryFree(void *pointer);
    // The allocation containing `pointer` (anywhere inside it), if any.
    bool find(const void *pointer, Allocation *out) const;

    // IPC (ipc.cpp). The allocation containing `pointer`, made exportable
    // (host pages backed by a memory file), in this context or, as on
    // Intel's driver, another of the driver; false for any other memory.
    bool share(const void *pointer, Allocation *out);
    // Registers `bytes` of another process's memory mapped at `mapping`.
    void adopt(void *mapping, size_t bytes, ze_memory_type_t type, Device *device);
    // Unmaps the memory adopt() registered that holds `pointer`;
    // INVALID_ARGUMENT for any other pointer.
    void closeImported(const void *pointer);
    // The context's reservations of address space (zeVirtualMem*).
    VirtualMemory &virtualMemory() { return virtualMemory_; }

private:
    // Records `allocation` under a new id, or releases it and throws.
    void keep(Allocation allocation);
    void releaseAllocation(const Allocation &allocation);
    // share() within this context only.
    bool shareOwn(const void *pointer, Allocation *out);

    Driver *driver_;
    cl_context cl_ = nullptr;
    mutable std::mutex mutex_;                    // guards allocations_
    std::map<uintptr_t, Allocation> allocations_; // keyed by base address
    VirtualMemory virtualMemory_;
};

} // namespace ze_driver
