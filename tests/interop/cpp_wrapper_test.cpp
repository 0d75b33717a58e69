// The header-only C++ wrapper (imex_l0_interop.hpp): RAII ownership, the
// error exception carrying status and message, non-owning wraps of the
// framework's handles, move semantics, and a full launch through it.
#include "imex_l0_interop.hpp"

#include "interop_fixtures.hpp"

#include <cstdlib>

using namespace interop_test;

namespace {

class CppWrapperTest : public WithDriver {};

// Runs body, which must throw imex_l0::error with `status`; returns its text.
template <typename Body> std::string expectError(imex_l0_status_t status, Body &&body) {
    try {
        body();
    } catch (const imex_l0::error &e) {
        EXPECT_EQ(e.status(), status) << e.what();
        EXPECT_EQ(imex_l0::last_status(), status);
        return e.what();
    }
    ADD_FAILURE() << "no imex_l0::error thrown, expected " << imex_l0_status_str(status);
    return {};
}

TEST_F(CppWrapperTest, DefaultEngineLaunchesAKernel) {
    // 0u, not 0: a literal 0 is ambiguous with the private handle constructor.
    imex_l0::engine engine(0u);
    ASSERT_TRUE(engine);
    EXPECT_FALSE(engine.device_name().empty());
    imex_l0::stream stream(engine);
    EXPECT_NE(stream.list(), nullptr);
    constexpr size_t n = 256;
    imex_l0::memory in(engine, imex_l0_memory_kind_shared, n * sizeof(float));
    imex_l0::memory out(engine, imex_l0_memory_kind_shared, n * sizeof(float));
    EXPECT_EQ(in.size(), n * sizeof(float));
    auto *x = static_cast<float *>(in.data());
    for (size_t i = 0; i < n; ++i)
        x[i] = float(i);
    auto kernel = imex_l0::kernel::from_source(engine, kernelSource(), "scale");
    EXPECT_EQ(kernel.arg_count(), 3u);
    EXPECT_NE(kernel.native(), nullptr);
    float alpha = 0.25f;
    ze_event_handle_t done = kernel.execute(
        stream, {imex_l0::arg::mem(in), imex_l0::arg::mem(out), imex_l0::arg::value(alpha)},
        range1d(n, 16));
    ASSERT_NE(done, nullptr);
    ASSERT_ZE(zeEventHostSynchronize(done, UINT64_MAX));
    EXPECT_TRUE(engine.release(done));
    auto *y = static_cast<float *>(out.data());
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(y[i], float(i) * 0.25f) << i;

    // No event asked for, none returned.
    EXPECT_EQ(kernel.execute(stream,
                             {imex_l0::arg::mem(in), imex_l0::arg::mem(out),
                              imex_l0::arg::value(alpha)},
                             range1d(n), {}, false),
              nullptr);
    EXPECT_TRUE(stream.wait());
    EXPECT_EQ(imex_l0::last_status(), imex_l0_success);
}

TEST_F(CppWrapperTest, WrapsTheFrameworksHandlesWithoutOwningThem) {
    ZeList list = newImmediateList();
    UsmBuffer user = allocShared(4096);
    {
        imex_l0::engine engine(driver, device, context.get());
        EXPECT_EQ(engine.driver(), driver);
        EXPECT_EQ(engine.device(), device);
        EXPECT_EQ(engine.context(), context.get());
        imex_l0::stream stream(engine, list.get());
        EXPECT_EQ(stream.list(), list.get());
        imex_l0::memory wrapped(engine, imex_l0_memory_kind_shared, 4096, user.get());
        EXPECT_EQ(wrapped.data(), user.get());
        imex_l0::memory owned(engine, imex_l0_memory_kind_device, 4096);
        std::memset(user.get(), 0x3c, 4096);
        ze_event_handle_t up = stream.memcpy(owned.data(), user.get(), 4096);
        ASSERT_ZE(zeEventHostSynchronize(up, UINT64_MAX));
        UsmBuffer back = allocShared(4096);
        ze_event_handle_t down = stream.memcpy(back.get(), owned.data(), 4096, {up});
        ASSERT_ZE(zeEventHostSynchronize(down, UINT64_MAX));
        for (size_t i = 0; i < 4096; ++i)
            ASSERT_EQ(back.as<uint8_t>()[i], 0x3c);
        engine.release(up);
        engine.release(down);
        // Members go in reverse order: memory, stream, then the engine.
    }
    // The framework's list, USM and context are all intact.
    userFill(list.get(), user.get(), 0x11, 4096);
    EXPECT_EQ(user.as<uint8_t>()[4095], 0x11);
}

TEST_F(CppWrapperTest, RegularListStreamWaitExecutes) {
    ZeList regular = newRegularList();
    ZeQueue queue = newQueue();
    imex_l0::engine engine(driver, device, context.get());
    imex_l0::stream stream(engine, regular.get(), queue.get());
    imex_l0::memory a(engine, imex_l0_memory_kind_shared, 128);
    imex_l0::memory b(engine, imex_l0_memory_kind_shared, 128);
    std::memset(a.data(), 9, 128);
    std::memset(b.data(), 0, 128);
    ze_event_handle_t e = stream.memcpy(b.data(), a.data(), 128);
    EXPECT_EQ(static_cast<uint8_t *>(b.data())[0], 0);
    EXPECT_TRUE(stream.wait());
    EXPECT_EQ(static_cast<uint8_t *>(b.data())[127], 9);
    engine.release(e);
}

TEST_F(CppWrapperTest, FailuresThrowWithStatusAndMessage) {
    imex_l0::engine engine(driver, device, context.get());
    void *plain = std::malloc(64);
    std::string what = expectError(imex_l0_invalid_arguments, [&] {
        imex_l0::memory m(engine, imex_l0_memory_kind_host, 64, plain);
    });
    std::free(plain);
    EXPECT_NE(what.find("imex_l0_invalid_arguments"), std::string::npos) << what;
    EXPECT_NE(what.find("USM"), std::string::npos) << what;

    what = expectError(imex_l0_compile_error, [&] {
        imex_l0::kernel::from_source(engine, "kernel void k(void) { nonsense }", "k");
    });
    EXPECT_NE(what.find("imex_l0_compile_error"), std::string::npos) << what;

    what = expectError(imex_l0_not_found, [&] {
        imex_l0::kernel::from_source(engine, kernelSource(), "missing_kernel");
    });
    EXPECT_NE(what.find("missing_kernel"), std::string::npos) << what;

    imex_l0::stream stream(engine);
    imex_l0::memory m(engine, imex_l0_memory_kind_shared, 16);
    imex_l0::memory other(engine, imex_l0_memory_kind_shared, 16);
    ze_event_handle_t e = stream.memcpy(other.data(), m.data(), 16);
    ASSERT_ZE(zeEventHostSynchronize(e, UINT64_MAX));
    EXPECT_TRUE(engine.release(e));
    expectError(imex_l0_invalid_arguments, [&] { engine.release(e); });
    expectError(imex_l0_invalid_arguments, [&] { m.data(1); });

    // A launch with a wrong argument: the message names it.
    auto kernel = imex_l0::kernel::from_source(engine, kernelSource(), "scale");
    double wrong = 1.0; // 8 bytes where the kernel takes a 4-byte float
    what = expectError(imex_l0_invalid_arguments, [&] {
        kernel.execute(stream, {imex_l0::arg::mem(m), imex_l0::arg::mem(m),
                                imex_l0::arg::value(wrong)},
                       range1d(4));
    });
    EXPECT_NE(what.find("argument 2"), std::string::npos) << what;
}

TEST_F(CppWrapperTest, EngineDestroyOrderIsEnforcedThroughTheWrapper) {
    // While a child lives the library refuses to destroy the engine; once
    // the wrapper's children are reset, the engine's reset destroys it.
    imex_l0::engine engine(driver, device, context.get());
    imex_l0::memory m(engine, imex_l0_memory_kind_host, 8);
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments, imex_l0_engine_destroy(engine.get()));
    m.reset();
    EXPECT_FALSE(m);
    engine.reset();
    EXPECT_FALSE(engine);
}

