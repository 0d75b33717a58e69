// What the driver's core asks of a backend. The core (this directory) holds
// the Level Zero object model, the entry points and their validation; a
// backend (../opencl, ../cuda) holds what runs the work. Each driver library
// compiles the core with one backend: the backend's `backend_native.hpp`
// (found on that library's include path) defines the native state the core's
// objects carry for it, so the core never names an OpenCL or CUDA type and
// no call between the two goes through a function pointer.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ze_driver {

class Driver;

// A device's properties as Level Zero reports them, found once by the
// backend's discovery. The core hands them out keeping each caller's
// structure header (stype, pNext).
struct DeviceInfo {
    ze_device_properties_t properties = {};
    ze_device_compute_properties_t compute = {};
    ze_device_module_properties_t module = {};
    ze_device_memory_properties_t memory = {};
    ze_device_memory_access_properties_t access = {};
    ze_device_cache_properties_t cache = {};
    ze_device_image_properties_t image = {};
    ze_command_queue_group_properties_t queueGroup = {};
    // The compute properties' limits as the launch checks use them.
    std::vector<uint32_t> subGroupSizes;
    // Whether kernels and copies reach any host memory (plain malloc), not
    // only the driver's allocations (sharedSystemAllocCapabilities).
    bool reachesSystemMemory = false;
};

namespace backend {

// "opencl" or "cuda": the driver's name in trace lines.
extern const char *const kName;

// Every driver the backend finds, each with at least one device; called once,
// by the first zeInit. Nothing found (no platform, no GPU, no library) is an
// empty list, never an error: the loader then goes on without this driver.
std::vector<std::unique_ptr<Driver>> discover();

// Whether the driver's memory can be shared between processes
// (zeMemGetIpcHandle).
bool memoryIpcSupported(const Driver *driver);

} // namespace backend

} // namespace ze_driver
