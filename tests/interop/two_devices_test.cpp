// Engines on two devices of one context, as a framework that spreads its
// work over two GPUs has them: each device's memory wrapped by the other
// device's engine, each engine's kernel reading the other device's memory,
// the two engines' streams ordered by each other's events. Skipped with
// fewer than two devices, or devices that cannot reach each other's memory
// (the CPU driver has one device; libze_cuda.so on two GPUs runs it).
#include "interop_fixtures.hpp"

using namespace interop_test;

namespace {

// The framework's driver and context (WithDriver), and its first two devices.
class TwoDevices : public WithDriver {
protected:
    void SetUp() override {
        WithDriver::SetUp();
        if (HasFatalFailure())
            return;
        uint32_t count = 0;
        ASSERT_ZE(zeDeviceGet(driver, &count, nullptr));
        if (count < 2)
            GTEST_SKIP() << "skipped: fewer than two devices";
        count = 2;
        ASSERT_ZE(zeDeviceGet(driver, &count, devices));
        for (int d = 0; d < 2; ++d) {
            ze_bool_t can = false;
            ASSERT_ZE(zeDeviceCanAccessPeer(devices[d], devices[1 - d], &can));
            if (!can)
                GTEST_SKIP() << "skipped: the devices cannot reach each other's memory";
        }
        for (int d = 0; d < 2; ++d) {
            ASSERT_IMEX(imex_l0_interop_engine_create(engines[d].out(), driver, devices[d],
                                                      context.get()));
            ASSERT_IMEX(imex_l0_stream_create(streams[d].out(), engines[d].get()));
            ASSERT_IMEX(imex_l0_kernel_create_from_source(kernels[d].out(), engines[d].get(),
                                                          kernelSource().c_str(), "add", "", 0,
                                                          nullptr));
        }
    }

    // The framework's device memory on device `d`.
    UsmBuffer deviceMemory(int d, size_t bytes) { return allocDevice(bytes, nullptr, devices[d]); }
    // `buffer` as a memory object of engine `e`, whichever device holds it.
    Memory wrapped(int e, const UsmBuffer &buffer) {
        Memory m;
        EXPECT_IMEX(imex_l0_interop_memory_create(m.out(), engines[e].get(),
                                                  imex_l0_memory_kind_device, buffer.size(),
                                                  buffer.get()));
        return m;
    }

