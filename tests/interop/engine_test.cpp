// Engines: wrapping the framework's driver/device/context without owning
// them, the library-owned default engine, the getters, the destroy rule
// (children first), and the status/message functions every call relies on.
#include "interop_fixtures.hpp"

#include <thread>

using namespace interop_test;

namespace {

class EngineTest : public WithDriver {};
class EngineWithChildrenTest : public WithEngine {};

// A handle value no library call may write: failures leave outputs untouched.
template <typename T> T sentinel() { return reinterpret_cast<T>(uintptr_t(0x5e5e5e5e)); }

TEST_F(EngineTest, InteropCreateReturnsTheUserHandles) {
    Engine engine;
    ASSERT_IMEX(imex_l0_interop_engine_create(engine.out(), driver, device, context.get()));
    ze_driver_handle_t d = nullptr;
    ze_device_handle_t dev = nullptr;
    ze_context_handle_t ctx = nullptr;
    EXPECT_IMEX(imex_l0_interop_engine_get_driver(engine.get(), &d));
    EXPECT_IMEX(imex_l0_interop_engine_get_device(engine.get(), &dev));
    EXPECT_IMEX(imex_l0_interop_engine_get_context(engine.get(), &ctx));
    EXPECT_EQ(d, driver);
    EXPECT_EQ(dev, device);
    EXPECT_EQ(ctx, context.get());
}

TEST_F(EngineTest, DeviceNameIsTheDevicePropertiesName) {
    Engine engine;
    ASSERT_IMEX(imex_l0_interop_engine_create(engine.out(), driver, device, context.get()));
    const char *name = nullptr;
    ASSERT_IMEX(imex_l0_engine_get_device_name(engine.get(), &name));
    ASSERT_NE(name, nullptr);
    ze_device_properties_t props = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ASSERT_ZE(zeDeviceGetProperties(device, &props));
    EXPECT_STREQ(name, props.name);
    EXPECT_GT(std::strlen(name), 0u);
}

TEST_F(EngineTest, DestroyLeavesTheUserContextUsable) {
    Engine engine;
    ASSERT_IMEX(imex_l0_interop_engine_create(engine.out(), driver, device, context.get()));
    ASSERT_IMEX(imex_l0_engine_destroy(engine.release()));

    // The framework's context still allocates, and runs work on a new list.
    UsmBuffer buffer = allocShared(4096);
    ASSERT_NE(buffer.get(), nullptr);
    ZeList list = newImmediateList();
    userFill(list.get(), buffer.get(), 0xab, buffer.size());
    for (size_t i = 0; i < buffer.size(); ++i)
        ASSERT_EQ(buffer.as<uint8_t>()[i], 0xab) << "byte " << i;
    // ~ZeContext checks zeContextDestroy succeeds: the library did not destroy it.
}

TEST_F(EngineTest, NullContextMakesAnOwnedContext) {
    Engine engine;
    ASSERT_IMEX(imex_l0_interop_engine_create(engine.out(), driver, device, nullptr));
    ze_context_handle_t owned = nullptr;
    ASSERT_IMEX(imex_l0_interop_engine_get_context(engine.get(), &owned));
    ASSERT_NE(owned, nullptr);
    EXPECT_NE(owned, context.get());

    // The owned context is a real one: it allocates.
    ze_host_mem_alloc_desc_t h = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *p = nullptr;
    ASSERT_ZE(zeMemAllocHost(owned, &h, 64, 64, &p));
    ASSERT_ZE(zeMemFree(owned, p));
    EXPECT_IMEX(imex_l0_engine_destroy(engine.release()));

    // Destroying it never touched the framework's own context.
    UsmBuffer buffer = allocHost(64);
    EXPECT_NE(buffer.get(), nullptr);
}

TEST_F(EngineTest, DefaultEngineOnDeviceZero) {
    Engine engine;
    ASSERT_IMEX(imex_l0_engine_create(engine.out(), 0));
    ze_driver_handle_t d = nullptr;
    ze_device_handle_t dev = nullptr;
    ze_context_handle_t ctx = nullptr;
    ASSERT_IMEX(imex_l0_interop_engine_get_driver(engine.get(), &d));
    ASSERT_IMEX(imex_l0_interop_engine_get_device(engine.get(), &dev));
    ASSERT_IMEX(imex_l0_interop_engine_get_context(engine.get(), &ctx));
    // First driver, first device: what the framework fixture also picked.
    EXPECT_EQ(d, driver);
    EXPECT_EQ(dev, device);
    EXPECT_NE(ctx, nullptr);
    EXPECT_NE(ctx, context.get());
    const char *name = nullptr;
    ASSERT_IMEX(imex_l0_engine_get_device_name(engine.get(), &name));
    EXPECT_GT(std::strlen(name), 0u);

    // The library's own context works for a whole flow.
    Stream stream;
    ASSERT_IMEX(imex_l0_stream_create(stream.out(), engine.get()));
    Memory memory;
    ASSERT_IMEX(imex_l0_interop_memory_create(memory.out(), engine.get(),
                                              imex_l0_memory_kind_shared, 256,
                                              IMEX_L0_MEMORY_ALLOCATE));
    void *p = nullptr;
    ASSERT_IMEX(imex_l0_interop_memory_get_mem_object(memory.get(), 0, &p));
    uint32_t pattern = 0x01020304;
    ASSERT_IMEX(imex_l0_interop_memset(stream.get(), p, &pattern, 4, 256, 0, nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(static_cast<uint32_t *>(p)[i], pattern);
    memory.reset();
    stream.reset();
}

TEST_F(EngineTest, DefaultEngineOnAMissingDeviceFails) {
    uint32_t ndevices = 0;
    ASSERT_ZE(zeDeviceGet(driver, &ndevices, nullptr));
    imex_l0_engine_t engine = sentinel<imex_l0_engine_t>();
    imex_l0_status_t s = imex_l0_engine_create(&engine, ndevices);
    EXPECT_TRUE(s == imex_l0_not_found || s == imex_l0_invalid_arguments)
        << imex_l0_status_str(s) << ": " << lastError();
    EXPECT_NE(lastError(), "");
    EXPECT_EQ(engine, sentinel<imex_l0_engine_t>());
}

TEST_F(EngineTest, TwoEnginesOnOneUserContext) {
    Engine a, b;
    ASSERT_IMEX(imex_l0_interop_engine_create(a.out(), driver, device, context.get()));
    ASSERT_IMEX(imex_l0_interop_engine_create(b.out(), driver, device, context.get()));
    EXPECT_NE(a.get(), b.get());
    ASSERT_IMEX(imex_l0_engine_destroy(a.release()));
    // b is independent of a.
    ze_context_handle_t ctx = nullptr;
    ASSERT_IMEX(imex_l0_interop_engine_get_context(b.get(), &ctx));
    EXPECT_EQ(ctx, context.get());
    Stream stream;
    EXPECT_IMEX(imex_l0_stream_create(stream.out(), b.get()));
}

TEST_F(EngineTest, CreateRejectsNullArguments) {
    imex_l0_engine_t engine = sentinel<imex_l0_engine_t>();
    EXPECT_INVALID(imex_l0_interop_engine_create(nullptr, driver, device, context.get()),
                   "engine");
    EXPECT_INVALID(imex_l0_interop_engine_create(&engine, nullptr, device, context.get()),
                   "driver");
    EXPECT_INVALID(imex_l0_interop_engine_create(&engine, driver, nullptr, context.get()),
                   "device");
    EXPECT_EQ(engine, sentinel<imex_l0_engine_t>());
    EXPECT_INVALID(imex_l0_engine_create(nullptr, 0), "engine");
}

TEST_F(EngineTest, GettersRejectNullArguments) {
    Engine engine;
    ASSERT_IMEX(imex_l0_interop_engine_create(engine.out(), driver, device, context.get()));
    ze_driver_handle_t d = sentinel<ze_driver_handle_t>();
    ze_device_handle_t dev = sentinel<ze_device_handle_t>();
    ze_context_handle_t ctx = sentinel<ze_context_handle_t>();
    const char *name = sentinel<const char *>();
    EXPECT_INVALID(imex_l0_interop_engine_get_driver(nullptr, &d), "engine");
    EXPECT_INVALID(imex_l0_interop_engine_get_device(nullptr, &dev), "engine");
    EXPECT_INVALID(imex_l0_interop_engine_get_context(nullptr, &ctx), "engine");
    EXPECT_INVALID(imex_l0_engine_get_device_name(nullptr, &name), "engine");
    EXPECT_EQ(d, sentinel<ze_driver_handle_t>());
    EXPECT_EQ(dev, sentinel<ze_device_handle_t>());
    EXPECT_EQ(ctx, sentinel<ze_context_handle_t>());
    EXPECT_EQ(name, sentinel<const char *>());
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                       imex_l0_interop_engine_get_driver(engine.get(), nullptr));
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                       imex_l0_interop_engine_get_device(engine.get(), nullptr));
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                       imex_l0_interop_engine_get_context(engine.get(), nullptr));
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                       imex_l0_engine_get_device_name(engine.get(), nullptr));
    EXPECT_INVALID(imex_l0_engine_destroy(nullptr), "engine");
}

