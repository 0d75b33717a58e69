// Concurrency and load: many threads on one engine, launches chained across
// streams by events, concurrent compiles, and create/destroy churn with the
// process's memory reported before and after.
//
// IMEX_L0_STRESS_SCALE (default 1) multiplies every count (8 x 1000
// launches, 10k churn cycles); ThreadSanitizer runs use 0.1, a long soak 10.
#include "imex_l0_interop.h"

#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

#define ASSERT_IMEX(call) ASSERT_EQ((call), imex_l0_success) << #call << ": " << imex_l0_last_error_message()
#define EXPECT_IMEX(call) EXPECT_EQ((call), imex_l0_success) << #call << ": " << imex_l0_last_error_message()

double scale() {
    const char *s = std::getenv("IMEX_L0_STRESS_SCALE");
    double v = s ? std::strtod(s, nullptr) : 1.0;
    return v > 0 ? v : 1.0;
}

size_t scaled(size_t n) { return std::max<size_t>(2, size_t(double(n) * scale())); }

std::string readFile(const char *path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

const std::string &spirv() {
    static const std::string bytes = readFile(STRESS_KERNELS_SPV);
    return bytes;
}

// Resident set size of this process, from /proc/self/statm (pages).
size_t rssBytes() {
    std::ifstream statm("/proc/self/statm");
    size_t total = 0, resident = 0;
    statm >> total >> resident;
    return resident * size_t(sysconf(_SC_PAGESIZE));
}

double mib(size_t bytes) { return double(bytes) / (1024.0 * 1024.0); }

// Under AddressSanitizer freed memory waits in a quarantine (256 MiB by
// default) and ThreadSanitizer keeps shadow and history memory, so RSS grows
// with churn in those builds whatever the library does; there LeakSanitizer's
// report at exit is the leak check, and the RSS figures are only printed.
// (GCC defines __SANITIZE_*__; clang 15 answers __has_feature.)
#if defined(__has_feature)
#define STRESS_HAS_FEATURE(x) __has_feature(x)
#else
#define STRESS_HAS_FEATURE(x) 0
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) ||                               \
    STRESS_HAS_FEATURE(address_sanitizer) || STRESS_HAS_FEATURE(thread_sanitizer)
constexpr bool kRssIsMeaningful = false;
#else
constexpr bool kRssIsMeaningful = true;
#endif

// A generous bound: the allocator and PoCL keep freed memory around, so only
// a per-cycle leak (10k cycles x even a few KiB) exceeds it, and no machine's
// allocator behaviour makes a correct run fail.
void expectStableRss(size_t before, size_t after) {
    if (kRssIsMeaningful) {
        EXPECT_LT(after, before + (size_t(64) << 20)) << "memory grows with churn";
    }
}

imex_l0_exec_arg_t mem(imex_l0_memory_t m) { return {imex_l0_arg_memory, m, nullptr, 0}; }

int *hostView(imex_l0_memory_t m) {
    void *p = nullptr;
    imex_l0_interop_memory_get_mem_object(m, 0, &p);
    return static_cast<int *>(p);
}

