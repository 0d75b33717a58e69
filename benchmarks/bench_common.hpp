// Shared pieces of the benchmark programs.
//
//  - useBuiltDriver(): points the Level Zero loader at the driver built with
//    the benchmarks unless ZE_ENABLE_ALT_DRIVERS is already set, so every
//    program runs standalone;
//  - BENCH_ZE(call) (and BENCH_CL for OpenCL calls): a failed call in a
//    benchmark is a bug in the setup, so it prints the call and its result
//    and aborts;
//  - readFile(): SPIR-V and OpenCL C inputs compiled or copied at build time;
//  - ZeSetup: the first driver/device, a context and one asynchronous
//    immediate list, plus syncList(), the one host synchronisation every L0
//    case uses (barrier -> event -> host wait -> reset);
//  - Summary: a reporter that prints Google Benchmark's usual table and then,
//    from the same run, the median real and CPU times of each case next to
//    its baseline's, their ratios, the target, and the allocation counters;
//  - runWithSummary(): main() of every program (defaults for a noisy machine);
//  - launchLoop(): the pipelined launch loop (a wait every kBatch launches);
//  - InstructionWindow: marks a case's timed loop for callgrind, so that
//    benchmarks/callgrind_per_iteration.sh can count the host
//    instructions per iteration, a figure the machine's load does not move.
#pragma once

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define BENCH_HAVE_CALLGRIND 1
#endif

#include <benchmark/benchmark.h>
#include <level_zero/ze_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace bench {

inline void useBuiltDriver() {
#ifdef IMEX_BENCH_ZE_DRIVER
    // The loader reads the variable in zeInit, so this must run before it.
    setenv("ZE_ENABLE_ALT_DRIVERS", IMEX_BENCH_ZE_DRIVER, /*overwrite=*/0);
#endif
}

inline void fail(const char *what, long code, const char *file, int line) {
    std::fprintf(stderr, "%s:%d: %s failed: %ld (0x%lx)\n", file, line, what, code,
                 static_cast<unsigned long>(code));
    std::abort();
}

// The same for OpenCL calls, in the programs that include <CL/cl.h>.
#define BENCH_CL(call)                                                                             \
    do {                                                                                           \
        cl_int e_ = (call);                                                                        \
        if (e_ != CL_SUCCESS)                                                                      \
            ::bench::fail(#call, e_, __FILE__, __LINE__);                                          \
    } while (0)

#define BENCH_ZE(call)                                                                             \
    do {                                                                                           \
        ze_result_t r_ = (call);                                                                   \
        if (r_ != ZE_RESULT_SUCCESS)                                                               \
            ::bench::fail(#call, static_cast<long>(r_), __FILE__, __LINE__);                       \
    } while (0)

inline std::string readFile(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", path.c_str());
        std::abort();
    }
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The first L0 driver and device, a context and one asynchronous immediate
// list, created once per process and destroyed at exit.
struct ZeSetup {
    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t device = nullptr;
    ze_context_handle_t context = nullptr;
    ze_command_list_handle_t list = nullptr;
    ze_event_pool_handle_t syncPool = nullptr;
    ze_event_handle_t syncEvent = nullptr; // signalled by syncList's barrier

    ZeSetup() {
        useBuiltDriver();
        BENCH_ZE(zeInit(0));
        uint32_t count = 1;
        BENCH_ZE(zeDriverGet(&count, &driver));
        count = 1;
        BENCH_ZE(zeDeviceGet(driver, &count, &device));
        ze_context_desc_t contextDesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
        BENCH_ZE(zeContextCreate(driver, &contextDesc, &context));
        ze_command_queue_desc_t queueDesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
        queueDesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
        BENCH_ZE(zeCommandListCreateImmediate(context, device, &queueDesc, &list));
        syncPool = createEventPool(1);
        syncEvent = createEvent(syncPool, 0);
    }
    ~ZeSetup() {
        zeEventDestroy(syncEvent);
        zeEventPoolDestroy(syncPool);
        zeCommandListDestroy(list);
        zeContextDestroy(context);
    }
    ZeSetup(const ZeSetup &) = delete;
    ZeSetup &operator=(const ZeSetup &) = delete;

    ze_event_pool_handle_t createEventPool(uint32_t count) const {
        ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                     ZE_EVENT_POOL_FLAG_HOST_VISIBLE, count};
        ze_event_pool_handle_t pool = nullptr;
        ze_device_handle_t dev = device;
        BENCH_ZE(zeEventPoolCreate(context, &desc, 1, &dev, &pool));
        return pool;
    }
    static ze_event_handle_t createEvent(ze_event_pool_handle_t pool, uint32_t index) {
        ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, index,
                                ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
        ze_event_handle_t event = nullptr;
        BENCH_ZE(zeEventCreate(pool, &desc, &event));
        return event;
    }

    // Module and kernel from SPIR-V; group size 1x1x1 unless set later.
    ze_module_handle_t createModule(const std::string &spirv, const char *flags = "") const {
        ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
        desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
        desc.inputSize = spirv.size();
        desc.pInputModule = reinterpret_cast<const uint8_t *>(spirv.data());
        desc.pBuildFlags = flags;
        ze_module_handle_t module = nullptr;
        BENCH_ZE(zeModuleCreate(context, device, &desc, &module, nullptr));
        return module;
    }
    static ze_kernel_handle_t createKernel(ze_module_handle_t module, const char *name) {
        ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC};
        desc.pKernelName = name;
        ze_kernel_handle_t kernel = nullptr;
        BENCH_ZE(zeKernelCreate(module, &desc, &kernel));
        BENCH_ZE(zeKernelSetGroupSize(kernel, 1, 1, 1));
        return kernel;
    }

    // Waits until everything appended to the list so far has completed.
    void syncList() const {
        BENCH_ZE(zeCommandListAppendBarrier(list, syncEvent, 0, nullptr));
        BENCH_ZE(zeEventHostSynchronize(syncEvent, UINT64_MAX));
        BENCH_ZE(zeEventHostReset(syncEvent));
    }
};

