// The entry points of Level Zero 1.6 to 1.10 the driver implements
// (driver/core/newer_api.hpp): zeCommandListHostSynchronize,
// zeDeviceGetRootDevice, zeInitDrivers.
//
// DdiTables: the driver's table exports fill the newer slots only for a
// caller whose version has them (a 1.4 loader's tables end before them),
// checked by calling the exports directly with a guard word after the 1.4
// table. NewerLoader: the functions through a loader that has them (1.15 or
// later; the tests' .newer_loader run puts the 1.20 loader of
// scripts/setup_sycl.sh first); with the system's 1.8.12 loader they skip,
// except where IMEX_L0_REQUIRE_NEWER_LOADER=1 says the loader must have them.
#include "ze_test_common.hpp"

#include "../core/newer_api.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>

namespace {

using namespace ze_driver;
using namespace zetest;

constexpr uintptr_t kGuard = 0x5a5a5a5a5a5a5a5aull;

// The driver library the loader was pointed at (ZE_ENABLE_ALT_DRIVERS).
void *driverLibrary() {
    const char *path = std::getenv("ZE_ENABLE_ALT_DRIVERS");
    return path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : nullptr;
}

// Fills a table through the driver's export `name` for `version`, with the
// word after the 1.4 table set to kGuard first; returns that word.
template <class Table1_4> uintptr_t slotAfter1_4(const char *name, ze_api_version_t version) {
    struct {
        Table1_4 table;
        uintptr_t next;
    } buffer;
    std::memset(&buffer, 0, sizeof buffer);
    buffer.next = kGuard;
    void *library = driverLibrary();
    EXPECT_NE(library, nullptr) << "ZE_ENABLE_ALT_DRIVERS names no loaded driver";
    auto *get = reinterpret_cast<ze_result_t(ZE_APICALL *)(ze_api_version_t, Table1_4 *)>(
        library ? dlsym(library, name) : nullptr);
    EXPECT_NE(get, nullptr) << name;
    if (get)
        EXPECT_EQ(get(version, &buffer.table), ZE_RESULT_SUCCESS) << name;
    if (library)
        dlclose(library);
    return buffer.next;
}

const auto kVersion1_4 = static_cast<ze_api_version_t>(ZE_MAKE_VERSION(1, 4));
const auto kVersion1_12 = static_cast<ze_api_version_t>(ZE_MAKE_VERSION(1, 12));

TEST(DdiTables, NewerSlotsOnlyForCallersThatHaveThem) {
    EXPECT_EQ(slotAfter1_4<ze_global_dditable_t>("zeGetGlobalProcAddrTable", kVersion1_4), kGuard);
    EXPECT_EQ(slotAfter1_4<ze_device_dditable_t>("zeGetDeviceProcAddrTable", kVersion1_4), kGuard);
    EXPECT_EQ(
        slotAfter1_4<ze_command_list_dditable_t>("zeGetCommandListProcAddrTable", kVersion1_4),
        kGuard);
    // 1.6 has HostSynchronize, not yet GetRootDevice (1.7) or InitDrivers (1.10).
    const auto v1_6 = kApiVersion1_6;
    EXPECT_NE(slotAfter1_4<ze_command_list_dditable_t>("zeGetCommandListProcAddrTable", v1_6),
              kGuard);
    EXPECT_EQ(slotAfter1_4<ze_device_dditable_t>("zeGetDeviceProcAddrTable", v1_6), kGuard);
    EXPECT_EQ(slotAfter1_4<ze_global_dditable_t>("zeGetGlobalProcAddrTable", v1_6), kGuard);
    for (uintptr_t slot :
         {slotAfter1_4<ze_global_dditable_t>("zeGetGlobalProcAddrTable", kVersion1_12),
          slotAfter1_4<ze_device_dditable_t>("zeGetDeviceProcAddrTable", kVersion1_12),
          slotAfter1_4<ze_command_list_dditable_t>("zeGetCommandListProcAddrTable",
                                                   kVersion1_12)}) {
        EXPECT_NE(slot, kGuard);
        EXPECT_NE(slot, 0u);
    }
}

// The loader's entry point, or null when this loader predates it.
template <class Fn> Fn loaderFunction(const char *name) {
    return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
}

bool newerLoaderRequired() {
    const char *v = std::getenv("IMEX_L0_REQUIRE_NEWER_LOADER");
    return v && std::strcmp(v, "1") == 0;
}

#define NEEDS_NEWER_LOADER(fn)                                                                     \
    do {                                                                                           \
        if (!(fn)) {                                                                               \
            ASSERT_FALSE(newerLoaderRequired()) << "the loader has no " #fn;                       \
            GTEST_SKIP() << "the Level Zero loader predates " #fn " (the .newer_loader run "       \
                            "has it)";                                                             \
        }                                                                                          \
    } while (0)

class NewerLoader : public WithImmediateList {};

TEST_F(NewerLoader, HostSynchronizeWaitsForTheListsWork) {
    auto hostSynchronize =
        loaderFunction<CommandListHostSynchronizeFn>("zeCommandListHostSynchronize");
    NEEDS_NEWER_LOADER(hostSynchronize);
    const uint32_t n = 4096;
    Module basic;
    ASSERT_NO_FATAL_FAILURE(loadModule(basic, "basic"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, basic, "vector_add", 64));
    UsmBuffer<int> a, b, c;
    allocate(a, UsmKind::Host, n);
    allocate(b, UsmKind::Host, n);
    allocate(c, UsmKind::Host, n);
    for (uint32_t round = 0; round < 3; ++round) {
        for (uint32_t i = 0; i < n; ++i) {
            a[i] = testValue(i, int(round));
            b[i] = testValue(i, 100 + int(round));
            c[i] = -1;
        }
        ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(a), usm(b), usm(c)}));
        ASSERT_ZE_SUCCESS(launch(list_, kernel, {n / 64, 1, 1}));
        ASSERT_ZE_SUCCESS(hostSynchronize(list_, UINT64_MAX));
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(c[i], a[i] + b[i]) << "round " << round << " i=" << i;
    }
    // Nothing appended since: a zero timeout is met, again and again.
    EXPECT_ZE_SUCCESS(hostSynchronize(list_, 0));
    EXPECT_ZE_SUCCESS(hostSynchronize(list_, 0));
}