// --------------------------------------------------------------------------
// 8 threads, each with its own stream of one engine, run R rounds. In round i
// thread t computes next[t] = prev[t-1] + 1 (ring order), so every launch reads
// what the neighbour's stream wrote in the round before. It depends on the
// neighbour's event of round i-1 (read after write) and on the other
// neighbour's event of round i-1, which read the buffer it overwrites now
// (write after read). The result is exact only if every dependency held: after
// R rounds every element of every buffer is R.
TEST(Stress, EightThreadsChainLaunchesAcrossStreamsWithEvents) {
    constexpr size_t kThreads = 8;
    constexpr size_t kN = 64;
    // A thread releases its event of round i-kWindow after waiting for its
    // event of round i-kWindow+2, whose completion implies that both launches
    // that depended on the released one have completed.
    constexpr size_t kWindow = 8;
    const size_t rounds = scaled(1000);

    imex_l0_engine_t engine = nullptr;
    ASSERT_IMEX(imex_l0_engine_create(&engine, 0));
    imex_l0_kernel_t kernel = nullptr;
    ASSERT_IMEX(imex_l0_kernel_create_from_spirv(&kernel, engine, spirv().data(), spirv().size(),
                                                 "add_one", nullptr));
    std::vector<imex_l0_stream_t> streams(kThreads);
    // buffers[parity][t]: round i writes parity i % 2 and reads the other.
    std::vector<imex_l0_memory_t> buffers[2];
    for (size_t t = 0; t < kThreads; ++t) {
        ASSERT_IMEX(imex_l0_stream_create(&streams[t], engine));
        for (auto &parity : buffers) {
            imex_l0_memory_t m = nullptr;
            ASSERT_IMEX(imex_l0_interop_memory_create(&m, engine, imex_l0_memory_kind_shared,
                                                      kN * sizeof(int), IMEX_L0_MEMORY_ALLOCATE));
            std::fill_n(hostView(m), kN, 0);
            parity.push_back(m);
        }
    }

    // events[i * kThreads + t]: thread t's launch of round i, published once
    // appended. Consumers block on the condition variable until it is there.
    std::vector<ze_event_handle_t> events(rounds * kThreads, nullptr);
    std::mutex mutex; // guards events
    std::condition_variable published;
    std::atomic<bool> failed{false};
    auto waitFor = [&](size_t round, size_t t) {
        std::unique_lock<std::mutex> lock(mutex);
        published.wait(lock, [&] { return events[round * kThreads + t] || failed.load(); });
        return events[round * kThreads + t];
    };

    auto worker = [&](size_t t) {
        const size_t left = (t + kThreads - 1) % kThreads, right = (t + 1) % kThreads;
        const imex_l0_range_t range = {{kN, 1, 1}, {0, 0, 0}};
        std::vector<ze_event_handle_t> mine;
        mine.reserve(rounds);
        for (size_t i = 0; i < rounds && !failed; ++i) {
            ze_event_handle_t deps[2];
            size_t ndeps = 0;
            if (i > 0) {
                deps[ndeps++] = waitFor(i - 1, left);
                deps[ndeps++] = waitFor(i - 1, right);
                if (!deps[0] || !deps[1])
                    break;
            }
            imex_l0_exec_arg_t args[2] = {mem(buffers[(i + 1) % 2][left]),
                                          mem(buffers[i % 2][t])};
            ze_event_handle_t done = nullptr;
            imex_l0_status_t s = imex_l0_interop_kernel_execute(kernel, streams[t], 2, args,
                                                                &range, ndeps, deps, &done);
            if (s != imex_l0_success) {
                ADD_FAILURE() << "thread " << t << " round " << i << ": "
                              << imex_l0_last_error_message();
                failed = true;
                published.notify_all();
                break;
            }
            mine.push_back(done);
            {
                std::lock_guard<std::mutex> lock(mutex);
                events[i * kThreads + t] = done;
            }
            published.notify_all();
            if (i >= kWindow) {
                EXPECT_EQ(zeEventHostSynchronize(mine[i - kWindow + 2], UINT64_MAX),
                          ZE_RESULT_SUCCESS);
                EXPECT_IMEX(imex_l0_event_release(engine, mine[i - kWindow]));
            }
        }
        // The tail: everything this thread still holds, once the last round
        // of every neighbour that depends on it has completed.
        EXPECT_IMEX(imex_l0_stream_wait(streams[t]));
        return mine;
    };

    std::vector<std::thread> threads;
    std::vector<std::vector<ze_event_handle_t>> held(kThreads);
    for (size_t t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] { held[t] = worker(t); });
    for (auto &th : threads)
        th.join();
    ASSERT_FALSE(failed.load());
    for (size_t t = 0; t < kThreads; ++t)
        EXPECT_IMEX(imex_l0_stream_wait(streams[t]));
    for (size_t t = 0; t < kThreads; ++t) {
        const auto &mine = held[t];
        for (size_t i = mine.size() > kWindow ? mine.size() - kWindow : 0; i < mine.size(); ++i)
            EXPECT_IMEX(imex_l0_event_release(engine, mine[i]));
    }

    const auto &last = buffers[(rounds - 1) % 2];
    for (size_t t = 0; t < kThreads; ++t) {
        const int *v = hostView(last[t]);
        for (size_t k = 0; k < kN; ++k)
            ASSERT_EQ(v[k], int(rounds)) << "stream " << t << " element " << k;
    }
    std::printf("[ stress ] %zu threads x %zu launches with cross-stream dependencies: correct\n",
                kThreads, rounds);

    for (auto &parity : buffers)
        for (auto m : parity)
            EXPECT_IMEX(imex_l0_memory_destroy(m));
    for (auto s : streams)
        EXPECT_IMEX(imex_l0_stream_destroy(s));
    EXPECT_IMEX(imex_l0_kernel_destroy(kernel));
    EXPECT_IMEX(imex_l0_engine_destroy(engine));
}

