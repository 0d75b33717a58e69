// Helpers shared by the compiler's tests: the compiler's C boundary, a
// compile() that returns owned results, an independent spirv-val check, and
// re-running this test binary as a child process (fresh caches, other
// environment) for the cross-process and corruption tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler_api.h"

namespace imex_l0_test {

inline const imex_l0_compiler_api_t &api() {
    static const imex_l0_compiler_api_t *a = imex_l0_compiler_api(IMEX_L0_COMPILER_API_VERSION);
    return *a;
}

struct Build {
    imex_l0_status_t status = imex_l0_runtime_error;
    std::string spirv;
    std::string log;
};

inline Build compile(const std::string &source, const char *options = "",
                     std::vector<imex_l0_define_t> defines = {}, uint32_t version = 0) {
    Build b;
    void *spirv = nullptr;
    size_t size = 0;
    char *log = nullptr;
    b.status = api().compile(source.data(), source.size(), options, defines.size(),
                             defines.data(), version, &spirv, &size, &log);
    if (spirv)
        b.spirv.assign(static_cast<const char *>(spirv), size);
    if (log)
        b.log = log;
    std::free(spirv);
    std::free(log);
    return b;
}

inline imex_l0_cache_stats_t stats() {
    imex_l0_cache_stats_t s{};
    api().get_cache_stats(&s);
    return s;
}

inline bool subprocessMode() {
    const char *mode = std::getenv("IMEX_L0_COMPILER");
    return mode && std::string(mode) == "subprocess";
}

// A name no other test uses, so a compile is a cache miss in this process.
std::string unique(const std::string &tag);

// Runs the spirv-val executable (the SPIRV-Tools CLI, independent of the
// compiler's in-process validation) on a module. Returns "" when valid.
std::string spirvVal(const std::string &spirv, const char *env = "spv1.2");

// Runs this test binary with --gtest_filter=filter and extra "NAME=value"
// environment entries; returns its exit status.
int runSelf(const std::string &filter, const std::vector<std::string> &env);

// A temporary directory removed at destruction.
struct TempDir {
    TempDir();
    ~TempDir();
    std::string path;
};

std::string readFile(const std::string &path);
void writeFile(const std::string &path, const std::string &bytes);

} // namespace imex_l0_test
