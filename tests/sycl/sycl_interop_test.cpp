// The SYCL interop header on Intel's SYCL runtime over the project's driver:
// the library's launches and SYCL's commands on one queue in order, events
// both ways, OpenCL C compiled by the library submitted by SYCL itself, and
// the refusals of queues the library cannot append to. Results are checked
// against host references; device memory is only read through copies.
#include "imex_l0_sycl.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <numeric>
#include <string>
#include <vector>

namespace {

namespace interop = imex_l0::sycl_interop;

const char *kSource = R"CL(
kernel void affine(global float *x, float a, float b) {
    size_t i = get_global_id(0);
    x[i] = x[i] * a + b;
}
)CL";

constexpr size_t kCount = 4096;

std::vector<float> iota() {
    std::vector<float> v(kCount);
    std::iota(v.begin(), v.end(), 0.0f);
    return v;
}

imex_l0_range_t range1d(size_t n) {
    return {{n, 1, 1}, {0, 0, 0}};
}

// Each element through x*a+b, in order, on the host.
std::vector<float> affineOnHost(std::vector<float> v,
                                const std::vector<std::pair<float, float>> &steps) {
    for (auto &x : v)
        for (auto [a, b] : steps)
            x = x * a + b;
    return v;
}

std::string messageOf(const std::function<void()> &call) {
    try {
        call();
    } catch (const imex_l0::error &e) {
        EXPECT_EQ(e.status(), imex_l0_invalid_arguments);
        return e.what();
    }
    ADD_FAILURE() << "no imex_l0::error";
    return "";
}

TEST(Engine, WrapsTheQueuesLevelZeroObjects) {
    sycl::queue q{sycl::gpu_selector_v};
    ASSERT_EQ(q.get_backend(), sycl::backend::ext_oneapi_level_zero);
    imex_l0::engine e = interop::make_engine(q);
    EXPECT_EQ(e.device(), sycl::get_native<sycl::backend::ext_oneapi_level_zero>(q.get_device()));
    EXPECT_EQ(e.context(), sycl::get_native<sycl::backend::ext_oneapi_level_zero>(q.get_context()));
    EXPECT_EQ(e.device_name(), q.get_device().get_info<sycl::info::device::name>());
}

// SYCL copy in, a library launch, a SYCL device-to-device copy, a second
// launch on the copy, SYCL copy out: each step reads what the one before
// wrote, so any reordering changes the result.
TEST(InOrderQueue, LibraryLaunchesRunBetweenSyclCommands) {
    sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::in_order{}};
    imex_l0::engine e = interop::make_engine(q);
    imex_l0::stream s = interop::make_stream(e, q);
    auto k = imex_l0::kernel::from_source(e, kSource, "affine");
    float *x = sycl::malloc_device<float>(kCount, q);
    float *y = sycl::malloc_device<float>(kCount, q);
    std::vector<float> in = iota(), out(kCount, -1.0f);

    q.memcpy(x, in.data(), kCount * sizeof(float));
    k.execute(s, {imex_l0::arg::usm(x), imex_l0::arg::value(2.0f), imex_l0::arg::value(1.0f)},
              range1d(kCount), {}, false);
    q.memcpy(y, x, kCount * sizeof(float));
    k.execute(s, {imex_l0::arg::usm(y), imex_l0::arg::value(3.0f), imex_l0::arg::value(-4.0f)},
              range1d(kCount), {}, false);
    q.memcpy(out.data(), y, kCount * sizeof(float));
    q.wait();

    EXPECT_EQ(out, affineOnHost(in, {{2.0f, 1.0f}, {3.0f, -4.0f}}));
    sycl::free(x, q);
    sycl::free(y, q);
}

// An out-of-order queue: SYCL's copy event is the launch's dependency, the
// launch's event the dependency of SYCL's copy back.
void runWithEventsBothWays(sycl::queue &q) {
    imex_l0::engine e = interop::make_engine(q);
    imex_l0::stream s(e);
    auto k = imex_l0::kernel::from_source(e, kSource, "affine");
    float *x = sycl::malloc_device<float>(kCount, q);
    std::vector<float> in = iota(), out(kCount, -1.0f);

    sycl::event copied = q.memcpy(x, in.data(), kCount * sizeof(float));
    imex_l0::event launched = k.execute_event(
        s, {imex_l0::arg::usm(x), imex_l0::arg::value(0.5f), imex_l0::arg::value(7.0f)},
        range1d(kCount), {interop::native_event(copied)});
    ASSERT_TRUE(launched);
    sycl::event back = q.submit([&](sycl::handler &h) {
        h.depends_on(interop::make_event(q.get_context(), launched));
        h.memcpy(out.data(), x, kCount * sizeof(float));
    });
    back.wait();

    EXPECT_EQ(out, affineOnHost(in, {{0.5f, 7.0f}}));
    sycl::free(x, q);
}