// Under callgrind (--collect-atstart=no), collects exactly the timed loop of
// a case and dumps it with the case's name and iteration count; elsewhere a
// few instructions that do nothing.
class InstructionWindow {
public:
    InstructionWindow(const benchmark::State &state, const char *name)
        : state_(state), name_(name) {
#ifdef BENCH_HAVE_CALLGRIND
        CALLGRIND_ZERO_STATS;
        CALLGRIND_TOGGLE_COLLECT;
#endif
    }
    ~InstructionWindow() {
#ifdef BENCH_HAVE_CALLGRIND
        CALLGRIND_TOGGLE_COLLECT;
        if (RUNNING_ON_VALGRIND) {
            std::string label =
                std::string(name_) + " iterations=" + std::to_string(state_.iterations());
            CALLGRIND_DUMP_STATS_AT(label.c_str());
        }
#endif
    }
    InstructionWindow(const InstructionWindow &) = delete;
    InstructionWindow &operator=(const InstructionWindow &) = delete;

private:
    const benchmark::State &state_;
    const char *name_;
};

// Launches between two host synchronisations in the pipelined cases.
constexpr int64_t kBatch = 64;

// The events a pipelined case signals: kBatch of a pool of their own, event
// n % kBatch for launch n, all reset after a batch's wait.
class BatchEvents {
public:
    explicit BatchEvents(const ZeSetup &ze) : pool_(ze.createEventPool(uint32_t(kBatch))) {
        for (uint32_t i = 0; i < kBatch; ++i)
            events_.push_back(ZeSetup::createEvent(pool_, i));
    }
    ~BatchEvents() {
        for (ze_event_handle_t e : events_)
            zeEventDestroy(e);
        zeEventPoolDestroy(pool_);
    }
    BatchEvents(const BatchEvents &) = delete;
    BatchEvents &operator=(const BatchEvents &) = delete;
    ze_event_handle_t forLaunch(int64_t n) const { return events_[size_t(n % kBatch)]; }
    void resetAll() const {
        for (ze_event_handle_t e : events_)
            BENCH_ZE(zeEventHostReset(e));
    }

private:
    ze_event_pool_handle_t pool_;
    std::vector<ze_event_handle_t> events_;
};

// The pipelined launch loop of a case: launch() per iteration, wait() every
// kBatch launches, after a warm-up of two batches (first launches, pools
// grown to their steady size) and at the end.
template <typename Launch, typename Wait>
void launchLoop(benchmark::State &state, const char *name, Launch launch, Wait wait) {
    for (int64_t i = 0; i < 2 * kBatch; ++i)
        launch();
    wait();
    int64_t n = 0;
    {
        InstructionWindow window(state, name);
        for (auto _ : state) {
            launch();
            if (++n % kBatch == 0)
                wait();
        }
    }
    wait();
}

// The times of one batch of launches, per launch, in seconds: `real` is
// what the comparison is about (the wall time of the batch, or the device
// time a side's timers report), `cpu` the launching thread's CPU time.
struct BatchTimes {
    double real, cpu;
};

