// The SYCL flavour of the gpu* wrappers (libimex_gpu_sycl.so) with IMEX's
// call sequences: streams over queues of their own and over a framework's
// queue (in order or not), modules of SPIR-V, launches with by-value and
// local-memory arguments in three dimensions, events across streams, fills,
// frees right after queued work, and the failures reported to the handler.
// Results are read back with gpuMemCopy (or from shared USM after a wait) and
// compared with host references.
#include "gpu_test_recorder.hpp"
#include "imex_gpu_sycl_runtime.h"

#include <sycl/sycl.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace {

using gputest::readFile;
using gputest::Recorder;

class GpuSycl : public ::testing::Test {
protected:
    void SetUp() override {
        gpuSetErrorHandler(Recorder::handle, &recorder);
        stream = gpuCreateStream(nullptr, nullptr);
        ASSERT_NE(stream, nullptr) << failures();
        module = gpuModuleLoad(stream, kernels.data(), kernels.size());
        ASSERT_NE(module, nullptr) << failures();
    }
    void TearDown() override {
        gpuStreamDestroy(stream);
        EXPECT_TRUE(recorder.messages.empty()) << failures();
        gpuSetErrorHandler(nullptr, nullptr);
    }
    std::string failures() const {
        std::string all;
        for (const auto &m : recorder.messages)
            all += m + "\n";
        return all;
    }
    void *kernel(const char *name) {
        void *k = gpuKernelGet(stream, module, name);
        EXPECT_NE(k, nullptr) << failures();
        return k;
    }
    template <typename T> std::vector<T> readBack(const void *device, size_t n) {
        std::vector<T> host(n);
        gpuMemCopy(stream, host.data(), const_cast<void *>(device), n * sizeof(T));
        gpuWait(stream);
        return host;
    }

    Recorder recorder;
    std::vector<char> kernels = readFile(GPU_KERNELS_SPV);
    void *stream = nullptr;
    void *module = nullptr;
};

// IMEX's sequence: device memory, copies in, module, kernel, launch, copy
// out, wait, frees.
TEST_F(GpuSycl, AddComputesOnTheDevice) {
    const size_t n = 1024;
    std::vector<float> a(n), b(n);
    std::iota(a.begin(), a.end(), 0.0f);
    std::iota(b.begin(), b.end(), 1000.0f);
    auto *da = static_cast<float *>(gpuMemAlloc(stream, n * sizeof(float), 64, false));
    auto *db = static_cast<float *>(gpuMemAlloc(stream, n * sizeof(float), 64, false));
    auto *dc = static_cast<float *>(gpuMemAlloc(stream, n * sizeof(float), 64, false));
    ASSERT_TRUE(da && db && dc) << failures();
    gpuMemCopy(stream, da, a.data(), n * sizeof(float));
    gpuMemCopy(stream, db, b.data(), n * sizeof(float));
    ParamDesc params[] = {{&da, sizeof da}, {&db, sizeof db}, {&dc, sizeof dc}, {nullptr, 0}};
    EXPECT_NE(gpuLaunchKernel(stream, kernel("add"), n / 64, 1, 1, 64, 1, 1, 0, params, nullptr),
              nullptr);
    std::vector<float> c = readBack<float>(dc, n);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(c[i], a[i] + b[i]) << i;
    gpuMemFree(stream, da);
    gpuMemFree(stream, db);
    gpuMemFree(stream, dc);
}

// With sharedMemBytes, the last parameter stands for the local memory.
TEST_F(GpuSycl, SharedMemoryIsTheLastParam) {
    const size_t groups = 8, group = 64, n = groups * group;
    std::vector<int> in(n);
    std::iota(in.begin(), in.end(), 1);
    auto *din = static_cast<int *>(gpuMemAlloc(stream, n * sizeof(int), 0, false));
    auto *dout = static_cast<int *>(gpuMemAlloc(stream, groups * sizeof(int), 0, false));
    gpuMemCopy(stream, din, in.data(), n * sizeof(int));
    ParamDesc params[] = {{&din, sizeof din}, {&dout, sizeof dout}, {&din, 0}, {nullptr, 0}};
    gpuLaunchKernel(stream, kernel("group_sum"), groups, 1, 1, group, 1, 1, group * sizeof(int),
                    params, nullptr);
    std::vector<int> out = readBack<int>(dout, groups);
    for (size_t g = 0; g < groups; ++g)
        EXPECT_EQ(out[g], std::accumulate(in.begin() + g * group, in.begin() + (g + 1) * group, 0))
            << g;
    gpuMemFree(stream, din);
    gpuMemFree(stream, dout);
}