TEST_F(CppWrapperTest, MoveTransfersOwnership) {
    imex_l0::engine engine(driver, device, context.get());
    imex_l0::memory a(engine, imex_l0_memory_kind_shared, 64);
    void *first = a.data();
    imex_l0::memory b(std::move(a));
    EXPECT_FALSE(a);
    EXPECT_TRUE(b);
    EXPECT_EQ(b.data(), first);

    // Move-assigning over a live object destroys what it held.
    imex_l0::memory c(engine, imex_l0_memory_kind_shared, 64);
    void *second = c.data();
    c = std::move(b);
    EXPECT_EQ(c.data(), first);
    ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ASSERT_ZE(zeMemGetAllocProperties(context.get(), second, &props, nullptr));
    EXPECT_EQ(props.type, ZE_MEMORY_TYPE_UNKNOWN) << "the replaced memory object was not destroyed";

    imex_l0::engine moved(std::move(engine));
    EXPECT_FALSE(engine);
    EXPECT_EQ(moved.context(), context.get());
    c.reset();
}

TEST_F(CppWrapperTest, LocalArgumentAndSetData) {
    imex_l0::engine engine(driver, device, context.get());
    imex_l0::stream stream(engine);
    constexpr size_t n = 512, group = 32;
    imex_l0::memory in(engine, imex_l0_memory_kind_shared, n * sizeof(int), IMEX_L0_MEMORY_NONE);
    EXPECT_EQ(in.data(), nullptr);
    UsmBuffer user = allocShared(n * sizeof(int));
    for (size_t i = 0; i < n; ++i)
        user.as<int>()[i] = int(i % 13);
    EXPECT_TRUE(in.set_data(user.get()));
    imex_l0::memory partial(engine, imex_l0_memory_kind_shared, n / group * sizeof(int));
    auto kernel = imex_l0::kernel::from_spirv(engine, kernelSpirv().data(), kernelSpirv().size(),
                                              "reduce_sum");
    ze_event_handle_t done = kernel.execute(stream,
                                            {imex_l0::arg::mem(in), imex_l0::arg::mem(partial),
                                             imex_l0::arg::local(group * sizeof(int))},
                                            range1d(n, group));
    ASSERT_ZE(zeEventHostSynchronize(done, UINT64_MAX));
    engine.release(done);
    auto *sums = static_cast<int *>(partial.data());
    for (size_t g = 0; g < n / group; ++g) {
        int expected = 0;
        for (size_t i = g * group; i < (g + 1) * group; ++i)
            expected += int(i % 13);
        ASSERT_EQ(sums[g], expected) << g;
    }
    in.reset(); // before the user buffer it points at is freed
}

} // namespace

