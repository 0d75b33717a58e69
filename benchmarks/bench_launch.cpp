// imex_l0_interop_kernel_execute against the minimal raw Level Zero sequence
// the library must issue for the same launch (zeKernelSetArgumentValue per
// argument + zeCommandListAppendLaunchKernel), on the same driver and the
// same immediate list, without and with a returned event. Both sides launch
// an empty kernel with four USM pointer arguments and synchronise the list
// every kBatch launches the same way; with events, the raw side signals
// events of its own pool and resets them after the synchronisation, the
// library side releases the events it was given (which resets them).
//
// The library sets an argument on its kernel handle only when the value
// differs from the one the handle holds (kernel_entry.hpp); the raw side sets
// all four every launch, as a hand-written launch does. ExecuteNewArgs gives
// every launch other buffers than the one before (two sets, alternating), so
// both sides set all four: the case where that saving does not apply.
//
// Heap allocations of the launching thread are counted per launch; the
// difference to the raw sequence is what the library allocates.
//
// The targets (the library <= 1.05x raw in CPU time) are judged on the
// *_Paired cases, which run the same two sides in alternating batches in one
// benchmark (bench::pairedBatches): separate cases differ by more between
// repetitions on a shared machine than the target resolves. The separate
// cases stay for absolute times, allocations and callgrind's counts.
//
// Also: creating a kernel from OpenCL C a second time (a cache hit), next
// to zeKernelCreate on an existing module.
#include "alloc_counter.hpp"
#include "bench_common.hpp"

#include "imex_l0_interop.h"

#include <array>

namespace {

constexpr size_t kArgs = 4;

std::string spirvPath(const char *name) {
    return std::string(IMEX_BENCH_SPIRV_DIR) + "/" + name + ".spv";
}

// The Level Zero objects both sides share, and the library's objects over them.
struct Setup {
    bench::ZeSetup ze;
    std::string spirv = bench::readFile(spirvPath("empty"));
    std::array<std::array<void *, kArgs>, 2> buffers{}; // two sets, for ExecuteNewArgs
    imex_l0_engine_t engine = nullptr;
    imex_l0_stream_t stream = nullptr;

    Setup() {
        ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        for (auto &set : buffers)
            for (void *&b : set)
                BENCH_ZE(zeMemAllocDevice(ze.context, &desc, 64, 0, ze.device, &b));
        check(imex_l0_interop_engine_create(&engine, ze.driver, ze.device, ze.context));
        check(imex_l0_interop_stream_create(&stream, engine, ze.list));
    }
    ~Setup() {
        imex_l0_stream_destroy(stream);
        imex_l0_engine_destroy(engine);
        for (auto &set : buffers)
            for (void *b : set)
                zeMemFree(ze.context, b);
    }

