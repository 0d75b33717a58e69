// The host cost of a launch through Level Zero on libze_cuda.so against the
// same launch with the CUDA driver API directly, on an NVIDIA GPU (none here:
// scripts/gpu_check.sh runs it on the lent one).
//
// Both sides launch the empty kernel with four device-memory pointer
// arguments (benchmarks/kernels/empty.cl's empty4), one group of one
// work-item, and synchronise every kBatch launches:
//  - Launch_Cuda: the kernel translated to PTX by the driver's own chain
//    (ze_cuda::translateSpirvToPtx), loaded with cuModuleLoadDataEx and
//    launched with cuLaunchKernel on a non-blocking stream, its parameters
//    passed each launch; cuStreamSynchronize.
//  - Launch_L0: zeKernelSetArgumentValue per argument and
//    zeCommandListAppendLaunchKernel on an asynchronous immediate list, through
//    the system loader; the list's barrier, event and host wait.
//  - Launch_Cuda_Event: cuLaunchKernel and then cuStreamWriteValue32 of a
//    word of pinned host memory, what an event's signal is on libze_cuda.so
//    while the device keeps up (driver/cuda/queue.cpp, signalAfterWork);
//  - Launch_L0_Event: Launch_L0, each launch signalling an event of its own.
// And what the GPU spends on such launches (Stream_Cuda_Event, Stream_L0_Event):
// kBatch launches of empty4 over 4,096 groups of 64 work-items, each with an
// event (a cuEventRecord after each cuLaunchKernel on the CUDA side), queued
// behind a wait on a word of host memory; the host releases it and times,
// by its own clock on both sides, until the last launch's event is seen (an
// iteration is such a run): the time the GPU takes for launches and their
// signals when they come back to back. Target: <= 1.05x CUDA's.
// Targets: a launch <= 1.05x cuLaunchKernel in the launching thread's CPU
// time and <= 1.15x in wall time; with an event <= 1.15x in CPU time of the
// launch and the word's write. They are judged on Launch_Paired and
// Launch_Event_Paired, which run the two sides in alternating batches in one
// benchmark (bench::pairedBatches): separate cases differ by more between
// repetitions on a shared machine than the target resolves.
#include "bench_common.hpp"

#include "cuda_bench.hpp"
#include "launch_values.hpp"
#include "ptx_translator.hpp"

#include <array>
#include <chrono>
#include <vector>

namespace {

using namespace ze_cuda;

constexpr size_t kArgs = 4;

const CudaApi *api = nullptr;

void checkCu(CUresult r, const char *what) {
    if (r != CUDA_SUCCESS) {
        std::fprintf(stderr, "%s: %s\n", what, api->describe(r).c_str());
        std::abort();
    }
}

std::string emptySpirv() {
    return bench::readFile(std::string(IMEX_BENCH_SPIRV_DIR) + "/empty.spv");
}

// The raw side: a context, a stream and the kernel, with CUDA alone.
struct RawCuda {
    CUdevice device = 0;
    CUcontext context = nullptr;
    CUmodule module = nullptr;
    CUfunction function = nullptr;
    CUstream stream = nullptr;
    std::array<CUdeviceptr, kArgs> buffers{};