// A case and its baseline measured in one benchmark, in alternating batches:
// each iteration runs one batch of each (caseBatch() and baseBatch(), each
// returning its BatchTimes), the case first in every other pair. Separate
// benchmarks differ by 5-15% between repetitions on a shared machine
// (frequency, placement, neighbours), more than the few percent a target
// resolves; batches next to each other see the same state, and the ratio of
// each pair cancels what they share. Counters (per launch, medians over the
// pairs): case_real, case_cpu, base_real, base_cpu in seconds, and
// ratio_real, ratio_cpu, the medians of the pairs' ratios, which a paired
// Comparison reports.
template <typename CaseBatch, typename BaseBatch>
void pairedTimes(benchmark::State &state, CaseBatch caseBatch, BaseBatch baseBatch) {
    for (int i = 0; i < 2; ++i) { // first launches, pools grown to their steady size
        caseBatch();
        baseBatch();
    }
    std::vector<double> caseReal, caseCpu, baseReal, baseCpu, ratioReal, ratioCpu;
    int64_t pair = 0;
    for (auto _ : state) {
        BatchTimes c{}, b{};
        if (pair++ % 2 == 0) {
            c = caseBatch();
            b = baseBatch();
        } else {
            b = baseBatch();
            c = caseBatch();
        }
        caseReal.push_back(c.real);
        caseCpu.push_back(c.cpu);
        baseReal.push_back(b.real);
        baseCpu.push_back(b.cpu);
        ratioReal.push_back(c.real / b.real);
        ratioCpu.push_back(c.cpu / b.cpu);
    }
    auto median = [](std::vector<double> &v) {
        if (v.empty())
            return 0.0;
        std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
        return v[v.size() / 2];
    };
    state.counters["case_real"] = median(caseReal);
    state.counters["case_cpu"] = median(caseCpu);
    state.counters["base_real"] = median(baseReal);
    state.counters["base_cpu"] = median(baseCpu);
    state.counters["ratio_real"] = median(ratioReal);
    state.counters["ratio_cpu"] = median(ratioCpu);
}

// The thread's CPU time so far, in seconds.
inline double threadCpuSeconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// pairedTimes of batches of kBatch launches with their wait (caseBatch() and
// baseBatch() return nothing), each timed by the host: real and CPU time.
template <typename CaseBatch, typename BaseBatch>
void pairedBatches(benchmark::State &state, CaseBatch caseBatch, BaseBatch baseBatch) {
    auto timed = [](auto batch) {
        return [batch]() mutable {
            const double cpu0 = threadCpuSeconds();
            const auto real0 = std::chrono::steady_clock::now();
            batch();
            const auto real1 = std::chrono::steady_clock::now();
            const double cpu1 = threadCpuSeconds();
            return BatchTimes{std::chrono::duration<double>(real1 - real0).count() / double(kBatch),
                              (cpu1 - cpu0) / double(kBatch)};
        };
    };
    pairedTimes(state, timed(caseBatch), timed(baseBatch));
}

// Which time of a benchmark a target applies to. Real time is what a caller
// waits; CPU time is the launching thread's own work (Google Benchmark
// measures the benchmark thread's CPU time), which excludes the time the
// thread sleeps in a wait and the time other processes of a loaded machine
// take from it: the host cost of a call.
enum class Metric { realTime, cpuTime };

// One line of the closing summary: `name` against `baseline`, both benchmark
// names as registered (without "/real_time" and the like).
struct Comparison {
    std::string name;
    // Empty: no baseline, and target is an absolute time per iteration in seconds.
    std::string baseline;
    // time(name) / time(baseline) must stay <= target; for throughput cases
    // (higherIsBetter) the summary prints baseline / name, which must be >=
    // target. 0: no target, the ratio is for information.
    double target;
    Metric metric = Metric::realTime;
    bool higherIsBetter = false;
    // Non-empty: the summary ends with the geometric mean of the group's
    // ratios (in the target's metric).
    std::string group;
    // `name` is a pairedBatches() benchmark: its counters hold both sides'
    // times and the ratios; `baseline` only names the baseline side.
    bool paired = false;
};

// A Comparison of a pairedBatches() benchmark.
inline Comparison paired(std::string name, std::string baseline, double target, Metric metric) {
    Comparison c{std::move(name), std::move(baseline), target, metric};
    c.paired = true;
    return c;
}

// Benchmarks that count heap allocations publish them under these counters
// (per iteration): every allocation of the benchmark thread, and those made
// outside Level Zero calls (the library's own).
inline const char *const kAllocCounter = "allocs";
inline const char *const kOwnAllocCounter = "allocs_outside_ze";