    static void check(imex_l0_status_t status) {
        if (status != imex_l0_success) {
            std::fprintf(stderr, "%s: %s\n", imex_l0_status_str(status),
                         imex_l0_last_error_message());
            std::abort();
        }
    }
};

Setup &setup() {
    static Setup s;
    return s;
}

// The raw side's own module and kernel, so the two sides never share
// argument state on one kernel handle.
struct RawKernel {
    ze_module_handle_t module;
    ze_kernel_handle_t kernel;
    RawKernel() {
        module = setup().ze.createModule(setup().spirv);
        kernel = bench::ZeSetup::createKernel(module, "empty4");
    }
    ~RawKernel() {
        zeKernelDestroy(kernel);
        zeModuleDestroy(module);
    }
    void launch(ze_event_handle_t signal, size_t set = 0) const {
        const auto &buffers = setup().buffers[set];
        for (uint32_t i = 0; i < kArgs; ++i)
            BENCH_ZE(zeKernelSetArgumentValue(kernel, i, sizeof(void *), &buffers[i]));
        const ze_group_count_t groups = {1, 1, 1};
        BENCH_ZE(zeCommandListAppendLaunchKernel(setup().ze.list, kernel, &groups, signal, 0,
                                                 nullptr));
    }
};

struct LibraryKernel {
    imex_l0_kernel_t kernel = nullptr;
    std::array<std::array<imex_l0_exec_arg_t, kArgs>, 2> args{};
    imex_l0_range_t range = {{1, 1, 1}, {1, 1, 1}};
    LibraryKernel() {
        const std::string &spirv = setup().spirv;
        Setup::check(imex_l0_kernel_create_from_spirv(&kernel, setup().engine, spirv.data(),
                                                      spirv.size(), "empty4", nullptr));
        for (size_t set = 0; set < 2; ++set)
            for (size_t i = 0; i < kArgs; ++i)
                args[set][i] = {imex_l0_arg_usm, nullptr, setup().buffers[set][i], 0};
    }
    ~LibraryKernel() { imex_l0_kernel_destroy(kernel); }
    void launch(ze_event_handle_t *event, size_t set = 0) const {
        Setup::check(imex_l0_interop_kernel_execute(kernel, setup().stream, kArgs,
                                                    args[set].data(), &range, 0, nullptr, event));
    }
};

// Warms both sides up (PoCL compiles the work-group function at the first
// launch; the engine's event pool grows to its steady size) before timing.
template <typename Launch> void warmUp(Launch launch) {
    for (int i = 0; i < 2; ++i) {
        for (int64_t n = 0; n < bench::kBatch; ++n)
            launch(n);
        setup().ze.syncList();
    }
}

// Launches without an event, synchronising every kBatch launches; the same
// loop for the raw and the library side so that only the launch differs.
// With newArgs, launch n uses buffer set n % 2.
template <typename Kernel>
void executeWithoutEvent(benchmark::State &state, const char *name, bool newArgs = false) {
    Kernel k;
    warmUp([&](int64_t n) { k.launch(nullptr, newArgs ? size_t(n % 2) : 0); });
    bench::AllocCount before = bench::threadAllocations();
    int64_t n = 0;
    {
        bench::InstructionWindow window(state, name);
        for (auto _ : state) {
            k.launch(nullptr, newArgs ? size_t(n % 2) : 0);
            if (++n % bench::kBatch == 0)
                setup().ze.syncList();
        }
    }
    bench::publishAllocations(state, before);
    setup().ze.syncList();
}

void Execute_Raw(benchmark::State &state) { executeWithoutEvent<RawKernel>(state, __func__); }

void Execute_Library(benchmark::State &state) {
    executeWithoutEvent<LibraryKernel>(state, __func__);
}

void ExecuteNewArgs_Raw(benchmark::State &state) {
    executeWithoutEvent<RawKernel>(state, __func__, true);
}

void ExecuteNewArgs_Library(benchmark::State &state) {
    executeWithoutEvent<LibraryKernel>(state, __func__, true);
}

// The raw side's events: launch n signals event n % kBatch, all reset after
// the batch's wait.
struct RawEvents {
    bench::BatchEvents events{setup().ze};
    void launch(const RawKernel &k, int64_t n) { k.launch(events.forLaunch(n)); }
    void giveBack() { events.resetAll(); }
};

// The library's side: each launch returns an event, all released after the
// batch's wait (count: those launched since the last release).
struct LibraryEvents {
    std::vector<ze_event_handle_t> events = std::vector<ze_event_handle_t>(size_t(bench::kBatch));
    size_t held = 0;
    void launch(const LibraryKernel &k, int64_t n) {
        k.launch(&events[size_t(n % bench::kBatch)]);
        ++held;
    }
    void giveBack() {
        for (size_t i = 0; i < held; ++i)
            Setup::check(imex_l0_event_release(setup().engine, events[i]));
        held = 0;
    }
    ~LibraryEvents() { giveBack(); }
};

// Launches with an event, giving the events back after each batch's wait.
template <typename Kernel, typename Events>
void executeWithEvent(benchmark::State &state, const char *name) {
    Kernel k;
    Events events;
    warmUp([&](int64_t n) {
        events.launch(k, n);
        if (n + 1 == bench::kBatch) {
            setup().ze.syncList();
            events.giveBack();
        }
    });
    bench::AllocCount before = bench::threadAllocations();
    int64_t n = 0;
    {
        bench::InstructionWindow window(state, name);
        for (auto _ : state) {
            events.launch(k, n);
            if (++n % bench::kBatch == 0) {
                setup().ze.syncList();
                events.giveBack();
            }
        }
    }
    bench::publishAllocations(state, before);
    setup().ze.syncList();
}

void ExecuteEvent_Raw(benchmark::State &state) {
    executeWithEvent<RawKernel, RawEvents>(state, __func__);
}

void ExecuteEvent_Library(benchmark::State &state) {
    executeWithEvent<LibraryKernel, LibraryEvents>(state, __func__);
}

// ------------------------------------------------------ paired

// The three comparisons again, each side's batches alternating in one
// benchmark (bench::pairedBatches): the targets are judged on these.
template <typename Launch> auto batchOf(Launch launch) {
    return [launch]() mutable {
        for (int64_t n = 0; n < bench::kBatch; ++n)
            launch(n);
        setup().ze.syncList();
    };
}

void pairedWithoutEvent(benchmark::State &state, bool newArgs) {
    LibraryKernel library;
    RawKernel raw;
    auto set = [newArgs](int64_t n) { return newArgs ? size_t(n % 2) : 0; };
    bench::pairedBatches(state, batchOf([&](int64_t n) { library.launch(nullptr, set(n)); }),
                         batchOf([&](int64_t n) { raw.launch(nullptr, set(n)); }));
}

void Execute_Paired(benchmark::State &state) {
    pairedWithoutEvent(state, false);
}

void ExecuteNewArgs_Paired(benchmark::State &state) {
    pairedWithoutEvent(state, true);
}

void ExecuteEvent_Paired(benchmark::State &state) {
    LibraryKernel library;
    RawKernel raw;
    LibraryEvents libraryEvents;
    RawEvents rawEvents;
    auto withGiveBack = [](auto batch, auto &events) {
        return [batch, &events]() mutable {
            batch();
            events.giveBack();
        };
    };
    bench::pairedBatches(
        state,
        withGiveBack(batchOf([&](int64_t n) { libraryEvents.launch(library, n); }), libraryEvents),
        withGiveBack(batchOf([&](int64_t n) { rawEvents.launch(raw, n); }), rawEvents));
}

// ------------------------------------------------------ kernel creation

void KernelCreate_Raw(benchmark::State &state) {
    ze_module_handle_t module = setup().ze.createModule(setup().spirv);
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC};
    desc.pKernelName = "empty4";
    bench::AllocCount before = bench::threadAllocations();
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state) {
            ze_kernel_handle_t kernel = nullptr;
            BENCH_ZE(zeKernelCreate(module, &desc, &kernel));
            BENCH_ZE(zeKernelDestroy(kernel));
        }
    }
    bench::publishAllocations(state, before);
    zeModuleDestroy(module);
}

