// A context: the USM allocations made in it (their memory is the backend's:
// backend.hpp's allocate and release), its reservations of virtual memory
// (virtual_memory.hpp) and the backend's state of it (ContextNative, the
// backend's backend_native.hpp).
#pragma once

#include "backend_native.hpp"
#include "object.hpp"
#include "virtual_memory.hpp"

#include <functional>
#include <map>
#include <mutex>

namespace ze_driver {

class Driver;
class Device;

struct Allocation {
    void *base = nullptr;
    size_t size = 0;
    ze_memory_type_t type = ZE_MEMORY_TYPE_UNKNOWN;
    Device *device = nullptr; // null for host allocations
    uint64_t id = 0;          // unique within the process, for zeMemGetAllocProperties
    // Another process's memory opened through IPC: closed, not freed.
    bool imported = false;
    AllocationNative native; // what the backend needs to release it
};

class Context : public Object, public Counted<Context> {
public:
    static constexpr Tag kTag = Tag::Context;
    // The granularity of USM allocations (zeMemGetAllocProperties' pageSize).
    static constexpr size_t kPageSize = 4096;

    explicit Context(Driver *driver);
    ~Context();
    void init();

    Driver *driver() const { return driver_; }
    ContextNative &native() { return native_; }
    VirtualMemory &virtualMemory() { return virtualMemory_; }
    // The device behind `hDevice`, which must be one of the driver's
    // (INVALID_ARGUMENT otherwise).
    Device *deviceOf(ze_device_handle_t hDevice) const;

    void *allocate(size_t size, size_t alignment, ze_memory_type_t type, Device *device);
    // Frees an allocation of this context or, as on Intel's driver, of
    // another context of the driver; anything else is INVALID_ARGUMENT.
    void free(void *pointer);
    // The allocation containing `pointer` (anywhere inside it), if any.
    bool find(const void *pointer, Allocation *out) const;

    // For the backend's own kinds of memory (IPC): records `allocation`
    // under a new id, or releases it and throws.
    void keep(Allocation allocation);
    // Calls `change` with the allocation holding `pointer`, under the
    // context's lock; false when there is none or `change` says so.
    bool update(const void *pointer, const std::function<bool(Allocation &)> &change);
    // Removes and releases the allocation that starts at `pointer` (or, with
    // `inside`, holds it) when `accept` says so; false otherwise.
    bool remove(const void *pointer, bool inside,
                const std::function<bool(const Allocation &)> &accept);

private:
    Driver *driver_;
    bool initialized_ = false;
    mutable std::mutex mutex_;                    // guards allocations_
    std::map<uintptr_t, Allocation> allocations_; // keyed by base address
    ContextNative native_;
    VirtualMemory virtualMemory_{this};
};

} // namespace ze_driver