// --------------------------------------------------------------------------
// 8 threads compile at once through both entry points; threads 0-3 share one
// source (the caches must hand them one kernel), threads 4-7 each have their
// own. Every kernel then writes its constant, which is checked.
TEST(Stress, EightThreadsCompileHalfIdenticalSources) {
    constexpr size_t kThreads = 8;
    const size_t iterations = scaled(3);
    imex_l0_engine_t engine = nullptr;
    ASSERT_IMEX(imex_l0_engine_create(&engine, 0));

    auto sourceOf = [](size_t t) {
        int constant = t < kThreads / 2 ? 1000 : int(2000 + t);
        return "kernel void put(global int *out) { out[get_global_id(0)] = " +
               std::to_string(constant) + "; }\n";
    };
    std::vector<imex_l0_kernel_t> kernels(kThreads, nullptr);
    std::vector<std::string> problems(kThreads);
    std::vector<std::thread> threads;
    for (size_t t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            std::string source = sourceOf(t);
            for (size_t i = 0; i < iterations; ++i) {
                void *bytes = nullptr;
                size_t size = 0;
                char *log = nullptr;
                if (imex_l0_compile_opencl_c(source.c_str(), nullptr, 0, nullptr, &bytes, &size,
                                             &log) != imex_l0_success) {
                    problems[t] = std::string("compile: ") + imex_l0_last_error_message();
                    imex_l0_free(log);
                    return;
                }
                imex_l0_free(bytes);
                imex_l0_free(log);
                imex_l0_kernel_t k = nullptr;
                if (imex_l0_kernel_create_from_source(&k, engine, source.c_str(), "put", nullptr,
                                                      0, nullptr) != imex_l0_success) {
                    problems[t] = std::string("create: ") + imex_l0_last_error_message();
                    return;
                }
                // Keep the last one; the earlier ones are the same cached kernel.
                if (kernels[t])
                    imex_l0_kernel_destroy(kernels[t]);
                kernels[t] = k;
            }
        });
    for (auto &th : threads)
        th.join();
    for (size_t t = 0; t < kThreads; ++t)
        ASSERT_TRUE(problems[t].empty()) << "thread " << t << ": " << problems[t];

    // Identical source, options and defines: one Level Zero kernel.
    ze_kernel_handle_t first = nullptr;
    ASSERT_IMEX(imex_l0_interop_kernel_get_handle(kernels[0], &first));
    for (size_t t = 1; t < kThreads / 2; ++t) {
        ze_kernel_handle_t h = nullptr;
        ASSERT_IMEX(imex_l0_interop_kernel_get_handle(kernels[t], &h));
        EXPECT_EQ(h, first) << "thread " << t << " got its own build of a shared source";
    }

    imex_l0_stream_t stream = nullptr;
    ASSERT_IMEX(imex_l0_stream_create(&stream, engine));
    imex_l0_memory_t out = nullptr;
    ASSERT_IMEX(imex_l0_interop_memory_create(&out, engine, imex_l0_memory_kind_shared,
                                              16 * sizeof(int), IMEX_L0_MEMORY_ALLOCATE));
    for (size_t t = 0; t < kThreads; ++t) {
        imex_l0_exec_arg_t arg = mem(out);
        imex_l0_range_t range = {{16, 1, 1}, {0, 0, 0}};
        ASSERT_IMEX(imex_l0_interop_kernel_execute(kernels[t], stream, 1, &arg, &range, 0,
                                                   nullptr, nullptr));
        ASSERT_IMEX(imex_l0_stream_wait(stream));
        int expected = t < kThreads / 2 ? 1000 : int(2000 + t);
        EXPECT_EQ(hostView(out)[15], expected) << "kernel of thread " << t;
    }
    EXPECT_IMEX(imex_l0_memory_destroy(out));
    EXPECT_IMEX(imex_l0_stream_destroy(stream));
    for (auto k : kernels)
        EXPECT_IMEX(imex_l0_kernel_destroy(k));
    EXPECT_IMEX(imex_l0_engine_destroy(engine));
}

