// A kernel that faults on a GPU, through the library: the stream's wait
// returns imex_l0_device_lost (not a hang), its message naming the last
// kernel launched on the stream; later launches are refused the same way;
// every object is destroyed cleanly. A lost device stays lost for the
// process, so this suite runs alone. On the CPU driver a faulting kernel runs
// inside the host process and faults it, as under PoCL itself: the test
// says it skipped there.
#include "interop_fixtures.hpp"

namespace interop_test {
namespace {

constexpr uint32_t kNvidiaVendorId = 0x10de;

class DeviceLost : public WithKernels {
protected:
    void SetUp() override {
        WithKernels::SetUp();
        if (HasFatalFailure())
            return;
        ze_device_properties_t props = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
        ASSERT_ZE(zeDeviceGetProperties(device, &props));
        if (props.vendorId != kNvidiaVendorId)
            GTEST_SKIP() << "skipped: the device is not a GPU of the CUDA driver (a faulting "
                            "kernel on the CPU driver faults the process)";
    }
};

const char *const kFaulting = R"(
kernel void scribble(ulong address) {
    ((global int *)address)[get_global_id(0)] = 1;
}
kernel void harmless(global int *out) {
    out[get_global_id(0)] = 2;
}
)";

TEST_F(DeviceLost, TheStreamsWaitNamesItsLastKernel) {
    Kernel scribble, harmless;
    ASSERT_IMEX(imex_l0_kernel_create_from_source(scribble.out(), engine.get(), kFaulting,
                                                  "scribble", nullptr, 0, nullptr));
    ASSERT_IMEX(imex_l0_kernel_create_from_source(harmless.out(), engine.get(), kFaulting,
                                                  "harmless", nullptr, 0, nullptr));
    Memory out = newMemory(imex_l0_memory_kind_device, 64 * sizeof(int));
    imex_l0_exec_arg_t outArg = memArg(out.get());
    imex_l0_range_t range = range1d(64);
    ASSERT_IMEX(
        imex_l0_interop_kernel_execute(harmless.get(), stream.get(), 1, &outArg, &range, 0,
                                       nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));

    const uint64_t nowhere = 0x1000; // page 1: no allocation is there
    imex_l0_exec_arg_t at = valueArg(nowhere);
    ASSERT_IMEX(imex_l0_interop_kernel_execute(scribble.get(), stream.get(), 1, &at, &range, 0,
                                               nullptr, nullptr));
    EXPECT_IMEX_STATUS(imex_l0_device_lost, imex_l0_stream_wait(stream.get()));
    EXPECT_MESSAGE_HAS("the last kernel launched on this stream was 'scribble'");

    // Nothing more runs on the device.
    EXPECT_IMEX_STATUS(imex_l0_device_lost,
                       imex_l0_interop_kernel_execute(harmless.get(), stream.get(), 1, &outArg,
                                                      &range, 0, nullptr, nullptr));
    EXPECT_IMEX_STATUS(imex_l0_device_lost, imex_l0_stream_wait(stream.get()));
    EXPECT_EQ(zeContextGetStatus(context.get()), ZE_RESULT_ERROR_DEVICE_LOST);
}

} // namespace
} // namespace interop_test