// The second and later creations from the same source hit the engine's
// cache; each iteration creates and destroys the user's kernel object.
void KernelCreate_Source_CacheHit(benchmark::State &state) {
    std::string source = bench::readFile(std::string(IMEX_BENCH_KERNEL_DIR) + "/stencil.cl");
    imex_l0_kernel_t kernel = nullptr;
    imex_l0_status_t status = imex_l0_kernel_create_from_source(
        &kernel, setup().engine, source.c_str(), "stencil", nullptr, 0, nullptr);
    if (status != imex_l0_success) {
        std::string why = std::string("the first compile failed (") +
                          imex_l0_status_str(status) + "): " + imex_l0_last_error_message();
        state.SkipWithError(why.c_str());
        return;
    }
    imex_l0_kernel_destroy(kernel);
    // Not zero: the cache key is built from the source and the user's kernel
    // object is allocated; this also shows the counter sees the library.
    bench::AllocCount before = bench::threadAllocations();
    {
        bench::InstructionWindow window(state, __func__);
        for (auto _ : state) {
            Setup::check(imex_l0_kernel_create_from_source(&kernel, setup().engine, source.c_str(),
                                                           "stencil", nullptr, 0, nullptr));
            Setup::check(imex_l0_kernel_destroy(kernel));
        }
    }
    bench::publishAllocations(state, before);
}

} // namespace

BENCHMARK(Execute_Raw)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Execute_Library)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(ExecuteNewArgs_Raw)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(ExecuteNewArgs_Library)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(ExecuteEvent_Raw)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(ExecuteEvent_Library)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(Execute_Paired)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(ExecuteNewArgs_Paired)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(ExecuteEvent_Paired)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(KernelCreate_Raw)->UseRealTime()->Unit(benchmark::kMicrosecond);
BENCHMARK(KernelCreate_Source_CacheHit)->UseRealTime()->Unit(benchmark::kMicrosecond);

int main(int argc, char **argv) {
    using bench::Metric;
    bench::useBuiltDriver();
    setup(); // engine and stream before the first measurement
    return bench::runWithSummary(
        argc, argv,
        {
            {"Execute_Library", "Execute_Raw", 0, Metric::cpuTime},
            {"ExecuteNewArgs_Library", "ExecuteNewArgs_Raw", 0, Metric::cpuTime},
            {"ExecuteEvent_Library", "ExecuteEvent_Raw", 0, Metric::cpuTime},
            bench::paired("Execute_Paired", "Execute_Raw", 1.05, Metric::cpuTime),
            bench::paired("ExecuteNewArgs_Paired", "ExecuteNewArgs_Raw", 1.05, Metric::cpuTime),
            bench::paired("ExecuteEvent_Paired", "ExecuteEvent_Raw", 1.05, Metric::cpuTime),
            {"KernelCreate_Source_CacheHit", "KernelCreate_Raw", 0},
            {"KernelCreate_Source_CacheHit", "", 10e-6, Metric::cpuTime},
        });
}
