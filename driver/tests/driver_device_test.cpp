// Driver and device: initialisation, enumeration and the properties a
// framework reads before it decides to use a device.
#include "ze_test_common.hpp"

#include <set>

namespace zetest {
namespace {

bool isPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

// The loader calls the driver's zeInit once per application zeInit, so a
// second call must not re-initialise or fail, and must give the same handles.
TEST(Init, TwiceGivesTheSameDriverAndDevices) {
    ASSERT_ZE_SUCCESS(zeInit(0));
    uint32_t count1 = 0;
    ASSERT_ZE_SUCCESS(zeDriverGet(&count1, nullptr));
    ASSERT_GE(count1, 1u);
    std::vector<ze_driver_handle_t> drivers1(count1);
    ASSERT_ZE_SUCCESS(zeDriverGet(&count1, drivers1.data()));

    ASSERT_ZE_SUCCESS(zeInit(0));
    uint32_t count2 = 0;
    ASSERT_ZE_SUCCESS(zeDriverGet(&count2, nullptr));
    ASSERT_EQ(count1, count2);
    std::vector<ze_driver_handle_t> drivers2(count2);
    ASSERT_ZE_SUCCESS(zeDriverGet(&count2, drivers2.data()));
    EXPECT_EQ(drivers1, drivers2);

    uint32_t devices = 0;
    ASSERT_ZE_SUCCESS(zeDeviceGet(drivers2[0], &devices, nullptr));
    EXPECT_GE(devices, 1u);
}

// Asking for fewer drivers than exist returns exactly that many.
TEST(Init, DriverGetHonoursTheRequestedCount) {
    ASSERT_ZE_SUCCESS(zeInit(0));
    uint32_t count = 1;
    ze_driver_handle_t driver = nullptr;
    ASSERT_ZE_SUCCESS(zeDriverGet(&count, &driver));
    EXPECT_EQ(count, 1u);
    EXPECT_NE(driver, nullptr);
}

class DriverTest : public WithDriver {};

TEST_F(DriverTest, ApiVersionIsOnePointSomething) {
    ze_api_version_t version = {};
    ASSERT_ZE_SUCCESS(zeDriverGetApiVersion(driver_, &version));
    EXPECT_EQ(ZE_MAJOR_VERSION(version), 1);
}

TEST_F(DriverTest, PropertiesAreStable) {
    ze_driver_properties_t p1 = {ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
    ze_driver_properties_t p2 = {ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDriverGetProperties(driver_, &p1));
    ASSERT_ZE_SUCCESS(zeDriverGetProperties(driver_, &p2));
    EXPECT_EQ(0, std::memcmp(p1.uuid.id, p2.uuid.id, ZE_MAX_DRIVER_UUID_SIZE));
    EXPECT_EQ(p1.driverVersion, p2.driverVersion);
}

// Frameworks enumerate extensions to find optional features; the list must
// be well formed even when it is short.
TEST_F(DriverTest, ExtensionPropertiesAreWellFormed) {
    uint32_t count = 0;
    ASSERT_ZE_SUCCESS(zeDriverGetExtensionProperties(driver_, &count, nullptr));
    std::vector<ze_driver_extension_properties_t> extensions(count);
    if (count > 0) {
        ASSERT_ZE_SUCCESS(zeDriverGetExtensionProperties(driver_, &count, extensions.data()));
    }
    std::set<std::string> names;
    for (const auto &e : extensions) {
        const size_t length = strnlen(e.name, ZE_MAX_EXTENSION_NAME);
        ASSERT_LT(length, static_cast<size_t>(ZE_MAX_EXTENSION_NAME)) << "name not terminated";
        EXPECT_GT(length, 0u);
        EXPECT_TRUE(names.insert(e.name).second) << "duplicate extension " << e.name;
    }
}

class DeviceTest : public WithDevice {};

TEST_F(DeviceTest, EveryDeviceBelongsToTheDriver) {
    uint32_t count = 0;
    ASSERT_ZE_SUCCESS(zeDeviceGet(driver_, &count, nullptr));
    std::vector<ze_device_handle_t> devices(count);
    ASSERT_ZE_SUCCESS(zeDeviceGet(driver_, &count, devices.data()));
    // Asking for more devices than exist corrects the count.
    uint32_t more = count + 3;
    std::vector<ze_device_handle_t> extra(more, nullptr);
    ASSERT_ZE_SUCCESS(zeDeviceGet(driver_, &more, extra.data()));
    EXPECT_EQ(more, count);
    for (ze_device_handle_t d : devices) {
        EXPECT_NE(d, nullptr);
        uint32_t subDevices = 0;
        ASSERT_ZE_SUCCESS(zeDeviceGetSubDevices(d, &subDevices, nullptr));
        EXPECT_EQ(subDevices, 0u) << "OpenCL devices are not partitioned into sub-devices";
    }
}

// The driver reports the truth by default: PoCL's device is a CPU. Its
// documented option ZE_OPENCL_DEVICE_TYPE=GPU makes it report GPU devices for
// frameworks that look only for GPUs; the suite also runs with that option
// (ze_opencl.driver_device.as_gpu).
TEST_F(DeviceTest, PropertiesAreBelievable) {
    ze_device_properties_t p = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetProperties(device_, &p));
    EXPECT_EQ(p.type, expectedDeviceType());
    EXPECT_GT(strnlen(p.name, ZE_MAX_DEVICE_NAME), 0u);
    EXPECT_LT(strnlen(p.name, ZE_MAX_DEVICE_NAME), static_cast<size_t>(ZE_MAX_DEVICE_NAME));
    EXPECT_GT(p.maxMemAllocSize, 0u);
    EXPECT_GT(p.coreClockRate, 0u);
    EXPECT_GT(p.timerResolution, 0u) << "nanoseconds per timer tick";
    EXPECT_GT(p.timestampValidBits, 0u);
    EXPECT_LE(p.timestampValidBits, 64u);
    EXPECT_GT(p.kernelTimestampValidBits, 0u);
    EXPECT_LE(p.kernelTimestampValidBits, 64u);
    EXPECT_EQ(p.flags & ZE_DEVICE_PROPERTY_FLAG_SUBDEVICE, 0u);
    bool anyNonZero = false;
    for (uint8_t b : p.uuid.id)
        anyNonZero |= b != 0;
    EXPECT_TRUE(anyNonZero) << "the device UUID is all zeros";
}

// Since 1.2 the same query, with the _1_2 stype, reports timerResolution in
// cycles per second instead of nanoseconds per cycle; both must describe the
// same timer.
TEST_F(DeviceTest, TimerResolutionInBothFlavoursAgrees) {
    ze_device_properties_t ns = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ze_device_properties_t hz = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES_1_2};
    ASSERT_ZE_SUCCESS(zeDeviceGetProperties(device_, &ns));
    ASSERT_ZE_SUCCESS(zeDeviceGetProperties(device_, &hz));
    ASSERT_GT(ns.timerResolution, 0u);
    ASSERT_GT(hz.timerResolution, 0u);
    // ns-per-tick * ticks-per-second is one second, up to integer rounding.
    const double product = static_cast<double>(ns.timerResolution) * hz.timerResolution;
    EXPECT_GE(product, 0.5e9);
    EXPECT_LE(product, 2.0e9);
    // Everything else is the same device.
    EXPECT_EQ(ns.type, hz.type);
    EXPECT_EQ(ns.maxMemAllocSize, hz.maxMemAllocSize);
    EXPECT_EQ(0, std::memcmp(ns.uuid.id, hz.uuid.id, ZE_MAX_DEVICE_UUID_SIZE));
}

// Frameworks key caches by device UUID: it must not change between queries.
TEST_F(DeviceTest, UuidIsStable) {
    ze_device_properties_t a = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ze_device_properties_t b = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetProperties(device_, &a));
    ASSERT_ZE_SUCCESS(zeDeviceGetProperties(device_, &b));
    EXPECT_EQ(0, std::memcmp(a.uuid.id, b.uuid.id, ZE_MAX_DEVICE_UUID_SIZE));
}

