// The gpu* wrappers against the raw Level Zero calls underneath, on the same
// driver and the same immediate list (the gpu stream wraps the benchmark's
// list with gpuCreateStreamFromUser):
//  - gpuLaunchKernel of an empty kernel with four pointer parameters, which
//    always returns an event, against zeKernelSetArgumentValue x4 +
//    zeCommandListAppendLaunchKernel signalling an event of a raw pool. Both
//    synchronise every kBatch launches: gpuWait (which recycles the events it
//    handed out) on one side, a barrier + host wait + event resets on the other;
//  - mgpuLaunchKernel (MLIR's runtime ABI, libimex_l0_mlir_runtime.so) of the
//    same kernel on an mgpu stream, against the raw launch without an event
//    (MLIR's ABI returns none): argument sizes come from the kernel's
//    signature, the kernel from its function;
//  - gpuKernelGet of a cached kernel (absolute target);
//  - gpuModuleLoad of a 1.2 MB module already loaded from the same address,
//    against the cached gpuKernelGet: lowered code reloads before each launch;
//  - the sequence IMEX's lowering emits per synchronous launch (gpuModuleLoad
//    + gpuKernelGet + gpuLaunchKernel + gpuWait) against the raw launch of a
//    kernel created once followed by one host synchronisation;
//  - a launch followed by the free of a buffer it used (gpuMemFree deferred
//    behind the launch, freed by the batch's gpuWait), against the raw
//    pattern that frees only after the batch's host synchronisation.
#include "alloc_counter.hpp"
#include "bench_common.hpp"

#include "imex_gpu_runtime.h"
#include "imex_l0_mlir_runtime.h"

#include <array>

namespace {

constexpr size_t kArgs = 4;

struct Setup {
    bench::ZeSetup ze;
    std::string spirv =
        bench::readFile(std::string(IMEX_BENCH_SPIRV_DIR) + "/empty.spv");
    std::string large =
        bench::readFile(std::string(IMEX_BENCH_SPIRV_DIR) + "/large_module.spv");
    std::array<void *, kArgs> buffers{};
    void *stream = nullptr;
    void *module = nullptr;