// grid and block x, y, z reach get_global_id(0), (1), (2).
TEST_F(GpuSycl, ThreeDimensionsKeepTheirOrder) {
    std::vector<char> spirv = readFile(SYCL_GPU_KERNELS_SPV);
    void *other = gpuModuleLoad(stream, spirv.data(), spirv.size());
    ASSERT_NE(other, nullptr) << failures();
    const size_t X = 16, Y = 6, Z = 3;
    auto *out = static_cast<int *>(gpuMemAlloc(stream, X * Y * Z * sizeof(int), 0, true));
    ParamDesc params[] = {{&out, sizeof out}, {nullptr, 0}};
    gpuLaunchKernel(stream, gpuKernelGet(stream, other, "coords"), 4, 3, 3, 4, 2, 1, 0, params,
                    nullptr);
    gpuWait(stream);
    for (size_t z = 0; z < Z; ++z)
        for (size_t y = 0; y < Y; ++y)
            for (size_t x = 0; x < X; ++x)
                ASSERT_EQ(out[(z * Y + y) * X + x], int(x + 100 * y + 10000 * z))
                    << x << " " << y << " " << z;
    gpuMemFree(stream, out);
}

TEST_F(GpuSycl, ByValueArgumentsOfEverySize) {
    std::vector<char> spirv = readFile(SYCL_GPU_KERNELS_SPV);
    void *other = gpuModuleLoad(stream, spirv.data(), spirv.size());
    struct Mixed {
        int32_t a;
        int64_t b;
        char c;
    } m = {-7, int64_t(1) << 40, 'z'};
    char c = -3;
    short s = 30000;
    int i = -2000000000;
    long l = -(long(1) << 50);
    float f = 2.5f;
    auto *out = static_cast<long *>(gpuMemAlloc(stream, 8 * sizeof(long), 0, false));
    ParamDesc params[] = {{&out, sizeof out}, {&c, sizeof c}, {&s, sizeof s}, {&i, sizeof i},
                          {&l, sizeof l},     {&f, sizeof f}, {&m, sizeof m}, {nullptr, 0}};
    gpuLaunchKernel(stream, gpuKernelGet(stream, other, "values"), 1, 1, 1, 1, 1, 1, 0, params,
                    nullptr);
    std::vector<long> got = readBack<long>(out, 8);
    EXPECT_EQ(got, (std::vector<long>{c, s, i, l, 10, m.a, m.b, m.c}));
    gpuMemFree(stream, out);
}

// A slow store on stream 1, then on stream 2 an increment that depends on
// its event: without the dependency the increment would run first.
TEST_F(GpuSycl, EventOrdersWorkOnAnotherStream) {
    void *second = gpuCreateStream(nullptr, nullptr);
    ASSERT_NE(second, nullptr) << failures();
    auto *d = static_cast<int *>(gpuMemAlloc(stream, 64 * sizeof(int), 0, true));
    int value = 41, spins = 200000;
    ParamDesc slow[] = {
        {&d, sizeof d}, {&value, sizeof value}, {&spins, sizeof spins}, {nullptr, 0}};
    void *stored =
        gpuLaunchKernel(stream, kernel("slow_store"), 1, 1, 1, 64, 1, 1, 0, slow, nullptr);
    ASSERT_NE(stored, nullptr);
    void *secondModule = gpuModuleLoad(second, kernels.data(), kernels.size());
    ParamDesc inc[] = {{&d, sizeof d}, {nullptr, 0}};
    EventDesc deps[] = {{stored}, {nullptr}};
    gpuLaunchKernel(second, gpuKernelGet(second, secondModule, "increment"), 1, 1, 1, 64, 1, 1, 0,
                    inc, deps);
    gpuWait(second);
    for (int k = 0; k < 64; ++k)
        ASSERT_EQ(d[k], 42) << k;
    gpuWait(stream);
    gpuMemFree(stream, d);
    gpuStreamDestroy(second);
}