// --------------------------------------------------------------------------
// Create/destroy churn. Each cycle: an engine (its own context), two streams,
// an ALLOCATEd buffer, a fill that returns an event, a wait, a release, and
// everything destroyed again. RSS is printed before and after and checked
// against a generous bound (expectStableRss).
TEST(Stress, EngineAndStreamChurnKeepsMemoryStable) {
    const size_t cycles = scaled(10000);
    auto cycle = [] {
        imex_l0_engine_t engine = nullptr;
        ASSERT_IMEX(imex_l0_engine_create(&engine, 0));
        imex_l0_stream_t streams[2] = {};
        for (auto &s : streams)
            ASSERT_IMEX(imex_l0_stream_create(&s, engine));
        imex_l0_memory_t m = nullptr;
        ASSERT_IMEX(imex_l0_interop_memory_create(&m, engine, imex_l0_memory_kind_shared, 256,
                                                  IMEX_L0_MEMORY_ALLOCATE));
        int *p = hostView(m);
        int pattern = 7;
        ze_event_handle_t done = nullptr;
        ASSERT_IMEX(imex_l0_interop_memset(streams[1], p, &pattern, sizeof pattern, 256, 0,
                                           nullptr, &done));
        ASSERT_EQ(zeEventHostSynchronize(done, UINT64_MAX), ZE_RESULT_SUCCESS);
        ASSERT_EQ(p[63], 7);
        ASSERT_IMEX(imex_l0_event_release(engine, done));
        ASSERT_IMEX(imex_l0_memory_destroy(m));
        for (auto s : streams)
            ASSERT_IMEX(imex_l0_stream_destroy(s));
        ASSERT_IMEX(imex_l0_engine_destroy(engine));
    };
    // Warm up: first-use costs (loader, driver, PoCL, allocator arenas) are
    // not what this test measures.
    for (int i = 0; i < 20; ++i)
        ASSERT_NO_FATAL_FAILURE(cycle());
    size_t before = rssBytes();
    for (size_t i = 0; i < cycles; ++i)
        ASSERT_NO_FATAL_FAILURE(cycle()) << "cycle " << i;
    size_t after = rssBytes();
    std::printf("[ stress ] engine+stream churn, %zu cycles: RSS %.1f MiB before, %.1f MiB after "
                "(%+.1f MiB)\n",
                cycles, mib(before), mib(after), mib(after) - mib(before));
    expectStableRss(before, after);
}

// Streams come and go on one long-lived engine, each returning an event: the
// engine's event pool must hand out the same few events again and again (a
// pool per launch, or events never recycled, shows as more distinct handles
// than one pool chunk holds).
TEST(Stress, StreamChurnReusesTheEnginesEvents) {
    const size_t cycles = scaled(10000);
    imex_l0_engine_t engine = nullptr;
    ASSERT_IMEX(imex_l0_engine_create(&engine, 0));
    imex_l0_memory_t m = nullptr;
    ASSERT_IMEX(imex_l0_interop_memory_create(&m, engine, imex_l0_memory_kind_shared, 256,
                                              IMEX_L0_MEMORY_ALLOCATE));
    int *p = hostView(m);
    std::set<ze_event_handle_t> distinct;
    size_t before = 0;
    for (size_t i = 0; i < cycles; ++i) {
        if (i == 20)
            before = rssBytes();
        imex_l0_stream_t s = nullptr;
        ASSERT_IMEX(imex_l0_stream_create(&s, engine));
        int pattern = int(i);
        ze_event_handle_t done = nullptr;
        ASSERT_IMEX(imex_l0_interop_memset(s, p, &pattern, sizeof pattern, 256, 0, nullptr, &done));
        ASSERT_IMEX(imex_l0_stream_wait(s));
        ASSERT_EQ(p[10], int(i));
        distinct.insert(done);
        ASSERT_IMEX(imex_l0_event_release(engine, done));
        ASSERT_IMEX(imex_l0_stream_destroy(s));
    }
    size_t after = rssBytes();
    std::printf("[ stress ] stream churn on one engine, %zu cycles: %zu distinct events, RSS %.1f "
                "MiB before, %.1f MiB after (%+.1f MiB)\n",
                cycles, distinct.size(), mib(before), mib(after), mib(after) - mib(before));
    // One event is out at a time (plus the wait's barrier event), so a chunk
    // of the pool (64 by default) is far more than recycling ever needs.
    EXPECT_LE(distinct.size(), 64u);
    expectStableRss(before, after);
    EXPECT_IMEX(imex_l0_memory_destroy(m));
    EXPECT_IMEX(imex_l0_engine_destroy(engine));
}

} // namespace