    Setup() {
        ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        for (void *&b : buffers)
            BENCH_ZE(zeMemAllocDevice(ze.context, &desc, 64, 0, ze.device, &b));
        const imex_gpu_l0_stream_t user = {ze.list, ze.device, ze.context};
        stream = gpuCreateStreamFromUser(&user); // failures abort in the default handler
        module = gpuModuleLoad(stream, spirv.data(), spirv.size());
        gpuModuleLoad(stream, large.data(), large.size());
    }
    ~Setup() {
        gpuStreamDestroy(stream);
        for (void *b : buffers)
            zeMemFree(ze.context, b);
    }
};

Setup &setup() {
    static Setup s;
    return s;
}

// The loop of every launch case: two warm-up rounds (PoCL compiles at the
// first launch; pools reach their size), then the timed launches with a
// synchronisation every kBatch, and the heap allocations they made.
template <typename Launch, typename Sync>
void batchedLaunches(benchmark::State &state, const char *name, Launch &&launch, Sync &&sync) {
    for (int round = 0; round < 2; ++round) {
        for (int64_t i = 0; i < bench::kBatch; ++i)
            launch(i);
        sync();
    }
    bench::AllocCount before = bench::threadAllocations();
    int64_t n = 0;
    {
        bench::InstructionWindow window(state, name);
        for (auto _ : state) {
            launch(n);
            if (++n % bench::kBatch == 0)
                sync();
        }
    }
    bench::publishAllocations(state, before);
    sync();
}

void Launch_Raw(benchmark::State &state) {
    ze_module_handle_t module = setup().ze.createModule(setup().spirv);
    ze_kernel_handle_t kernel = bench::ZeSetup::createKernel(module, "empty4");
    ze_event_pool_handle_t pool = setup().ze.createEventPool(uint32_t(bench::kBatch));
    std::vector<ze_event_handle_t> events;
    for (uint32_t i = 0; i < bench::kBatch; ++i)
        events.push_back(bench::ZeSetup::createEvent(pool, i));
    const auto &buffers = setup().buffers;
    const ze_group_count_t groups = {1, 1, 1};
    auto launch = [&](ze_event_handle_t signal) {
        for (uint32_t i = 0; i < kArgs; ++i)
            BENCH_ZE(zeKernelSetArgumentValue(kernel, i, sizeof(void *), &buffers[i]));
        BENCH_ZE(zeCommandListAppendLaunchKernel(setup().ze.list, kernel, &groups, signal, 0,
                                                 nullptr));
    };
    auto wait = [&] {
        setup().ze.syncList();
        for (ze_event_handle_t e : events)
            BENCH_ZE(zeEventHostReset(e));
    };
    batchedLaunches(
        state, __func__, [&](int64_t i) { launch(events[size_t(i % bench::kBatch)]); }, wait);
    for (ze_event_handle_t e : events)
        zeEventDestroy(e);
    zeEventPoolDestroy(pool);
    zeKernelDestroy(kernel);
    zeModuleDestroy(module);
}

// The raw launch MLIR's mgpuLaunchKernel stands for: no completion event.
void Launch_RawNoEvent(benchmark::State &state) {
    ze_module_handle_t module = setup().ze.createModule(setup().spirv);
    ze_kernel_handle_t kernel = bench::ZeSetup::createKernel(module, "empty4");
    const auto &buffers = setup().buffers;
    const ze_group_count_t groups = {1, 1, 1};
    auto launch = [&](int64_t) {
        for (uint32_t i = 0; i < kArgs; ++i)
            BENCH_ZE(zeKernelSetArgumentValue(kernel, i, sizeof(void *), &buffers[i]));
        BENCH_ZE(zeCommandListAppendLaunchKernel(setup().ze.list, kernel, &groups, nullptr, 0,
                                                 nullptr));
    };
    batchedLaunches(state, __func__, launch, [] { setup().ze.syncList(); });
    zeKernelDestroy(kernel);
    zeModuleDestroy(module);
}

void Launch_GpuRuntime(benchmark::State &state) {
    void *stream = setup().stream;
    void *kernel = gpuKernelGet(stream, setup().module, "empty4");
    auto buffers = setup().buffers;
    ParamDesc params[kArgs + 1] = {{&buffers[0], sizeof(void *)},
                                   {&buffers[1], sizeof(void *)},
                                   {&buffers[2], sizeof(void *)},
                                   {&buffers[3], sizeof(void *)},
                                   {nullptr, 0}};
    auto launch = [&](int64_t) {
        benchmark::DoNotOptimize(
            gpuLaunchKernel(stream, kernel, 1, 1, 1, 1, 1, 1, 0, params, nullptr));
    };
    batchedLaunches(state, __func__, launch, [&] { gpuWait(stream); });
}

void Launch_Mgpu(benchmark::State &state) {
    const std::string &spirv = setup().spirv;
    void *module = mgpuModuleLoad(spirv.data(), spirv.size());
    void *function = mgpuModuleGetFunction(module, "empty4");
    void *stream = mgpuStreamCreate();
    auto buffers = setup().buffers;
    void *params[kArgs] = {&buffers[0], &buffers[1], &buffers[2], &buffers[3]};
    auto launch = [&](int64_t) {
        mgpuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, stream, params, nullptr, kArgs);
    };
    batchedLaunches(state, __func__, launch, [&] { mgpuStreamSynchronize(stream); });
    mgpuStreamDestroy(stream);
    mgpuModuleUnload(module);
}

void KernelGet_Cached(benchmark::State &state) {
    void *stream = setup().stream;
    void *module = setup().module;
    gpuKernelGet(stream, module, "empty4");
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state)
            benchmark::DoNotOptimize(gpuKernelGet(stream, module, "empty4"));
    }
}

void ModuleReload_Large(benchmark::State &state) {
    void *stream = setup().stream;
    const std::string &large = setup().large;
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state)
            benchmark::DoNotOptimize(gpuModuleLoad(stream, large.data(), large.size()));
    }
    state.counters["module_bytes"] = double(large.size());
}

