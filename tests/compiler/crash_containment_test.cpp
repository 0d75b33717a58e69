// The compiler's rare paths, each reached through IMEX_L0_COMPILER_FAULT in a
// process of its own (one ctest entry per mode; a test of another mode skips):
//  - crash-translator: a SIGSEGV raised inside the SPIR-V translation of the
//    first compile is contained; abort-translator: the same with abort(), as
//    a failed assertion of the translator raises;
//  - optimizer-width: an optimised compile that meets an integer width the
//    legaliser cannot rewrite is compiled again at -O0;
//  - IMEX_L0_COMPILER_STACK_BYTES small: a compile that exhausts its stack is
//    contained like a crash.
#include "compiler_test_util.hpp"

#include <cstdlib>
#include <string>

using namespace imex_l0_test;

namespace {

const char *kSource = "kernel void k(global int *p) { p[get_global_id(0)] += 1; }\n";

bool faultIs(const char *mode) {
    const char *fault = std::getenv("IMEX_L0_COMPILER_FAULT");
    return fault != nullptr && std::string(fault) == mode;
}

TEST(CrashContainment, ACrashIsACompileErrorAndLaterCompilesGoToTheSubprocess) {
    if (!faultIs("crash-translator") && !faultIs("abort-translator"))
        GTEST_SKIP() << "runs with IMEX_L0_COMPILER_FAULT=crash-translator or abort-translator";
    Build crashed = compile(kSource);
    EXPECT_EQ(crashed.status, imex_l0_compile_error);
    EXPECT_NE(crashed.log.find("internal compiler error in the SPIR-V translator"),
              std::string::npos)
        << crashed.log;
    // The process is alive; the next compile (another source: the failed one
    // may be cached) runs in the subprocess compiler and says so.
    Build next = compile("kernel void k2(global int *p) { p[get_global_id(0)] += 2; }\n");
    ASSERT_EQ(next.status, imex_l0_success) << next.log;
    EXPECT_NE(next.log.find("ran in the subprocess compiler"), std::string::npos) << next.log;
    EXPECT_EQ(spirvVal(next.spirv), "");
}

// Exhausting the compile thread's stack (a 1 MiB one here; 40,000 terms need
// about 10 MB) is a signal on a stack with no room left: the handler runs on
// the thread's alternate stack, and the compile is an error.
TEST(CrashContainment, StackExhaustionIsACompileError) {
    const char *stack = std::getenv("IMEX_L0_COMPILER_STACK_BYTES");
    if (!stack || std::strtoull(stack, nullptr, 0) > (4u << 20))
        GTEST_SKIP() << "runs with IMEX_L0_COMPILER_STACK_BYTES of at most 4 MiB";
    std::string chain = "kernel void k(global int *o) { int a = o[0]; o[1] = a";
    for (int i = 0; i < 40000; ++i)
        chain += " + a";
    chain += "; }\n";
    Build exhausted = compile(chain);
    EXPECT_EQ(exhausted.status, imex_l0_compile_error);
    EXPECT_NE(exhausted.log.find("internal compiler error"), std::string::npos)
        << exhausted.log;
}

// The -O2 compile comes out as the -O0 compile of the same source: what was
// compiled again is the unoptimised module, and it is valid SPIR-V.
TEST(UnoptimisedRetry, AWidthTheOptimiserMadeCompilesTheSourceAgainAtO0) {
    if (!faultIs("optimizer-width"))
        GTEST_SKIP() << "runs with IMEX_L0_COMPILER_FAULT=optimizer-width";
    Build optimised = compile(kSource, "-O2");
    ASSERT_EQ(optimised.status, imex_l0_success) << optimised.log;
    EXPECT_EQ(spirvVal(optimised.spirv), "");
    Build unoptimised = compile(kSource, "-O0");
    ASSERT_EQ(unoptimised.status, imex_l0_success) << unoptimised.log;
    EXPECT_EQ(optimised.spirv, unoptimised.spirv);
}

} // namespace