// gpuRecordEvent and gpuWaitEvents: the second stream waits for everything
// the first submitted (a launch, then a copy).
TEST_F(GpuSycl, RecordedEventAndWaitEvents) {
    void *second = gpuCreateStream(nullptr, nullptr);
    auto *d = static_cast<int *>(gpuMemAlloc(stream, 64 * sizeof(int), 0, false));
    auto *copy = static_cast<int *>(gpuMemAlloc(stream, 64 * sizeof(int), 0, true));
    int value = 9, spins = 200000;
    ParamDesc slow[] = {
        {&d, sizeof d}, {&value, sizeof value}, {&spins, sizeof spins}, {nullptr, 0}};
    gpuLaunchKernel(stream, kernel("slow_store"), 1, 1, 1, 64, 1, 1, 0, slow, nullptr);
    gpuMemCopy(stream, copy, d, 64 * sizeof(int));
    void *recorded = gpuRecordEvent(stream);
    EventDesc deps[] = {{recorded}, {nullptr}};
    gpuWaitEvents(second, deps);
    void *secondModule = gpuModuleLoad(second, kernels.data(), kernels.size());
    ParamDesc inc[] = {{&copy, sizeof copy}, {nullptr, 0}};
    gpuLaunchKernel(second, gpuKernelGet(second, secondModule, "increment"), 1, 1, 1, 64, 1, 1, 0,
                    inc, nullptr);
    gpuWait(second);
    for (int k = 0; k < 64; ++k)
        ASSERT_EQ(copy[k], 10) << k;
    gpuWait(stream);
    gpuMemFree(stream, d);
    gpuMemFree(stream, copy);
    gpuStreamDestroy(second);
}

TEST_F(GpuSycl, FillWithPatternsOfSeveralSizes) {
    const size_t size = 4096 + 64;
    auto *d = static_cast<unsigned char *>(gpuMemAlloc(stream, size, 0, false));
    for (size_t patternSize : {1, 2, 4, 16, 64}) {
        std::vector<unsigned char> pattern(patternSize);
        for (size_t k = 0; k < patternSize; ++k)
            pattern[k] = static_cast<unsigned char>(17 * k + patternSize);
        gpuMemFill(stream, d, pattern.data(), patternSize, size);
        std::fill(pattern.begin(), pattern.end(), 0); // copied before the call returned
        std::vector<unsigned char> got = readBack<unsigned char>(d, size);
        for (size_t k = 0; k < size; ++k)
            ASSERT_EQ(got[k], static_cast<unsigned char>(17 * (k % patternSize) + patternSize))
                << "pattern of " << patternSize << " bytes, byte " << k;
    }
    gpuMemFree(stream, d);
}

// Lowered code frees before it waits: the free follows the queued work.
TEST_F(GpuSycl, FreeRightAfterQueuedWork) {
    auto *d = static_cast<int *>(gpuMemAlloc(stream, 64 * sizeof(int), 0, false));
    auto *out = static_cast<int *>(gpuMemAlloc(stream, 64 * sizeof(int), 0, true));
    int value = 5, spins = 100000;
    ParamDesc slow[] = {
        {&d, sizeof d}, {&value, sizeof value}, {&spins, sizeof spins}, {nullptr, 0}};
    gpuLaunchKernel(stream, kernel("slow_store"), 1, 1, 1, 64, 1, 1, 0, slow, nullptr);
    gpuMemCopy(stream, out, d, 64 * sizeof(int));
    gpuMemFree(stream, d);
    gpuWait(stream);
    for (int k = 0; k < 64; ++k)
        ASSERT_EQ(out[k], 5) << k;
    gpuMemFree(stream, out);
}

// The bytes at a reused address are compared: rewritten, they are another module.
TEST_F(GpuSycl, ModulesAreCachedByAddressAndBytes) {
    std::vector<char> blob = kernels;
    void *first = gpuModuleLoad(stream, blob.data(), blob.size());
    EXPECT_EQ(gpuModuleLoad(stream, blob.data(), blob.size()), first);
    std::vector<char> other = readFile(SYCL_GPU_KERNELS_SPV);
    blob = other;
    void *second = gpuModuleLoad(stream, blob.data(), blob.size());
    EXPECT_NE(second, first);
    EXPECT_NE(gpuKernelGet(stream, second, "coords"), nullptr);
    EXPECT_EQ(gpuKernelGet(stream, module, "add"), gpuKernelGet(stream, module, "add"));
}