namespace {

// The wrapper covers the C API: C handles it takes over, fills, queries,
// launch options, the build log, profiling, headers, logging and the version.
TEST_F(CppWrapperTest, CoversTheCApi) {
    imex_l0_version_t v = imex_l0::version();
    EXPECT_EQ(v.major, uint32_t(IMEX_L0_VERSION_MAJOR));

    imex_l0_engine_t raw = nullptr;
    ASSERT_IMEX(imex_l0_interop_engine_create(&raw, driver, device, context.get()));
    imex_l0::engine engine = imex_l0::engine::take_ownership(raw);
    ASSERT_EQ(engine.get(), raw);
    imex_l0_stream_t rawStream = nullptr;
    ASSERT_IMEX(imex_l0_stream_create(&rawStream, engine.get()));
    imex_l0::stream stream = imex_l0::stream::take_ownership(engine, rawStream);

    ASSERT_TRUE(imex_l0::register_header("cpp_wrapper_test/seven.h", "#define SEVEN 7\n"));
    auto k = imex_l0::kernel::from_source(
        engine,
        "#include \"cpp_wrapper_test/seven.h\"\n"
        "kernel void put(global int *o, int unused_arg) { int unused; o[get_global_id(0)] += SEVEN; }",
        "put", "-Wunused-variable");
    EXPECT_NE(k.build_log().find("unused variable"), std::string::npos) << k.build_log();
    EXPECT_EQ(k.arg_count(), 2u);
    imex_l0_arg_kind_t kind{};
    size_t size = 0;
    ASSERT_TRUE(k.arg_info(1, kind, size));
    EXPECT_EQ(kind, imex_l0_arg_kind_value);
    EXPECT_EQ(size, sizeof(int));
    EXPECT_GE(k.properties().max_group_size, 1u);

    imex_l0::memory out(engine, imex_l0_memory_kind_shared, 64 * sizeof(int));
    EXPECT_EQ(out.kind(), imex_l0_memory_kind_shared);
    int zero = 0;
    ASSERT_TRUE(engine.release(stream.memset(out.data(), &zero, sizeof zero, out.size())));
    ASSERT_TRUE(stream.wait_for(10'000'000'000ull));
    imex_l0_launch_options_t options{};
    options.global_offset[0] = 32;
    int unusedArg = 0;
    ASSERT_TRUE(stream.set_profiling(true));
    ze_event_handle_t done =
        k.execute(stream, {imex_l0::arg::mem(out), imex_l0::arg::value(unusedArg)},
                  {{32, 1, 1}, {0, 0, 0}}, options);
    ASSERT_NE(done, nullptr);
    ASSERT_TRUE(stream.wait());
    uint64_t start = 0, end = 0;
    EXPECT_TRUE(engine.timestamps(done, start, end));
    EXPECT_LE(start, end);
    EXPECT_TRUE(engine.release(done));
    const int *o = static_cast<const int *>(out.data());
    EXPECT_EQ(o[0], 0) << "the offset moved the launch to elements 32..63";
    EXPECT_EQ(o[32], 7);
    EXPECT_EQ(o[63], 7);

    std::string log;
    std::vector<char> spirv = imex_l0::compile_opencl_c("kernel void k() {}", "", {}, &log);
    EXPECT_FALSE(spirv.empty()) << log;
    EXPECT_TRUE(imex_l0::set_log_level(imex_l0_log_error));
}

} // namespace