TEST_F(DeviceTest, ComputePropertiesAreBelievable) {
    ze_device_compute_properties_t p = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetComputeProperties(device_, &p));
    EXPECT_GT(p.maxTotalGroupSize, 0u);
    EXPECT_GT(p.maxGroupSizeX, 0u);
    EXPECT_GT(p.maxGroupSizeY, 0u);
    EXPECT_GT(p.maxGroupSizeZ, 0u);
    EXPECT_LE(p.maxGroupSizeX, p.maxTotalGroupSize);
    EXPECT_GT(p.maxGroupCountX, 0u);
    EXPECT_GT(p.maxGroupCountY, 0u);
    EXPECT_GT(p.maxGroupCountZ, 0u);
    EXPECT_GT(p.maxSharedLocalMemory, 0u);
    ASSERT_GT(p.numSubGroupSizes, 0u);
    ASSERT_LE(p.numSubGroupSizes, static_cast<uint32_t>(ZE_SUBGROUPSIZE_COUNT));
    for (uint32_t i = 0; i < p.numSubGroupSizes; ++i)
        EXPECT_GT(p.subGroupSizes[i], 0u);
}

TEST_F(DeviceTest, ModulePropertiesSupportSpirv12) {
    ze_device_module_properties_t p = {ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetModuleProperties(device_, &p));
    EXPECT_GE(p.spirvVersionSupported, static_cast<uint32_t>(ZE_MAKE_VERSION(1, 2)))
        << "SPIR-V " << ZE_MAJOR_VERSION(p.spirvVersionSupported) << "."
        << ZE_MINOR_VERSION(p.spirvVersionSupported);
    EXPECT_NE(p.fp32flags, 0u);
    EXPECT_GT(p.maxArgumentsSize, 0u);
}

