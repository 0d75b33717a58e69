// Every builtin the OpenCL C builtin header declares, one kernel each
// (builtin_kernels.py generates them from clang's opencl-c.h at build time),
// built through the engine onto the driver: each one builds, or fails with
// imex_l0_compile_error and a message that names the builtin (or the half
// type the device lacks). None may end the process, and none may reach an
// "internal compiler error" (a translator crash the compiler contained but
// did not screen out), and every builtin the compiler accepts must link on
// the driver: the known gaps of its kernel library are listed (none now), so
// a regression in its coverage, or a gap closed, shows here.
#include "interop_fixtures.hpp"

#include <fstream>
#include <map>
#include <set>

using namespace interop_test;

namespace {

struct Outcome {
    imex_l0_status_t status;
    std::string message;
};

bool isLinkFailure(const std::string &message) {
    return message.find("zeModuleCreate") != std::string::npos;
}

// None: the driver defines what PoCL's kernel library lacks (the work-group
// collectives, the bitfield operations, ...).
const std::set<std::string> kKnownLinkGaps = {};

class BuiltinDeclarations : public WithEngine {};

TEST_F(BuiltinDeclarations, EachBuildsOrIsRefusedByName) {
    std::ifstream in(BUILTIN_KERNELS_TSV);
    ASSERT_TRUE(in) << "cannot read " << BUILTIN_KERNELS_TSV;
    std::map<std::string, Outcome> outcomes;
    std::string line;
    while (std::getline(in, line)) {
        size_t tab = line.find('\t');
        ASSERT_NE(tab, std::string::npos) << line;
        std::string name = line.substr(0, tab);
        std::string kernelName = "k_" + name;
        imex_l0_kernel_t kernel = nullptr;
        imex_l0_status_t s = imex_l0_kernel_create_from_source(
            &kernel, engine.get(), line.c_str() + tab + 1, kernelName.c_str(), "-cl-std=CL3.0",
            0, nullptr);
        outcomes[name] = {s, s == imex_l0_success ? "" : imex_l0_last_error_message()};
        if (kernel)
            imex_l0_kernel_destroy(kernel);
    }
    // clang 15's header declares about a thousand names in the generator's reach.
    ASSERT_GT(outcomes.size(), 900u);

    size_t built = 0;
    std::set<std::string> linkFailures;
    for (const auto &[name, outcome] : outcomes) {
        if (outcome.status == imex_l0_success) {
            ++built;
            continue;
        }
        EXPECT_EQ(outcome.status, imex_l0_compile_error)
            << name << ": " << imex_l0_status_str(outcome.status) << "\n"
            << outcome.message;
        EXPECT_EQ(outcome.message.find("internal compiler error"), std::string::npos)
            << name << ":\n" << outcome.message;
        const bool named = outcome.message.find(name) != std::string::npos ||
                           outcome.message.find("half") != std::string::npos;
        EXPECT_TRUE(named) << name << ": the message names neither the builtin nor half:\n"
                           << outcome.message;
        if (isLinkFailure(outcome.message))
            linkFailures.insert(name);
    }
    EXPECT_EQ(linkFailures, kKnownLinkGaps);
    std::printf("%zu builtins: %zu build, %zu refused at compile time, %zu fail to link\n",
                outcomes.size(), built, outcomes.size() - built - linkFailures.size(),
                linkFailures.size());
}

} // namespace