// One synchronous launch of empty4 per iteration, as lowered code does it.
void LoweredSequence_Raw(benchmark::State &state) {
    ze_module_handle_t module = setup().ze.createModule(setup().spirv);
    ze_kernel_handle_t kernel = bench::ZeSetup::createKernel(module, "empty4");
    const auto &buffers = setup().buffers;
    const ze_group_count_t groups = {1, 1, 1};
    auto once = [&] {
        for (uint32_t i = 0; i < kArgs; ++i)
            BENCH_ZE(zeKernelSetArgumentValue(kernel, i, sizeof(void *), &buffers[i]));
        BENCH_ZE(zeCommandListAppendLaunchKernel(setup().ze.list, kernel, &groups, nullptr, 0,
                                                 nullptr));
        setup().ze.syncList();
    };
    once();
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state)
            once();
    }
    zeKernelDestroy(kernel);
    zeModuleDestroy(module);
}

// The sequence on `stream`.
void loweredSequence(benchmark::State &state, const char *name, void *stream) {
    const std::string &spirv = setup().spirv;
    auto buffers = setup().buffers;
    ParamDesc params[kArgs + 1] = {{&buffers[0], sizeof(void *)},
                                   {&buffers[1], sizeof(void *)},
                                   {&buffers[2], sizeof(void *)},
                                   {&buffers[3], sizeof(void *)},
                                   {nullptr, 0}};
    auto once = [&] {
        void *m = gpuModuleLoad(stream, spirv.data(), spirv.size());
        void *k = gpuKernelGet(stream, m, "empty4");
        gpuLaunchKernel(stream, k, 1, 1, 1, 1, 1, 1, 0, params, nullptr);
        gpuWait(stream);
    };
    once();
    {
        bench::InstructionWindow window(state, name);
        for (auto _ : state)
            once();
    }
}

// On the benchmark's own list (gpuCreateStreamFromUser), as the raw case.
void LoweredSequence_GpuRuntime(benchmark::State &state) {
    loweredSequence(state, __func__, setup().stream);
}

// On a list the library creates, which is what IMEX's lowering gets from its
// gpuCreateStream: there the wait after a launch waits on that launch's event.
void LoweredSequence_GpuRuntimeOwnList(benchmark::State &state) {
    void *stream = gpuCreateStream(setup().ze.device, setup().ze.context);
    loweredSequence(state, __func__, stream);
    gpuStreamDestroy(stream);
}

// A launch that uses a fresh buffer, then that buffer's free; a host
// synchronisation every kBatch launches.
void LaunchFree_Raw(benchmark::State &state) {
    ze_module_handle_t module = setup().ze.createModule(setup().spirv);
    ze_kernel_handle_t kernel = bench::ZeSetup::createKernel(module, "empty4");
    auto &ze = setup().ze;
    const ze_group_count_t groups = {1, 1, 1};
    std::vector<void *> toFree;
    toFree.reserve(bench::kBatch);
    auto sync = [&] {
        ze.syncList();
        for (void *p : toFree)
            BENCH_ZE(zeMemFree(ze.context, p));
        toFree.clear();
    };
    int64_t n = 0;
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state) {
            ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
            void *p = nullptr;
            BENCH_ZE(zeMemAllocDevice(ze.context, &desc, 64, 0, ze.device, &p));
            for (uint32_t i = 0; i < kArgs; ++i)
                BENCH_ZE(zeKernelSetArgumentValue(kernel, i, sizeof(void *), &p));
            BENCH_ZE(zeCommandListAppendLaunchKernel(ze.list, kernel, &groups, nullptr, 0, nullptr));
            toFree.push_back(p); // the raw API frees only after a synchronisation
            if (++n % bench::kBatch == 0)
                sync();
        }
    }
    sync();
    zeKernelDestroy(kernel);
    zeModuleDestroy(module);
}

// gpuMemAlloc of a fresh buffer and a launch of empty4 on it; returns the buffer.
void *launchOnFreshBuffer(void *stream, void *kernel) {
    void *p = gpuMemAlloc(stream, 64, 0, false);
    ParamDesc params[kArgs + 1] = {{&p, sizeof(void *)}, {&p, sizeof(void *)},
                                   {&p, sizeof(void *)}, {&p, sizeof(void *)},
                                   {nullptr, 0}};
    gpuLaunchKernel(stream, kernel, 1, 1, 1, 1, 1, 1, 0, params, nullptr);
    return p;
}

void launchFree(benchmark::State &state, const char *name, void *stream) {
    void *kernel = gpuKernelGet(stream, gpuModuleLoad(stream, setup().spirv.data(),
                                                      setup().spirv.size()),
                                "empty4");
    int64_t n = 0;
    {
        bench::InstructionWindow window(state, name);
        for (auto _ : state) {
            void *p = launchOnFreshBuffer(stream, kernel);
            gpuMemFree(stream, p); // deferred behind the launch
            if (++n % bench::kBatch == 0)
                gpuWait(stream);
        }
    }
    gpuWait(stream);
}