// One group that does both compute and copy: every list uses ordinal 0.
TEST_F(DeviceTest, OneQueueGroupForComputeAndCopy) {
    uint32_t count = 0;
    ASSERT_ZE_SUCCESS(zeDeviceGetCommandQueueGroupProperties(device_, &count, nullptr));
    ASSERT_EQ(count, 1u);
    ze_command_queue_group_properties_t p = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetCommandQueueGroupProperties(device_, &count, &p));
    const ze_command_queue_group_property_flags_t both =
        ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE | ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COPY;
    EXPECT_EQ(p.flags & both, both);
    EXPECT_GE(p.numQueues, 1u);
    EXPECT_TRUE(isPowerOfTwo(p.maxMemoryFillPatternSize)) << p.maxMemoryFillPatternSize;
}

TEST_F(DeviceTest, MemoryPropertiesReportASize) {
    uint32_t count = 0;
    ASSERT_ZE_SUCCESS(zeDeviceGetMemoryProperties(device_, &count, nullptr));
    ASSERT_GE(count, 1u);
    std::vector<ze_device_memory_properties_t> p(count);
    for (auto &m : p)
        m.stype = ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES;
    ASSERT_ZE_SUCCESS(zeDeviceGetMemoryProperties(device_, &count, p.data()));
    EXPECT_GT(p[0].totalSize, 0u);
    EXPECT_GT(p[0].maxBusWidth, 0u);

    ze_device_properties_t dp = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetProperties(device_, &dp));
    EXPECT_LE(dp.maxMemAllocSize, p[0].totalSize);
}

// USM on SVM: host, device and shared allocations are all accessible by the
// device; host and shared by the host as well.
TEST_F(DeviceTest, MemoryAccessCapabilitiesCoverUsm) {
    ze_device_memory_access_properties_t p = {
        ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetMemoryAccessProperties(device_, &p));
    EXPECT_NE(p.hostAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW, 0u);
    EXPECT_NE(p.deviceAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW, 0u);
    EXPECT_NE(p.sharedSingleDeviceAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW, 0u);
}

TEST_F(DeviceTest, CachePropertiesCanBeQueried) {
    uint32_t count = 0;
    ASSERT_ZE_SUCCESS(zeDeviceGetCacheProperties(device_, &count, nullptr));
    std::vector<ze_device_cache_properties_t> p(count);
    for (auto &c : p)
        c.stype = ZE_STRUCTURE_TYPE_DEVICE_CACHE_PROPERTIES;
    if (count > 0) {
        ASSERT_ZE_SUCCESS(zeDeviceGetCacheProperties(device_, &count, p.data()));
    }
}

// Host and device timestamps are read together; each clock is monotonic.
TEST_F(DeviceTest, GlobalTimestampsDoNotGoBackwards) {
    uint64_t host1 = 0, device1 = 0, host2 = 0, device2 = 0;
    ASSERT_ZE_SUCCESS(zeDeviceGetGlobalTimestamps(device_, &host1, &device1));
    ASSERT_ZE_SUCCESS(zeDeviceGetGlobalTimestamps(device_, &host2, &device2));
    EXPECT_LE(host1, host2);
    EXPECT_LE(device1, device2);
}

TEST_F(DeviceTest, CanAccessItself) {
    ze_bool_t canAccess = false;
    ASSERT_ZE_SUCCESS(zeDeviceCanAccessPeer(device_, device_, &canAccess));
    EXPECT_TRUE(canAccess);
}

} // namespace
} // namespace zetest