// Prints the console table as usual and keeps every run's times per
// iteration, so that Finalize() can print medians and ratios of one run.
class Summary : public benchmark::ConsoleReporter {
public:
    explicit Summary(std::vector<Comparison> comparisons)
        : comparisons_(std::move(comparisons)) {}

    void ReportRuns(const std::vector<Run> &runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run &run : runs) {
            Measured &m = measured_[run.run_name.function_name];
            if (run.error_occurred) {
                m.error = run.error_message;
                continue;
            }
            double unit = benchmark::GetTimeUnitMultiplier(run.time_unit);
            double real = run.GetAdjustedRealTime() / unit, cpu = run.GetAdjustedCPUTime() / unit;
            if (run.run_type == Run::RT_Iteration) {
                m.real.push_back(real);
                m.cpu.push_back(cpu);
            } else if (run.aggregate_name == "median") {
                m.medianReal = real;
                m.medianCpu = cpu;
            } else {
                continue;
            }
            for (const auto &counter : run.counters)
                m.counters[counter.first] = counter.second.value;
        }
    }

    void Finalize() override {
        ConsoleReporter::Finalize();
        std::printf("\nSummary: medians per iteration, real and CPU time of the benchmark thread; "
                    "ratio = case / baseline (bandwidth: baseline / case)\n");
        std::printf("%-30s %11s %11s  %-30s %11s %11s  %8s %8s  %-13s %s\n", "case", "real", "cpu",
                    "baseline", "real", "cpu", "r(real)", "r(cpu)", "target", "");
        std::map<std::string, std::pair<double, int>> groups; // sum of log ratios, count
        for (const Comparison &c : comparisons_) {
            const double r = printComparison(c);
            if (!c.group.empty() && r > 0) {
                groups[c.group].first += std::log(r);
                ++groups[c.group].second;
            }
        }
        for (const auto &[group, sum] : groups)
            std::printf("geomean %-22s %7.3fx over %d cases\n", group.c_str(),
                        std::exp(sum.first / sum.second), sum.second);
        printAllocations();
    }

