// An L0 device: the properties its backend found (DeviceInfo, backend.hpp)
// and the backend's handle of it (DeviceNative, the backend's
// backend_native.hpp).
#pragma once

#include "backend.hpp"
#include "backend_native.hpp"
#include "object.hpp"

#include <string>
#include <vector>

namespace ze_driver {

class Driver;

class Device : public Object {
public:
    static constexpr Tag kTag = Tag::Device;

    Device(Driver *driver, DeviceInfo info);

    Driver *driver() const { return driver_; }
    const DeviceInfo &info() const { return info_; }
    DeviceNative &native() { return native_; }
    const DeviceNative &native() const { return native_; }

    bool reachesSystemMemory() const { return info_.reachesSystemMemory; }
    uint64_t maxMemAllocSize() const { return info_.properties.maxMemAllocSize; }
    // Local memory per work-group.
    uint64_t localMemSize() const { return info_.compute.maxSharedLocalMemory; }
    size_t maxGroupSize() const { return info_.compute.maxTotalGroupSize; }
    const size_t *maxGroupSizes() const { return maxGroupSizes_; }
    const std::vector<uint32_t> &subGroupSizes() const { return info_.subGroupSizes; }
    std::string name() const { return info_.properties.name; }

private:
    Driver *driver_;
    DeviceInfo info_;
    size_t maxGroupSizes_[3];
    DeviceNative native_;
};

// The device's clock in nanoseconds, the unit of every timestamp the driver
// reports (kernel timestamps come from the backend, which uses it too).
uint64_t deviceTimeNs();

// Copies `from` into `*to`, keeping the caller's structure header.
template <class T> void copyKeepingHeader(T *to, const T &from) {
    auto stype = to->stype;
    auto next = to->pNext;
    *to = from;
    to->stype = stype;
    to->pNext = next;
}

} // namespace ze_driver