    RawCuda() {
        checkCu(api->cuDeviceGet(&device, 0), "cuDeviceGet");
        checkCu(api->cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
        checkCu(api->cuCtxSetCurrent(context), "cuCtxSetCurrent");
        std::string spirv = emptySpirv();
        PtxModule ptx;
        std::string log;
        if (translateSpirvToPtx(reinterpret_cast<const uint8_t *>(spirv.data()), spirv.size(), {},
                                &ptx, &log) != ZE_RESULT_SUCCESS) {
            std::fprintf(stderr, "translation failed: %s\n", log.c_str());
            std::abort();
        }
        checkCu(api->cuModuleLoadDataEx(&module, ptx.ptx.c_str(), 0, nullptr, nullptr),
                "cuModuleLoadDataEx");
        checkCu(api->cuModuleGetFunction(&function, module, "empty4"), "cuModuleGetFunction");
        checkCu(api->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
        for (CUdeviceptr &b : buffers)
            checkCu(api->cuMemAlloc(&b, 64), "cuMemAlloc");
        checkCu(api->cuMemHostAlloc(&word, 64, CU_MEMHOSTALLOC_DEVICEMAP), "cuMemHostAlloc");
        checkCu(api->cuMemHostGetDevicePointer(&wordOnDevice, word, 0),
                "cuMemHostGetDevicePointer");
    }
    void launch(unsigned groups = 1, unsigned groupSize = 1) {
        // The translated kernel takes the launch values after its arguments
        // (launch_values.hpp): a one-dimensional launch's, no global offset.
        ze_cuda::LaunchValues values;
        void *params[kArgs + ze_cuda::LaunchValues::kCount];
        for (size_t i = 0; i < kArgs; ++i)
            params[i] = &buffers[i];
        values.pointTo(params + kArgs);
        checkCu(api->cuLaunchKernel(function, groups, 1, 1, groupSize, 1, 1, 0, stream, params,
                                    nullptr),
                "cuLaunchKernel");
    }
    // What a Level Zero event's signal is on this driver: a word of pinned
    // host memory the stream writes after the kernel.
    void launchAndWrite(uint32_t value) {
        launch();
        checkCu(api->cuStreamWriteValue32(stream, wordOnDevice, value, 0), "cuStreamWriteValue32");
    }
    void sync() { checkCu(api->cuStreamSynchronize(stream), "cuStreamSynchronize"); }
    void *word = nullptr; // written by launchAndWrite; the next word holds back Stream_Cuda_Event
    CUdeviceptr wordOnDevice = 0;
};

RawCuda &raw() {
    static RawCuda r;
    return r;
}

// The Level Zero side on libze_cuda.so.
struct L0 {
    bench::ZeSetup ze;
    ze_module_handle_t module = nullptr;
    ze_kernel_handle_t kernel = nullptr;
    std::array<void *, kArgs> buffers{};
    L0() {
        module = ze.createModule(emptySpirv());
        kernel = bench::ZeSetup::createKernel(module, "empty4");
        ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        for (void *&b : buffers)
            BENCH_ZE(zeMemAllocDevice(ze.context, &desc, 64, 0, ze.device, &b));
    }
    void launch(ze_event_handle_t signal) {
        for (uint32_t i = 0; i < kArgs; ++i)
            BENCH_ZE(zeKernelSetArgumentValue(kernel, i, sizeof(void *), &buffers[i]));
        const ze_group_count_t groups = {1, 1, 1};
        BENCH_ZE(zeCommandListAppendLaunchKernel(ze.list, kernel, &groups, signal, 0, nullptr));
    }
};

L0 &l0() {
    static L0 s;
    return s;
}

template <class Launch, class Sync> void run(benchmark::State &state, Launch launch, Sync sync) {
    for (int i = 0; i < 2 * bench::kBatch; ++i)
        launch(i);
    sync();
    int64_t n = 0;
    for (auto _ : state) {
        launch(n);
        if (++n % bench::kBatch == 0)
            sync();
    }
    sync();
}

void Launch_Cuda(benchmark::State &state) {
    run(state, [](int64_t) { raw().launch(); }, [] { raw().sync(); });
}

void Launch_Cuda_Event(benchmark::State &state) {
    run(state, [](int64_t n) { raw().launchAndWrite(uint32_t(n)); }, [] { raw().sync(); });
}

void Launch_L0(benchmark::State &state) {
    run(state, [](int64_t) { l0().launch(nullptr); }, [] { l0().ze.syncList(); });
}

// Launch_L0_Event's events, reset after each batch's wait.
struct L0Events {
    bench::BatchEvents events{l0().ze};
    void launch(int64_t n) { l0().launch(events.forLaunch(n)); }
    void sync() {
        l0().ze.syncList();
        events.resetAll();
    }
};

void Launch_L0_Event(benchmark::State &state) {
    L0Events events;
    run(
        state, [&](int64_t n) { events.launch(n); }, [&] { events.sync(); });
}

// The same comparisons, each side's batches alternating in one benchmark
// (bench::pairedBatches): the targets are judged on these.
template <class Launch, class Sync> auto batchOf(Launch launch, Sync sync) {
    return [launch, sync]() mutable {
        for (int64_t n = 0; n < bench::kBatch; ++n)
            launch(n);
        sync();
    };
}

// Stream_*: the launches' shape.
constexpr unsigned kStreamGroups = 4096, kStreamGroupSize = 64;

// An iteration is one run of kBatch launches: queue() holds the stream and
// queues them, release() lets the stream go (the timed part begins), wait()
// waits for the last launch's event (it ends) and makes everything ready for
// the next run.
template <class Queue, class Release, class Wait>
void timeReleases(benchmark::State &state, Queue queue, Release release, Wait wait) {
    for (auto _ : state) {
        queue();
        const auto start = std::chrono::steady_clock::now();
        release();
        wait();
        state.SetIterationTime(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
}

void Stream_Cuda_Event(benchmark::State &state) {
    RawCuda &r = raw();
    std::vector<CUevent> events(size_t(bench::kBatch));
    for (CUevent &e : events)
        checkCu(api->cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    auto *gate = static_cast<volatile uint32_t *>(r.word) + 1;
    *gate = 0;
    uint32_t run = 0;
    timeReleases(
        state,
        [&] {
            ++run;
            checkCu(api->cuStreamWaitValue32(r.stream, r.wordOnDevice + 4, run,
                                             CU_STREAM_WAIT_VALUE_GEQ),
                    "cuStreamWaitValue32");
            for (CUevent e : events) {
                r.launch(kStreamGroups, kStreamGroupSize);
                checkCu(api->cuEventRecord(e, r.stream), "cuEventRecord");
            }
        },
        [&] { *gate = run; },
        [&] { checkCu(api->cuEventSynchronize(events.back()), "cuEventSynchronize"); });
    for (CUevent e : events)
        api->cuEventDestroy(e);
}

void Stream_L0_Event(benchmark::State &state) {
    L0 &l = l0();
    ze_kernel_handle_t kernel = bench::ZeSetup::createKernel(l.module, "empty4");
    for (uint32_t i = 0; i < kArgs; ++i)
        BENCH_ZE(zeKernelSetArgumentValue(kernel, i, sizeof(void *), &l.buffers[i]));
    BENCH_ZE(zeKernelSetGroupSize(kernel, kStreamGroupSize, 1, 1));
    bench::BatchEvents events(l.ze);
    ze_event_pool_handle_t gatePool = l.ze.createEventPool(1);
    ze_event_handle_t gate = bench::ZeSetup::createEvent(gatePool, 0);
    const ze_group_count_t groups = {kStreamGroups, 1, 1};
    timeReleases(
        state,
        [&] {
            for (int64_t n = 0; n < bench::kBatch; ++n)
                BENCH_ZE(zeCommandListAppendLaunchKernel(
                    l.ze.list, kernel, &groups, events.forLaunch(n), n == 0 ? 1 : 0, &gate));
        },
        [&] { BENCH_ZE(zeEventHostSignal(gate)); },
        [&] {
            BENCH_ZE(zeEventHostSynchronize(events.forLaunch(bench::kBatch - 1), UINT64_MAX));
            l.ze.syncList();
            events.resetAll();
            BENCH_ZE(zeEventHostReset(gate));
        });
    zeEventDestroy(gate);
    zeEventPoolDestroy(gatePool);
    zeKernelDestroy(kernel);
}

void Launch_Paired(benchmark::State &state) {
    bench::pairedBatches(state,
                         batchOf([](int64_t) { l0().launch(nullptr); }, [] { l0().ze.syncList(); }),
                         batchOf([](int64_t) { raw().launch(); }, [] { raw().sync(); }));
}

void Launch_Event_Paired(benchmark::State &state) {
    L0Events events;
    bench::pairedBatches(
        state, batchOf([&](int64_t n) { events.launch(n); }, [&] { events.sync(); }),
        batchOf([](int64_t n) { raw().launchAndWrite(uint32_t(n)); }, [] { raw().sync(); }));
}

} // namespace

BENCHMARK(Launch_Cuda)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_Cuda_Event)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_L0)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_L0_Event)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_Paired)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_Event_Paired)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Stream_Cuda_Event)->UseManualTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Stream_L0_Event)->UseManualTime()->Unit(benchmark::kMicrosecond);

int main(int argc, char **argv) {
    using bench::Metric;
    api = bench::cudaWithGpus(1);
    if (api == nullptr)
        return 0;
    bench::useBuiltDriver();
    raw();
    l0();
    return bench::runWithSummary(
        argc, argv,
        {
            {"Launch_L0", "Launch_Cuda", 0, Metric::cpuTime},
            {"Launch_L0_Event", "Launch_Cuda_Event", 0, Metric::cpuTime},
            bench::paired("Launch_Paired", "Launch_Cuda", 1.05, Metric::cpuTime),
            bench::paired("Launch_Paired", "Launch_Cuda", 1.15, Metric::realTime),
            bench::paired("Launch_Event_Paired", "Launch_Cuda_Event", 1.15, Metric::cpuTime),
            {"Stream_L0_Event", "Stream_Cuda_Event", 1.05, Metric::realTime},
        });
}