TEST_F(NewerLoader, HostSynchronizeRefusesARegularList) {
    auto hostSynchronize =
        loaderFunction<CommandListHostSynchronizeFn>("zeCommandListHostSynchronize");
    NEEDS_NEWER_LOADER(hostSynchronize);
    CommandList regular;
    ze_command_list_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    ASSERT_ZE_SUCCESS(zeCommandListCreate(context_, device_, &desc, regular.out()));
    EXPECT_EQ(hostSynchronize(regular, UINT64_MAX), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

TEST_F(NewerLoader, DevicesAreRootDevices) {
    auto getRootDevice = loaderFunction<DeviceGetRootDeviceFn>("zeDeviceGetRootDevice");
    NEEDS_NEWER_LOADER(getRootDevice);
    ze_device_handle_t root = device_;
    ASSERT_ZE_SUCCESS(getRootDevice(device_, &root));
    EXPECT_EQ(root, nullptr);
}

TEST_F(NewerLoader, InitDriversListsTheDriverByItsDevicesType) {
    auto initDrivers = loaderFunction<InitDriversFn>("zeInitDrivers");
    NEEDS_NEWER_LOADER(initDrivers);
    InitDriverTypeDesc gpus = {kInitDriverTypeDescType, nullptr, kInitDriverTypeGpu};
    uint32_t count = 0;
    ASSERT_ZE_SUCCESS(initDrivers(&count, nullptr, &gpus));
    uint32_t devices = 0;
    ASSERT_ZE_SUCCESS(zeDeviceGet(driver_, &devices, nullptr));
    std::vector<ze_device_handle_t> handles(devices);
    ASSERT_ZE_SUCCESS(zeDeviceGet(driver_, &devices, handles.data()));
    bool isGpu = false;
    for (ze_device_handle_t d : handles) {
        ze_device_properties_t props = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
        ASSERT_ZE_SUCCESS(zeDeviceGetProperties(d, &props));
        isGpu |= props.type == ZE_DEVICE_TYPE_GPU;
    }
    EXPECT_EQ(count, isGpu ? 1u : 0u);
    if (count) {
        ze_driver_handle_t driver = nullptr;
        ASSERT_ZE_SUCCESS(initDrivers(&count, &driver, &gpus));
        EXPECT_EQ(driver, driver_);
    }
    InitDriverTypeDesc npus = {kInitDriverTypeDescType, nullptr, kInitDriverTypeNpu};
    count = 0;
    ASSERT_ZE_SUCCESS(initDrivers(&count, nullptr, &npus));
    EXPECT_EQ(count, 0u);
}

} // namespace