private:
    struct Measured {
        std::vector<double> real, cpu;
        double medianReal = 0, medianCpu = 0;
        std::map<std::string, double> counters; // the median run's, else the last run's
        std::string error;
        double medianOf(Metric metric) const {
            double m = metric == Metric::realTime ? medianReal : medianCpu;
            if (m > 0)
                return m;
            std::vector<double> v = metric == Metric::realTime ? real : cpu;
            if (v.empty())
                return 0;
            std::sort(v.begin(), v.end());
            size_t n = v.size();
            return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
        }
    };

    static std::string format(double seconds) {
        char text[32];
        if (seconds >= 1e-3)
            std::snprintf(text, sizeof text, "%.3f ms", seconds * 1e3);
        else if (seconds >= 1e-6)
            std::snprintf(text, sizeof text, "%.3f us", seconds * 1e6);
        else
            std::snprintf(text, sizeof text, "%.1f ns", seconds * 1e9);
        return text;
    }

    const Measured *find(const std::string &name) const {
        auto it = measured_.find(name);
        return it == measured_.end() ? nullptr : &it->second;
    }

    // NULL when measured; else why not.
    const char *missing(const std::string &name) const {
        const Measured *m = find(name);
        if (!m)
            return "filtered out";
        if (!m->error.empty())
            return m->error.c_str();
        return m->medianOf(Metric::realTime) > 0 ? nullptr : "no result";
    }

    // Prints a row; returns its ratio in the target's metric (0 when a side
    // was not measured or there is no baseline).
    double printComparison(const Comparison &c) const {
        const char *metricName = c.metric == Metric::realTime ? "real" : "cpu";
        for (const std::string *n : {&c.name, &c.baseline}) {
            if (n->empty() || (c.paired && n == &c.baseline)) // measured inside c.name
                continue;
            if (const char *why = missing(*n)) {
                std::printf("%-30s not measured: %s: %s\n", c.name.c_str(), n->c_str(), why);
                return 0;
            }
        }
        const Measured &t = *find(c.name);
        double tr = t.medianOf(Metric::realTime), tc = t.medianOf(Metric::cpuTime);
        if (c.paired)
            return printPaired(c, t);
        if (c.baseline.empty()) {
            double v = t.medianOf(c.metric);
            std::string target = "<=" + format(c.target) + " " + metricName;
            std::printf("%-30s %11s %11s  %-30s %11s %11s  %8s %8s  %-13s %s\n", c.name.c_str(),
                        format(tr).c_str(), format(tc).c_str(), "(absolute target)", "", "", "",
                        "", target.c_str(), v <= c.target ? "met" : "MISSED");
            return 0;
        }
        const Measured &b = *find(c.baseline);
        double br = b.medianOf(Metric::realTime), bc = b.medianOf(Metric::cpuTime);
        auto ratio = [&](double caseTime, double baseTime) {
            return c.higherIsBetter ? baseTime / caseTime : caseTime / baseTime;
        };
        return printRow(c, c.baseline, tr, tc, br, bc, ratio(tr, br), ratio(tc, bc));
    }

    // A paired benchmark's row: both sides' times and the medians of the
    // pairs' ratios, from its counters (per launch).
    double printPaired(const Comparison &c, const Measured &m) const {
        auto counter = [&](const char *name) {
            auto it = m.counters.find(name);
            return it == m.counters.end() ? 0.0 : it->second;
        };
        return printRow(c, c.baseline + " (paired)", counter("case_real"), counter("case_cpu"),
                        counter("base_real"), counter("base_cpu"), counter("ratio_real"),
                        counter("ratio_cpu"));
    }

    // Prints a comparison's row; returns the ratio in the target's metric.
    double printRow(const Comparison &c, const std::string &baseline, double tr, double tc,
                    double br, double bc, double rr, double rc) const {
        const char *metricName = c.metric == Metric::realTime ? "real" : "cpu";
        std::string target = "-";
        const char *verdict = "";
        if (c.target > 0) {
            char text[32];
            std::snprintf(text, sizeof text, "%s%.2f %s", c.higherIsBetter ? ">=" : "<=",
                          c.target, metricName);
            target = text;
            double r = c.metric == Metric::realTime ? rr : rc;
            verdict = (c.higherIsBetter ? r >= c.target : r <= c.target) ? "met" : "MISSED";
        }
        std::printf("%-30s %11s %11s  %-30s %11s %11s  %7.3fx %7.3fx  %-13s %s\n", c.name.c_str(),
                    format(tr).c_str(), format(tc).c_str(), baseline.c_str(), format(br).c_str(),
                    format(bc).c_str(), rr, rc, target.c_str(), verdict);
        return c.metric == Metric::realTime ? rr : rc;
    }

    void printAllocations() const {
        bool header = false;
        for (const Comparison &c : comparisons_) {
            const Measured *t = find(c.name), *b = find(c.baseline);
            if (!t || !b || !t->counters.count(kAllocCounter) || !b->counters.count(kAllocCounter))
                continue;
            if (!header) {
                std::printf("\nHeap allocations per iteration by the benchmark thread: all, and "
                            "outside Level Zero calls\n");
                header = true;
            }
            auto get = [](const Measured *m, const char *counter) {
                auto it = m->counters.find(counter);
                return it == m->counters.end() ? 0.0 : it->second;
            };
            std::printf("%-30s all %7.3f  outside ze* %7.3f  |  %-22s all %7.3f  outside ze* "
                        "%7.3f\n",
                        c.name.c_str(), get(t, kAllocCounter), get(t, kOwnAllocCounter),
                        c.baseline.c_str(), get(b, kAllocCounter), get(b, kOwnAllocCounter));
        }
    }

    std::vector<Comparison> comparisons_;
    std::map<std::string, Measured> measured_;
};

// Runs the registered benchmarks with the summary reporter. Unless given on
// the command line: 9 repetitions of at least 0.05 s each, in random
// interleaved order (a case and its baseline see the same background load
// rather than one load spike hitting one of them), only aggregates printed.
// The machine is shared and noisy, so the figures are medians.
inline int runWithSummary(int argc, char **argv, std::vector<Comparison> comparisons) {
    std::vector<std::string> defaults = {"--benchmark_repetitions=9",
                                         "--benchmark_min_time=0.05",
                                         "--benchmark_enable_random_interleaving=true",
                                         "--benchmark_report_aggregates_only=true"};
    auto given = [&](const std::string &option) {
        std::string flag = option.substr(0, option.find('='));
        for (int i = 1; i < argc; ++i)
            if (std::string(argv[i]).rfind(flag, 0) == 0)
                return true;
        return false;
    };
    std::vector<char *> args(argv, argv + argc);
    for (std::string &option : defaults)
        if (!given(option))
            args.push_back(option.data());
    int n = static_cast<int>(args.size());
    args.push_back(nullptr);
    benchmark::Initialize(&n, args.data());
    if (benchmark::ReportUnrecognizedArguments(n, args.data()))
        return 1;
    Summary summary(std::move(comparisons));
    benchmark::RunSpecifiedBenchmarks(&summary);
    benchmark::Shutdown();
    return 0;
}

} // namespace bench