TEST(OutOfOrderQueue, EventsOrderTheWorkBothWays) {
    sycl::queue q{sycl::gpu_selector_v};
    runWithEventsBothWays(q);
}

// OpenCL C compiled by the library, submitted by SYCL as a kernel object
// (the framework's own launch path), after and before SYCL copies.
TEST(Kernel, OpenCLCSubmittedBySycl) {
    sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::in_order{}};
    std::string log;
    std::vector<char> spirv = imex_l0::compile_opencl_c(kSource, "", {}, &log);
    ASSERT_FALSE(spirv.empty()) << log;
    interop::spirv_kernel affine =
        interop::make_kernel(q.get_context(), q.get_device(), spirv, "affine");
    float *x = sycl::malloc_device<float>(kCount, q);
    std::vector<float> in = iota(), out(kCount, -1.0f);

    q.memcpy(x, in.data(), kCount * sizeof(float));
    q.submit([&](sycl::handler &h) {
        h.set_args(x, 4.0f, -2.0f);
        h.parallel_for(sycl::range<1>(kCount), affine.kernel);
    });
    q.memcpy(out.data(), x, kCount * sizeof(float)).wait();

    EXPECT_EQ(out, affineOnHost(in, {{4.0f, -2.0f}}));
    sycl::free(x, q);
}

TEST(Kernel, SpirvThatDoesNotBuildIsRefusedWithTheLog) {
    sycl::queue q{sycl::gpu_selector_v};
    std::vector<char> garbage(64, 7);
    std::string message = messageOf(
        [&] { interop::make_kernel(q.get_context(), q.get_device(), garbage, "affine"); });
    EXPECT_NE(message.find("does not build"), std::string::npos) << message;
}

TEST(Kernel, MissingKernelNameIsRefused) {
    sycl::queue q{sycl::gpu_selector_v};
    std::vector<char> spirv = imex_l0::compile_opencl_c(kSource);
    std::string message =
        messageOf([&] { interop::make_kernel(q.get_context(), q.get_device(), spirv, "nothing"); });
    EXPECT_NE(message.find("no kernel 'nothing'"), std::string::npos) << message;
}

TEST(Refusals, StreamOverAnOutOfOrderQueue) {
    sycl::queue q{sycl::gpu_selector_v};
    imex_l0::engine e = interop::make_engine(q);
    std::string message = messageOf([&] { interop::make_stream(e, q); });
    EXPECT_NE(message.find("out of order"), std::string::npos) << message;
}

TEST(Refusals, StreamOverAQueueOfAnotherContext) {
    sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::in_order{}};
    sycl::context other{q.get_device()};
    sycl::queue elsewhere{other, q.get_device(), sycl::property::queue::in_order{}};
    imex_l0::engine e = interop::make_engine(q);
    std::string message = messageOf([&] { interop::make_stream(e, elsewhere); });
    EXPECT_NE(message.find("not the engine's"), std::string::npos) << message;
}

// UR_L0_USE_IMMEDIATE_COMMANDLISTS=0: the adapter's queues submit through
// Level Zero command queues.
TEST(RegularLists, StreamIsRefusedWithWhatToDo) {
    sycl::queue q{sycl::gpu_selector_v, sycl::property::queue::in_order{}};
    auto native = sycl::get_native<sycl::backend::ext_oneapi_level_zero>(q);
    ASSERT_TRUE(std::holds_alternative<ze_command_queue_handle_t>(native))
        << "the runtime made this queue over an immediate list";
    imex_l0::engine e = interop::make_engine(q);
    std::string message = messageOf([&] { interop::make_stream(e, q); });
    EXPECT_NE(message.find("UR_L0_USE_IMMEDIATE_COMMANDLISTS=1"), std::string::npos) << message;
}

TEST(RegularLists, EventsOrderTheWorkBothWays) {
    sycl::queue q{sycl::gpu_selector_v};
    runWithEventsBothWays(q);
}

} // namespace