    ze_device_handle_t devices[2] = {};
    // Destroyed before the base's context, after the framework's memory
    // (declared in the tests).
    Engine engines[2];
    Stream streams[2];
    Kernel kernels[2];
};

// sum = a + b on device 1 (a in device 0's memory), then total = sum + a on
// device 0 (sum in device 1's memory), each behind the other engine's
// events; both read back on device 0's stream.
TEST_F(TwoDevices, EnginesShareMemoryAndEventsAcrossDevices) {
    constexpr size_t n = size_t(1) << 20;
    constexpr size_t bytes = n * sizeof(float);
    std::vector<float> ha(n), hb(n);
    for (size_t i = 0; i < n; ++i) {
        ha[i] = float(i % 1000);
        hb[i] = float(3 * (i % 777));
    }
    UsmBuffer a = deviceMemory(0, bytes), b = deviceMemory(1, bytes), sum = deviceMemory(1, bytes),
              total = deviceMemory(0, bytes);
    Memory a1 = wrapped(1, a), b1 = wrapped(1, b), sum1 = wrapped(1, sum);
    Memory sum0 = wrapped(0, sum), a0 = wrapped(0, a), total0 = wrapped(0, total);

    ze_event_handle_t aIn = nullptr, bIn = nullptr, added = nullptr, totalled = nullptr;
    ASSERT_IMEX(
        imex_l0_interop_memcpy(streams[0].get(), a.get(), ha.data(), bytes, 0, nullptr, &aIn));
    ASSERT_IMEX(
        imex_l0_interop_memcpy(streams[1].get(), b.get(), hb.data(), bytes, 0, nullptr, &bIn));
    const imex_l0_range_t range = range1d(n, 256);
    const imex_l0_exec_arg_t onDevice1[] = {memArg(a1.get()), memArg(b1.get()),
                                            memArg(sum1.get())};
    const ze_event_handle_t inputs[] = {aIn, bIn};
    ASSERT_IMEX(imex_l0_interop_kernel_execute(kernels[1].get(), streams[1].get(), 3, onDevice1,
                                               &range, 2, inputs, &added));
    const imex_l0_exec_arg_t onDevice0[] = {memArg(sum0.get()), memArg(a0.get()),
                                            memArg(total0.get())};
    ASSERT_IMEX(imex_l0_interop_kernel_execute(kernels[0].get(), streams[0].get(), 3, onDevice0,
                                               &range, 1, &added, &totalled));
    std::vector<float> hsum(n, -1.0f), htotal(n, -1.0f);
    ASSERT_IMEX(imex_l0_interop_memcpy(streams[0].get(), hsum.data(), sum.get(), bytes, 1,
                                       &totalled, nullptr));
    ASSERT_IMEX(imex_l0_interop_memcpy(streams[0].get(), htotal.data(), total.get(), bytes, 1,
                                       &totalled, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(streams[0].get()));
    ASSERT_IMEX(imex_l0_stream_wait(streams[1].get()));
    for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(hsum[i], ha[i] + hb[i]) << "sum " << i;
        ASSERT_EQ(htotal[i], ha[i] + hb[i] + ha[i]) << "total " << i;
    }
    EXPECT_IMEX(imex_l0_event_release(engines[0].get(), aIn));
    EXPECT_IMEX(imex_l0_event_release(engines[1].get(), bIn));
    EXPECT_IMEX(imex_l0_event_release(engines[1].get(), added));
    EXPECT_IMEX(imex_l0_event_release(engines[0].get(), totalled));
}

// Each engine's own memory (allocated by the library) written by its
// device and read directly by the other device's kernel through a wrapper.
TEST_F(TwoDevices, LibraryAllocatedMemoryIsReadByTheOtherDevice) {
    constexpr size_t n = size_t(1) << 16;
    constexpr size_t bytes = n * sizeof(float);
    Memory own[2];
    for (int d = 0; d < 2; ++d)
        ASSERT_IMEX(imex_l0_interop_memory_create(own[d].out(), engines[d].get(),
                                                  imex_l0_memory_kind_device, bytes,
                                                  IMEX_L0_MEMORY_ALLOCATE));
    void *ptr[2] = {};
    for (int d = 0; d < 2; ++d)
        ASSERT_IMEX(imex_l0_interop_memory_get_mem_object(own[d].get(), 0, &ptr[d]));
    std::vector<float> values[2] = {std::vector<float>(n), std::vector<float>(n)};
    for (size_t i = 0; i < n; ++i) {
        values[0][i] = float(i);
        values[1][i] = float(2 * i + 1);
    }
    ze_event_handle_t written[2] = {};
    for (int d = 0; d < 2; ++d)
        ASSERT_IMEX(imex_l0_interop_memcpy(streams[d].get(), ptr[d], values[d].data(), bytes, 0,
                                           nullptr, &written[d]));
    // On each device: out = own + other's, out in the device's own memory.
    Memory out[2], other[2];
    std::vector<float> results[2] = {std::vector<float>(n, -1.0f), std::vector<float>(n, -1.0f)};
    ze_event_handle_t ran[2] = {};
    for (int d = 0; d < 2; ++d) {
        ASSERT_IMEX(imex_l0_interop_memory_create(out[d].out(), engines[d].get(),
                                                  imex_l0_memory_kind_device, bytes,
                                                  IMEX_L0_MEMORY_ALLOCATE));
        ASSERT_IMEX(imex_l0_interop_memory_create(other[d].out(), engines[d].get(),
                                                  imex_l0_memory_kind_device, bytes, ptr[1 - d]));
        const imex_l0_exec_arg_t args[] = {memArg(own[d].get()), memArg(other[d].get()),
                                           memArg(out[d].get())};
        const imex_l0_range_t range = range1d(n, 128);
        ASSERT_IMEX(imex_l0_interop_kernel_execute(kernels[d].get(), streams[d].get(), 3, args,
                                                   &range, 2, written, &ran[d]));
    }
    for (int d = 0; d < 2; ++d) {
        void *o = nullptr;
        ASSERT_IMEX(imex_l0_interop_memory_get_mem_object(out[d].get(), 0, &o));
        ASSERT_IMEX(imex_l0_interop_memcpy(streams[d].get(), results[d].data(), o, bytes, 1,
                                           &ran[d], nullptr));
    }
    for (int d = 0; d < 2; ++d)
        ASSERT_IMEX(imex_l0_stream_wait(streams[d].get()));
    for (size_t i = 0; i < n; ++i)
        for (int d = 0; d < 2; ++d)
            ASSERT_EQ(results[d][i], values[0][i] + values[1][i]) << "device " << d << " " << i;
    for (int d = 0; d < 2; ++d) {
        EXPECT_IMEX(imex_l0_event_release(engines[d].get(), written[d]));
        EXPECT_IMEX(imex_l0_event_release(engines[d].get(), ran[d]));
    }
}

} // namespace