TEST_F(EngineWithChildrenTest, OtherHandleTypesAreNotEngines) {
    Stream stream;
    ASSERT_IMEX(imex_l0_stream_create(stream.out(), engine.get()));
    Memory memory = newMemory(imex_l0_memory_kind_host, 64);
    ze_driver_handle_t d = sentinel<ze_driver_handle_t>();
    EXPECT_INVALID(
        imex_l0_interop_engine_get_driver(reinterpret_cast<imex_l0_engine_t>(stream.get()), &d),
        "engine");
    EXPECT_INVALID(imex_l0_engine_destroy(reinterpret_cast<imex_l0_engine_t>(memory.get())),
                   "engine");
    EXPECT_EQ(d, sentinel<ze_driver_handle_t>());
    // Both are still alive and usable after being refused as engines.
    ze_command_list_handle_t list = nullptr;
    EXPECT_IMEX(imex_l0_interop_stream_get_list(stream.get(), &list));
    size_t size = 0;
    EXPECT_IMEX(imex_l0_memory_get_size(memory.get(), 0, &size));
    EXPECT_EQ(size, 64u);
}

TEST_F(EngineWithChildrenTest, DestroyWithLiveChildrenIsRefused) {
    Stream stream;
    ASSERT_IMEX(imex_l0_stream_create(stream.out(), engine.get()));
    Memory memory = newMemory(imex_l0_memory_kind_device, 128);
    Kernel kernel;
    ASSERT_IMEX(imex_l0_kernel_create_from_spirv(kernel.out(), engine.get(), kernelSpirv().data(),
                                                 kernelSpirv().size(), "empty", nullptr));

    // Each child alone keeps the engine alive.
    EXPECT_INVALID(imex_l0_engine_destroy(engine.get()), "destroy");
    stream.reset();
    EXPECT_INVALID(imex_l0_engine_destroy(engine.get()), "destroy");
    memory.reset();
    EXPECT_INVALID(imex_l0_engine_destroy(engine.get()), "destroy");

    // The refused engine is intact: it still makes streams and runs kernels.
    Stream again;
    ASSERT_IMEX(imex_l0_stream_create(again.out(), engine.get()));
    imex_l0_range_t range = range1d(4);
    ASSERT_IMEX(imex_l0_interop_kernel_execute(kernel.get(), again.get(), 0, nullptr, &range, 0,
                                               nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(again.get()));
    again.reset();
    kernel.reset();

    EXPECT_IMEX(imex_l0_engine_destroy(engine.release()));
    // The framework's context outlives it.
    UsmBuffer buffer = allocDevice(64);
    EXPECT_NE(buffer.get(), nullptr);
}

TEST_F(EngineWithChildrenTest, OutstandingEventsAreReclaimedByDestroy) {
    // Events returned and never released belong to the engine's pool; the
    // engine's destruction reclaims them (no error, no leak report).
    Stream stream;
    ASSERT_IMEX(imex_l0_stream_create(stream.out(), engine.get()));
    Memory memory = newMemory(imex_l0_memory_kind_shared, 64);
    ze_event_handle_t events[3] = {};
    uint8_t zero = 0;
    for (auto &e : events)
        ASSERT_IMEX(imex_l0_interop_memset(stream.get(), ptrOf(memory.get()), &zero, 1, 64, 0,
                                           nullptr, &e));
    for (auto e : events)
        ASSERT_ZE(zeEventHostSynchronize(e, UINT64_MAX));
    memory.reset();
    stream.reset();
    EXPECT_IMEX(imex_l0_engine_destroy(engine.release()));
}

TEST(StatusTest, EveryStatusHasItsName) {
    const std::pair<imex_l0_status_t, const char *> names[] = {
        {imex_l0_success, "imex_l0_success"},
        {imex_l0_out_of_memory, "imex_l0_out_of_memory"},
        {imex_l0_invalid_arguments, "imex_l0_invalid_arguments"},
        {imex_l0_unimplemented, "imex_l0_unimplemented"},
        {imex_l0_compile_error, "imex_l0_compile_error"},
        {imex_l0_not_found, "imex_l0_not_found"},
        {imex_l0_runtime_error, "imex_l0_runtime_error"},
        {imex_l0_timeout, "imex_l0_timeout"},
        {imex_l0_device_lost, "imex_l0_device_lost"},
    };
    for (auto &n : names)
        EXPECT_STREQ(imex_l0_status_str(n.first), n.second);
    // An out-of-range value still yields a printable string.
    const char *unknown = imex_l0_status_str(static_cast<imex_l0_status_t>(1234));
    ASSERT_NE(unknown, nullptr);
}

TEST(StatusTest, MessageIsSetOnFailureAndClearedBySuccess) {
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments, imex_l0_engine_destroy(nullptr));
    EXPECT_NE(lastError(), "");
    imex_l0_cache_stats_t stats;
    ASSERT_IMEX(imex_l0_get_cache_stats(&stats));
    EXPECT_EQ(lastError(), "");
}

TEST(StatusTest, MessageIsPerThread) {
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments, imex_l0_engine_destroy(nullptr));
    std::string mine = lastError();
    ASSERT_NE(mine, "");
    std::string theirs = "unset";
    std::thread other([&] { theirs = imex_l0_last_error_message(); });
    other.join();
    EXPECT_EQ(theirs, "") << "a thread that made no call has no message";
    EXPECT_EQ(lastError(), mine);
}

} // namespace
