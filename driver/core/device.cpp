// Devices: the Device DDI table over the properties a backend found.
#include "device.hpp"

#include "driver.hpp"
#include "newer_api.hpp"

#include <level_zero/ze_ddi.h>

#include <algorithm>
#include <ctime>

namespace ze_driver {

Device::Device(Driver *driver, DeviceInfo info)
    : Object(kTag), driver_(driver), info_(std::move(info)),
      maxGroupSizes_{info_.compute.maxGroupSizeX, info_.compute.maxGroupSizeY,
                     info_.compute.maxGroupSizeZ} {
    if (info_.subGroupSizes.empty())
        info_.subGroupSizes.push_back(1); // a work-item is its own sub-group
    if (info_.subGroupSizes.size() > ZE_SUBGROUPSIZE_COUNT)
        info_.subGroupSizes.resize(ZE_SUBGROUPSIZE_COUNT);
    info_.compute.numSubGroupSizes = static_cast<uint32_t>(info_.subGroupSizes.size());
    std::fill(std::begin(info_.compute.subGroupSizes), std::end(info_.compute.subGroupSizes), 0u);
    std::copy_n(info_.subGroupSizes.begin(), info_.compute.numSubGroupSizes,
                info_.compute.subGroupSizes);
}

uint64_t deviceTimeNs() {
    // PoCL's CPU device stamps profiling events with CLOCK_MONOTONIC_RAW;
    // host-side times must come from the same clock to be comparable.
    timespec t{};
    clock_gettime(CLOCK_MONOTONIC_RAW, &t);
    return uint64_t(t.tv_sec) * 1000000000ull + uint64_t(t.tv_nsec);
}

namespace {

// The count-then-fill pattern shared by every property array of one element.
template <class T, class F> ze_result_t getOne(uint32_t *pCount, T *out, F &&fill) {
    notNull(pCount);
    if (*pCount == 0 || out == nullptr) {
        *pCount = 1;
        return ZE_RESULT_SUCCESS;
    }
    *pCount = 1;
    fill(out);
    return ZE_RESULT_SUCCESS;
}

ze_result_t ZE_APICALL zeDeviceGet(ze_driver_handle_t hDriver, uint32_t *pCount,
                                   ze_device_handle_t *phDevices) {
    return boundary(__func__, [&] {
        Driver *driver = fromHandle<Driver>(hDriver);
        notNull(pCount);
        const auto &devices = driver->devices();
        uint32_t n = static_cast<uint32_t>(devices.size());
        if (*pCount == 0 || phDevices == nullptr) {
            *pCount = n;
            return ZE_RESULT_SUCCESS;
        }
        *pCount = std::min(*pCount, n);
        for (uint32_t i = 0; i < *pCount; ++i)
            phDevices[i] = toHandle<Device, ze_device_handle_t>(devices[i].get());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetSubDevices(ze_device_handle_t hDevice, uint32_t *pCount,
                                             ze_device_handle_t *) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice);
        *notNull(pCount) = 0;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetProperties(ze_device_handle_t hDevice,
                                             ze_device_properties_t *p) {
    return boundary(__func__, [&] {
        Device *device = fromHandle<Device>(hDevice);
        notNull(p);
        copyKeepingHeader(p, device->info().properties);
        // Timestamps are in nanoseconds. The 1.0 structure states the
        // resolution as nanoseconds per tick, the 1.2 one as ticks per second.
        p->timerResolution =
            p->stype == ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2 ? 1000000000ull : 1;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetComputeProperties(ze_device_handle_t hDevice,
                                                    ze_device_compute_properties_t *p) {
    return boundary(__func__, [&] {
        copyKeepingHeader(notNull(p), fromHandle<Device>(hDevice)->info().compute);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetModuleProperties(ze_device_handle_t hDevice,
                                                   ze_device_module_properties_t *p) {
    return boundary(__func__, [&] {
        copyKeepingHeader(notNull(p), fromHandle<Device>(hDevice)->info().module);
        return ZE_RESULT_SUCCESS;
    });
}

// One group, one queue.
ze_result_t ZE_APICALL zeDeviceGetCommandQueueGroupProperties(
    ze_device_handle_t hDevice, uint32_t *pCount, ze_command_queue_group_properties_t *p) {
    return boundary(__func__, [&] {
        Device *device = fromHandle<Device>(hDevice);
        return getOne(pCount, p, [&](ze_command_queue_group_properties_t *g) {
            copyKeepingHeader(g, device->info().queueGroup);
        });
    });
}

ze_result_t ZE_APICALL zeDeviceGetMemoryProperties(ze_device_handle_t hDevice, uint32_t *pCount,
                                                   ze_device_memory_properties_t *p) {
    return boundary(__func__, [&] {
        Device *device = fromHandle<Device>(hDevice);
        return getOne(pCount, p,
                      [&](ze_device_memory_properties_t *m) { copyKeepingHeader(m, device->info().memory); });
    });
}

ze_result_t ZE_APICALL zeDeviceGetMemoryAccessProperties(ze_device_handle_t hDevice,
                                                         ze_device_memory_access_properties_t *p) {
    return boundary(__func__, [&] {
        copyKeepingHeader(notNull(p), fromHandle<Device>(hDevice)->info().access);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetCacheProperties(ze_device_handle_t hDevice, uint32_t *pCount,
                                                  ze_device_cache_properties_t *p) {
    return boundary(__func__, [&] {
        Device *device = fromHandle<Device>(hDevice);
        return getOne(pCount, p,
                      [&](ze_device_cache_properties_t *c) { copyKeepingHeader(c, device->info().cache); });
    });
}

ze_result_t ZE_APICALL zeDeviceGetImageProperties(ze_device_handle_t hDevice,
                                                  ze_device_image_properties_t *p) {
    return boundary(__func__, [&] {
        copyKeepingHeader(notNull(p), fromHandle<Device>(hDevice)->info().image);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetExternalMemoryProperties(
    ze_device_handle_t hDevice, ze_device_external_memory_properties_t *p) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice);
        notNull(p);
        p->memoryAllocationImportTypes = p->memoryAllocationExportTypes = 0;
        p->imageImportTypes = p->imageExportTypes = 0;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetP2PProperties(ze_device_handle_t hDevice,
                                                ze_device_handle_t hPeer,
                                                ze_device_p2p_properties_t *p) {
    return boundary(__func__, [&] {
        Device *a = fromHandle<Device>(hDevice);
        Device *b = fromHandle<Device>(hPeer);
        notNull(p)->flags = a->driver() == b->driver() && backend::peerAccess(*a, *b)
                                ? ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS
                                : 0;
        return ZE_RESULT_SUCCESS;
    });
}

// Devices of different drivers share nothing; within a driver, the backend
// says (backend.hpp).
ze_result_t ZE_APICALL zeDeviceCanAccessPeer(ze_device_handle_t hDevice, ze_device_handle_t hPeer,
                                             ze_bool_t *value) {
    return boundary(__func__, [&] {
        Device *a = fromHandle<Device>(hDevice);
        Device *b = fromHandle<Device>(hPeer);
        *notNull(value) = a->driver() == b->driver() && backend::peerAccess(*a, *b);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetStatus(ze_device_handle_t hDevice) {
    return boundary(__func__, [&] {
        return backend::deviceLost(*fromHandle<Device>(hDevice)) ? ZE_RESULT_ERROR_DEVICE_LOST
                                                                  : ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeDeviceGetGlobalTimestamps(ze_device_handle_t hDevice,
                                                   uint64_t *hostTimestamp,
                                                   uint64_t *deviceTimestamp) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice);
        notNull(hostTimestamp);
        notNull(deviceTimestamp);
        *hostTimestamp = *deviceTimestamp = deviceTimeNs();
        return ZE_RESULT_SUCCESS;
    });
}

// Level Zero 1.7: the devices are root devices (they have no sub-devices).
ze_result_t ZE_APICALL zeDeviceGetRootDevice(ze_device_handle_t hDevice,
                                             ze_device_handle_t *phRootDevice) {
    return boundary(__func__, [&] {
        fromHandle<Device>(hDevice);
        notNull(phRootDevice);
        *phRootDevice = nullptr;
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetDeviceProcAddrTable(ze_api_version_t version,
                                                                        ze_device_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnGet = zeDeviceGet;
    t->pfnGetSubDevices = zeDeviceGetSubDevices;
    t->pfnGetProperties = zeDeviceGetProperties;
    t->pfnGetComputeProperties = zeDeviceGetComputeProperties;
    t->pfnGetModuleProperties = zeDeviceGetModuleProperties;
    t->pfnGetCommandQueueGroupProperties = zeDeviceGetCommandQueueGroupProperties;
    t->pfnGetMemoryProperties = zeDeviceGetMemoryProperties;
    t->pfnGetMemoryAccessProperties = zeDeviceGetMemoryAccessProperties;
    t->pfnGetCacheProperties = zeDeviceGetCacheProperties;
    t->pfnGetImageProperties = zeDeviceGetImageProperties;
    t->pfnGetExternalMemoryProperties = zeDeviceGetExternalMemoryProperties;
    t->pfnGetP2PProperties = zeDeviceGetP2PProperties;
    t->pfnCanAccessPeer = zeDeviceCanAccessPeer;
    t->pfnGetStatus = zeDeviceGetStatus;
    t->pfnGetGlobalTimestamps = zeDeviceGetGlobalTimestamps;
    setUnsupported(t->pfnReserveCacheExt);
    setUnsupported(t->pfnSetCacheAdviceExt);
    setUnsupported(t->pfnPciGetPropertiesExt);
    if (auto *newer = newerTable<DeviceTable1_7>(t, version, kApiVersion1_7))
        newer->pfnGetRootDevice = zeDeviceGetRootDevice;
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
