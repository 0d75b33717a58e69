// A crash inside the in-process compiler is contained: it runs with
// IMEX_L0_COMPILER_FAULT=crash-translator (a SIGSEGV raised inside the SPIR-V
// translation of the first compile), in a process of its own.
#include "compiler_test_util.hpp"

using namespace imex_l0_test;

namespace {

const char *kSource = "kernel void k(global int *p) { p[get_global_id(0)] += 1; }\n";

TEST(CrashContainment, ACrashIsACompileErrorAndLaterCompilesGoToTheSubprocess) {
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

} // namespace
