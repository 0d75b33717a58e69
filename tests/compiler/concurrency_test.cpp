// Many threads compiling at once: distinct sources in parallel, identical
// sources built once and shared.
#include "compiler_test_util.hpp"

#include <thread>

using namespace imex_l0_test;

TEST(Concurrency, SixteenThreadsDistinctAndIdentical) {
    constexpr int kThreads = 16;
    std::string shared = "kernel void shared_" + unique("k") +
                         "(global float *o) { o[get_global_id(0)] = sqrt((float)get_global_id(0)); }";
    std::vector<std::string> sources(kThreads);
    for (int t = 0; t < kThreads; ++t) {
        if (t % 2 == 0)
            sources[t] = shared;
        else
            sources[t] = "kernel void distinct_" + unique("k") + "(global int *o, local int *l) {"
                         " l[get_local_id(0)] = " + std::to_string(t) + ";"
                         " barrier(CLK_LOCAL_MEM_FENCE); atomic_add(&o[0], l[0]); }";
    }
    imex_l0_cache_stats_t before = stats();
    std::vector<Build> builds(kThreads);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] { builds[t] = compile(sources[t], t % 4 == 1 ? "-O0" : ""); });
    for (auto &th : threads)
        th.join();
    for (int t = 0; t < kThreads; ++t) {
        ASSERT_EQ(builds[t].status, imex_l0_success) << t << builds[t].log;
        EXPECT_EQ(spirvVal(builds[t].spirv), "") << t;
        if (t % 2 == 0)
            EXPECT_EQ(builds[t].spirv, builds[0].spirv) << t;
    }
    imex_l0_cache_stats_t after = stats();
    // 8 distinct + 1 shared source: 9 builds; the 7 other shared requests
    // waited for the one in flight or hit the cache.
    EXPECT_EQ(after.memory_misses - before.memory_misses, 9u);
    EXPECT_EQ(after.memory_hits - before.memory_hits, 7u);
}

TEST(Concurrency, RegistrationDuringCompiles) {
    std::string name = unique("racy") + ".h";
    char *error = nullptr;
    ASSERT_EQ(api().register_header(name.c_str(), "#define V 0\n", &error), imex_l0_success);
    std::string src = "#include \"" + name + "\"\nkernel void k(global int *o) { o[0] = V; }";
    std::thread writer([&] {
        for (int i = 1; i < 50; ++i) {
            std::string body = "#define V " + std::to_string(i) + "\n";
            api().register_header(name.c_str(), body.c_str(), nullptr);
        }
    });
    std::vector<std::thread> readers;
    std::atomic<int> failures{0};
    for (int t = 0; t < 4; ++t)
        readers.emplace_back([&] {
            for (int i = 0; i < 5; ++i)
                failures += compile(src).status != imex_l0_success;
        });
    writer.join();
    for (auto &r : readers)
        r.join();
    EXPECT_EQ(failures.load(), 0);
}