// The same loop with every free issued after the wait that ends its batch,
// where gpuMemFree frees at once: what launchFree's deferred frees are
// measured against (the deferral must add no host wait).
void freeAfterWait(benchmark::State &state, const char *name, void *stream) {
    void *kernel = gpuKernelGet(stream, gpuModuleLoad(stream, setup().spirv.data(),
                                                      setup().spirv.size()),
                                "empty4");
    std::vector<void *> toFree;
    toFree.reserve(bench::kBatch);
    auto sync = [&] {
        gpuWait(stream);
        for (void *p : toFree)
            gpuMemFree(stream, p);
        toFree.clear();
    };
    int64_t n = 0;
    {
        bench::InstructionWindow window(state, name);
        for (auto _ : state) {
            toFree.push_back(launchOnFreshBuffer(stream, kernel));
            if (++n % bench::kBatch == 0)
                sync();
        }
    }
    sync();
}

// On the benchmark's own list (gpuCreateStreamFromUser): the deferred frees
// are fenced by a barrier every 32 frees.
void LaunchFree_GpuRuntime(benchmark::State &state) {
    launchFree(state, __func__, setup().stream);
}
void LaunchFree_FreeAfterWait(benchmark::State &state) {
    freeAfterWait(state, __func__, setup().stream);
}

// On a list the library creates (gpuCreateStream, what lowered code uses):
// the fence is the last launch's own event, nothing is appended.
void LaunchFree_GpuRuntimeOwnList(benchmark::State &state) {
    void *stream = gpuCreateStream(setup().ze.device, setup().ze.context);
    launchFree(state, __func__, stream);
    gpuStreamDestroy(stream);
}
void LaunchFree_FreeAfterWaitOwnList(benchmark::State &state) {
    void *stream = gpuCreateStream(setup().ze.device, setup().ze.context);
    freeAfterWait(state, __func__, stream);
    gpuStreamDestroy(stream);
}

} // namespace

BENCHMARK(Launch_Raw)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_GpuRuntime)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_RawNoEvent)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Launch_Mgpu)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(KernelGet_Cached)->UseRealTime()->Unit(benchmark::kNanosecond);
BENCHMARK(ModuleReload_Large)->UseRealTime()->Unit(benchmark::kNanosecond);
BENCHMARK(LoweredSequence_Raw)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(LoweredSequence_GpuRuntime)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(LoweredSequence_GpuRuntimeOwnList)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(LaunchFree_Raw)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(LaunchFree_GpuRuntime)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(LaunchFree_FreeAfterWait)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(LaunchFree_GpuRuntimeOwnList)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(LaunchFree_FreeAfterWaitOwnList)->UseRealTime()->Unit(benchmark::kMicrosecond);

int main(int argc, char **argv) {
    using bench::Metric;
    bench::useBuiltDriver();
    setup(); // stream and module before the first measurement
    return bench::runWithSummary(argc, argv,
                                 {
                                     {"Launch_GpuRuntime", "Launch_Raw", 1.10, Metric::cpuTime},
                                     {"Launch_Mgpu", "Launch_RawNoEvent", 1.05, Metric::cpuTime},
                                     {"KernelGet_Cached", "", 100e-9, Metric::cpuTime},
                                     {"ModuleReload_Large", "KernelGet_Cached", 5.0,
                                      Metric::cpuTime},
                                     {"LoweredSequence_GpuRuntime", "LoweredSequence_Raw", 1.15,
                                      Metric::cpuTime},
                                     {"LoweredSequence_GpuRuntimeOwnList", "LoweredSequence_Raw",
                                      1.15, Metric::cpuTime},
                                     {"LaunchFree_GpuRuntime", "LaunchFree_Raw", 1.10,
                                      Metric::cpuTime},
                                     {"LaunchFree_GpuRuntime", "LaunchFree_FreeAfterWait", 1.02,
                                      Metric::cpuTime},
                                     {"LaunchFree_GpuRuntimeOwnList",
                                      "LaunchFree_FreeAfterWaitOwnList", 1.02, Metric::cpuTime},
                                 });
}
