// The CUDA backend's discovery (../core/backend.hpp): one driver, "CUDA",
// over every CUDA device, each device's properties read from the CUDA driver
// once. Without libcuda.so.1 or a device there is no driver (zeInit still
// succeeds: ../core/driver.cpp says why).
#include "backend.hpp"
#include "device.hpp"
#include "driver.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace ze_driver {

const char *const backend::kName = "cuda";

namespace {

using namespace ze_cuda;

// NVIDIA's PCI vendor id.
constexpr uint32_t kNvidiaVendorId = 0x10de;

int attribute(const CudaApi &api, CUdevice device, int which) {
    int value = 0;
    return api.cuDeviceGetAttribute(&value, which, device) == CUDA_SUCCESS ? value : 0;
}

uint32_t u32(int value) {
    return static_cast<uint32_t>(std::max(value, 0));
}

DeviceInfo deviceProperties(const CudaApi &api, CUdevice device, uint32_t index) {
    DeviceInfo info;
    auto at = [&](int which) { return attribute(api, device, which); };
    char name[256] = {};
    api.cuDeviceGetName(name, sizeof(name) - 1, device);
    size_t totalMemory = 0;
    api.cuDeviceTotalMem(&totalMemory, device);

    ze_device_properties_t &p = info.properties;
    p.type = ZE_DEVICE_TYPE_GPU;
    p.vendorId = kNvidiaVendorId;
    p.deviceId = index;
    p.flags = at(CU_DEVICE_ATTRIBUTE_INTEGRATED) ? ZE_DEVICE_PROPERTY_FLAG_INTEGRATED : 0;
    p.coreClockRate = u32(at(CU_DEVICE_ATTRIBUTE_CLOCK_RATE) / 1000);
    // cuMemAlloc takes the whole memory in one allocation.
    p.maxMemAllocSize = totalMemory;
    p.maxHardwareContexts = 1;
    // A streaming multiprocessor is a sub-slice of one EU per warp lane
    // group: what L0 code computes from these (EUs x SIMD width = the
    // threads that run at once) comes out as SMs x 4 schedulers x 32 lanes.
    p.numThreadsPerEU = 1;
    p.physicalEUSimdWidth = u32(at(CU_DEVICE_ATTRIBUTE_WARP_SIZE));
    p.numEUsPerSubslice = 4;
    p.numSubslicesPerSlice = u32(at(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT));
    p.numSlices = 1;
    p.timestampValidBits = 64;
    p.kernelTimestampValidBits = 64;
    unsigned char uuid[16] = {};
    if (api.cuDeviceGetUuid(&uuid, device) == CUDA_SUCCESS)
        std::memcpy(p.uuid.id, uuid, sizeof(uuid));
    copyName(p.name, name);

    ze_device_compute_properties_t &c = info.compute;
    c.maxTotalGroupSize = u32(at(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK));
    c.maxGroupSizeX = u32(at(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X));
    c.maxGroupSizeY = u32(at(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + 1));
    c.maxGroupSizeZ = u32(at(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X + 2));
    // A launch of more groups in the second or third dimension than a CUDA
    // grid has runs as several grids (launch_values.hpp), up to the first
    // dimension's 2^31 - 1 in each.
    c.maxGroupCountX = u32(at(CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X));
    c.maxGroupCountY = c.maxGroupCountZ = INT32_MAX;
    // What a block may have once its function opts in (queue.cpp); devices
    // without the attribute have only what every launch gets.
    c.maxSharedLocalMemory =
        std::max(u32(at(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)),
                 u32(at(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)));
    info.subGroupSizes.push_back(u32(at(CU_DEVICE_ATTRIBUTE_WARP_SIZE)));

    // What the PTX translation (ptx_translator.hpp) compiles: OpenCL C with
    // doubles and 64-bit atomics, SPIR-V up to 1.2 like the OpenCL backend.
    // Not cl_khr_fp16: libclc-15's NVPTX library has half only as a storage
    // format (vload_half, vstore_half), none of its arithmetic builtins (mad,
    // conversions), so code guarded by the extension must take its other path.
    ze_device_module_properties_t &m = info.module;
    m.spirvVersionSupported = ZE_MAKE_VERSION(1, 2);
    m.flags = ZE_DEVICE_MODULE_FLAG_FP64 | ZE_DEVICE_MODULE_FLAG_INT64_ATOMICS;
    ze_device_fp_flags_t ieee = ZE_DEVICE_FP_FLAG_DENORM | ZE_DEVICE_FP_FLAG_INF_NAN |
                                ZE_DEVICE_FP_FLAG_ROUND_TO_NEAREST |
                                ZE_DEVICE_FP_FLAG_ROUND_TO_ZERO | ZE_DEVICE_FP_FLAG_ROUND_TO_INF |
                                ZE_DEVICE_FP_FLAG_FMA;
    m.fp32flags = ieee | ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
    m.fp64flags = ieee | ZE_DEVICE_FP_FLAG_ROUNDED_DIVIDE_SQRT;
    m.maxArgumentsSize = 4096; // CUDA's kernel parameter limit
    std::memcpy(m.nativeKernelSupported.id, p.uuid.id, sizeof(p.uuid.id));

    info.memory.maxClockRate = u32(at(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE) / 1000);
    info.memory.maxBusWidth = u32(at(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH));
    info.memory.totalSize = totalMemory;
    copyName(info.memory.name, "device memory");

    info.cache.cacheSize = static_cast<size_t>(u32(at(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)));
    // Images are device memory read and written by the translation's
    // builtins (image.cpp): OpenCL's full-profile limits, within the largest
    // allocation.
    info.image.maxImageDims1D = 16384;
    info.image.maxImageDims2D = 16384;
    info.image.maxImageDims3D = 2048;
    info.image.maxImageBufferSize = p.maxMemAllocSize;
    info.image.maxImageArraySlices = 2048;
    info.image.maxSamplers = 16;
    info.image.maxReadImageArgs = 128;
    info.image.maxWriteImageArgs = 64;

    info.queueGroup.flags =
        ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE | ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
    // cuMemsetD8/16/32, and longer patterns by doubling copies (queue.cpp).
    info.queueGroup.maxMemoryFillPatternSize = 128;
    info.queueGroup.numQueues = 1;

    // Device memory is the device's alone; host memory is mapped for it;
    // shared memory is managed, concurrently where the device says so.
    ze_memory_access_cap_flags_t rw = ZE_MEMORY_ACCESS_CAP_FLAG_RW | ZE_MEMORY_ACCESS_CAP_FLAG_ATOMIC;
    ze_memory_access_cap_flags_t concurrent =
        ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT | ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT_ATOMIC;
    info.access.deviceAllocCapabilities = rw;
    info.access.hostAllocCapabilities = rw | concurrent;
    info.access.sharedSingleDeviceAllocCapabilities =
        rw | (at(CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS) ? concurrent : 0);
    info.access.sharedCrossDeviceAllocCapabilities = info.access.sharedSingleDeviceAllocCapabilities;
    info.reachesSystemMemory = at(CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS) != 0;
    info.access.sharedSystemAllocCapabilities = info.reachesSystemMemory ? rw : 0;
    return info;
}

} // namespace

std::vector<std::unique_ptr<Driver>> backend::discover() {
    std::vector<std::unique_ptr<Driver>> drivers;
    const CudaApi *api = loadCudaApi(nullptr);
    int count = 0;
    if (api == nullptr || api->cuInit(0) != CUDA_SUCCESS ||
        api->cuDeviceGetCount(&count) != CUDA_SUCCESS || count <= 0)
        return drivers;
    auto driver = std::make_unique<Driver>("CUDA");
    for (int i = 0; i < count; ++i) {
        CUdevice device = 0;
        if (api->cuDeviceGet(&device, i) != CUDA_SUCCESS)
            continue;
        auto made = std::make_unique<Device>(
            driver.get(), deviceProperties(*api, device, static_cast<uint32_t>(i)));
        made->native().device = device;
        for (int d = 0; d < 3; ++d)
            made->native().grid[d] = std::max(
                1u, u32(attribute(*api, device, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X + d)));
        driver->addDevice(std::move(made));
    }
    if (!driver->devices().empty())
        drivers.push_back(std::move(driver));
    return drivers;
}

} // namespace ze_driver
