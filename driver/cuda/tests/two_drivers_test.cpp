// libze_cuda.so beside libze_opencl.so in one process, through the system
// loader: both listed in ZE_ENABLE_ALT_DRIVERS, the application sees the CPU
// device and, where there is an NVIDIA GPU, the GPU with its properties.
// Without a GPU (or without libcuda.so.1) the CUDA driver reports no device
// and the GPU tests say they skipped. CudaAlone runs with libze_cuda.so the
// only driver listed (ctest: ze_cuda.alone).
#include "ze_test_common.hpp"

#include <dlfcn.h>

namespace zetest {
namespace {

constexpr uint32_t kNvidia = 0x10de;

// Whether this machine has an NVIDIA driver with at least one GPU, asked of
// libcuda.so.1 directly (not through the driver under test).
bool machineHasNvidiaGpu() {
    void *cuda = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (cuda == nullptr)
        return false;
    using Init = int (*)(unsigned);
    using Count = int (*)(int *);
    auto init = reinterpret_cast<Init>(dlsym(cuda, "cuInit"));
    auto count = reinterpret_cast<Count>(dlsym(cuda, "cuDeviceGetCount"));
    int n = 0;
    return init && count && init(0) == 0 && count(&n) == 0 && n > 0;
}

struct Found {
    ze_device_handle_t device;
    ze_device_properties_t properties;
};

std::vector<Found> allDevices() {
    std::vector<Found> found;
    uint32_t drivers = 0;
    EXPECT_ZE_SUCCESS(zeDriverGet(&drivers, nullptr));
    std::vector<ze_driver_handle_t> driverHandles(drivers);
    EXPECT_ZE_SUCCESS(zeDriverGet(&drivers, driverHandles.data()));
    for (ze_driver_handle_t driver : driverHandles) {
        uint32_t n = 0;
        EXPECT_ZE_SUCCESS(zeDeviceGet(driver, &n, nullptr));
        std::vector<ze_device_handle_t> devices(n);
        EXPECT_ZE_SUCCESS(zeDeviceGet(driver, &n, devices.data()));
        for (ze_device_handle_t device : devices) {
            Found f{device, {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES}};
            EXPECT_ZE_SUCCESS(zeDeviceGetProperties(device, &f.properties));
            found.push_back(f);
        }
    }
    return found;
}

TEST(TwoDrivers, TheCpuDeviceIsEnumerated) {
    ASSERT_ZE_SUCCESS(zeInit(0));
    auto devices = allDevices();
    size_t cpus = 0;
    for (const Found &f : devices)
        cpus += f.properties.type == ZE_DEVICE_TYPE_CPU;
    EXPECT_EQ(cpus, 1u) << "PoCL's CPU device, through libze_opencl.so";
    size_t gpus = 0;
    for (const Found &f : devices)
        gpus += f.properties.vendorId == kNvidia;
    EXPECT_EQ(gpus > 0, machineHasNvidiaGpu());
}

TEST(TwoDrivers, TheGpuHasItsProperties) {
    ASSERT_ZE_SUCCESS(zeInit(0));
    if (!machineHasNvidiaGpu())
        GTEST_SKIP() << "skipped: no NVIDIA GPU";
    for (const Found &f : allDevices()) {
        if (f.properties.vendorId != kNvidia)
            continue;
        SCOPED_TRACE(f.properties.name);
        EXPECT_EQ(f.properties.type, ZE_DEVICE_TYPE_GPU);
        EXPECT_NE(std::string(f.properties.name), "");
        EXPECT_GT(f.properties.numSubslicesPerSlice, 0u); // streaming multiprocessors
        EXPECT_GT(f.properties.coreClockRate, 0u);
        ze_device_compute_properties_t compute = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
        ASSERT_ZE_SUCCESS(zeDeviceGetComputeProperties(f.device, &compute));
        EXPECT_GE(compute.maxTotalGroupSize, 256u);
        EXPECT_EQ(compute.numSubGroupSizes, 1u);
        EXPECT_EQ(compute.subGroupSizes[0], 32u); // a warp
        EXPECT_GE(compute.maxSharedLocalMemory, 16u * 1024);
        uint32_t count = 1;
        ze_device_memory_properties_t memory = {ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES};
        ASSERT_ZE_SUCCESS(zeDeviceGetMemoryProperties(f.device, &count, &memory));
        EXPECT_GT(memory.totalSize, 1ull << 30);
        ze_device_memory_access_properties_t access = {
            ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES};
        ASSERT_ZE_SUCCESS(zeDeviceGetMemoryAccessProperties(f.device, &access));
        // Device memory is the GPU's alone: the host cannot use it concurrently.
        EXPECT_EQ(access.deviceAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_CONCURRENT, 0u);
        EXPECT_NE(access.hostAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW, 0u);
        std::printf("%s: %u SMs, %u MHz, %llu MiB, %u threads per group\n", f.properties.name,
                    f.properties.numSubslicesPerSlice, f.properties.coreClockRate,
                    static_cast<unsigned long long>(memory.totalSize >> 20),
                    compute.maxTotalGroupSize);
    }
}

// libze_cuda.so the only driver: without a GPU it initialises with no
// driver to offer (so a trailing failure cannot fail the application's zeInit
// through the loader), and nothing crashes.
TEST(CudaAlone, InitFindsTheGpuOrNothing) {
    ze_result_t result = zeInit(0);
    uint32_t drivers = 0;
    if (result == ZE_RESULT_SUCCESS)
        ASSERT_ZE_SUCCESS(zeDriverGet(&drivers, nullptr));
    auto devices = drivers > 0 ? allDevices() : std::vector<Found>{};
    EXPECT_EQ(!devices.empty(), machineHasNvidiaGpu());
    for (const Found &f : devices)
        EXPECT_EQ(f.properties.vendorId, kNvidia);
}

} // namespace
} // namespace zetest