// A framework's queue, out of order: the stream still runs its work in order.
TEST_F(GpuSycl, FrameworkQueueOutOfOrderKeepsTheStreamsOrder) {
    sycl::queue framework{sycl::gpu_selector_v};
    ASSERT_FALSE(framework.is_in_order());
    void *onQueue = gpuCreateStreamFromSyclQueue(&framework);
    ASSERT_NE(onQueue, nullptr) << failures();
    void *m = gpuModuleLoad(onQueue, kernels.data(), kernels.size());
    void *increment = gpuKernelGet(onQueue, m, "increment");
    const size_t n = 256;
    std::vector<int> host(n);
    std::iota(host.begin(), host.end(), 0);
    auto *d = static_cast<int *>(gpuMemAlloc(onQueue, n * sizeof(int), 0, false));
    gpuMemCopy(onQueue, d, host.data(), n * sizeof(int));
    ParamDesc params[] = {{&d, sizeof d}, {nullptr, 0}};
    for (int round = 0; round < 8; ++round)
        gpuLaunchKernel(onQueue, increment, n / 64, 1, 1, 64, 1, 1, 0, params, nullptr);
    std::vector<int> out(n);
    gpuMemCopy(onQueue, out.data(), d, n * sizeof(int));
    gpuWait(onQueue);
    for (size_t k = 0; k < n; ++k)
        ASSERT_EQ(out[k], int(k) + 8) << k;
    gpuMemFree(onQueue, d);
    gpuStreamDestroy(onQueue);
}

// IMEX's device and context objects: a stream on them.
TEST_F(GpuSycl, StreamOnCreatedDeviceAndContext) {
    void *device = gpuCreateDevice(0);
    ASSERT_NE(device, nullptr) << failures();
    void *context = gpuCreateContext(device);
    void *onContext = gpuCreateStream(device, context);
    ASSERT_NE(onContext, nullptr) << failures();
    auto *d = static_cast<int *>(gpuMemAlloc(onContext, 4 * sizeof(int), 0, true));
    const int pattern = 0x01020304;
    gpuMemFill(onContext, d, &pattern, sizeof pattern, 4 * sizeof(int));
    gpuWait(onContext);
    EXPECT_EQ(d[3], pattern);
    gpuMemFree(onContext, d);
    gpuStreamDestroy(onContext);
    gpuDestroyContext(context);
    gpuDestroyDevice(device);
}

class GpuSyclErrors : public GpuSycl {
protected:
    // Expects exactly one report, containing `part`, and forgets it.
    void expectReport(const std::string &part) {
        ASSERT_EQ(recorder.messages.size(), 1u) << failures();
        EXPECT_NE(recorder.messages[0].find(part), std::string::npos) << recorder.messages[0];
        recorder.messages.clear();
    }
};

TEST_F(GpuSyclErrors, NullAndForeignStreams) {
    EXPECT_EQ(gpuMemAlloc(nullptr, 16, 0, false), nullptr);
    expectReport("gpuMemAlloc");
    int notAStream[16] = {};
    gpuWait(notAStream);
    expectReport("gpuWait");
}

TEST_F(GpuSyclErrors, UnknownKernelName) {
    EXPECT_EQ(gpuKernelGet(stream, module, "no_such_kernel"), nullptr);
    expectReport("no kernel named 'no_such_kernel'");
}

TEST_F(GpuSyclErrors, InvalidSpirv) {
    std::vector<char> garbage(256, 3);
    EXPECT_EQ(gpuModuleLoad(stream, garbage.data(), garbage.size()), nullptr);
    expectReport("does not build");
}

TEST_F(GpuSyclErrors, WrongParamCount) {
    void *d = gpuMemAlloc(stream, 64, 0, false);
    ParamDesc params[] = {{&d, sizeof d}, {nullptr, 0}};
    EXPECT_EQ(gpuLaunchKernel(stream, kernel("add"), 1, 1, 1, 1, 1, 1, 0, params, nullptr),
              nullptr);
    expectReport("takes 3 arguments, params has 1");
    gpuMemFree(stream, d);
}

TEST_F(GpuSyclErrors, FreeOfAHostPointer) {
    int local = 0;
    gpuMemFree(stream, &local);
    expectReport("not SYCL USM");
}

TEST_F(GpuSyclErrors, FillPatternThatDoesNotDivide) {
    void *d = gpuMemAlloc(stream, 64, 0, false);
    const char pattern[3] = {1, 2, 3};
    gpuMemFill(stream, d, pattern, 3, 63);
    expectReport("power of two");
    gpuMemFree(stream, d);
}

} // namespace
