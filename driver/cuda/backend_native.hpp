// The CUDA backend's state in the core's objects (../core/backend.hpp): one
// driver over the machine's CUDA devices, a device a CUDA device.
#pragma once

#include "cuda_api.hpp"
#include "object.hpp"

namespace ze_driver {

struct DriverNative {};

struct DeviceNative {
    ze_cuda::CUdevice device = 0;
};

} // namespace ze_driver
