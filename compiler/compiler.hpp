// One build: OpenCL C source -> SPIR-V, by one of two back ends (in-process
// clang/LLVM/LLVMSPIRVLib, or the clang-15 | llvm-spirv-15 subprocesses).
// No caching here; see service.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "build_options.hpp"
#include "header_registry.hpp"

namespace imex_l0::compiler {

// The name of the main file in diagnostics ("kernel.cl:3:5: error: ...").
constexpr const char *kMainFileName = "kernel.cl";
// The virtual directory that holds the main file and the registry's headers.
constexpr const char *kVirtualDir = "/imex_l0_virtual";

struct CompileRequest {
    std::string_view source;
    const BuildOptions *options = nullptr;
    std::shared_ptr<const HeaderRegistry::Snapshot> headers;
    uint32_t spirvVersion = 0x00010200;
};

struct CompileResult {
    bool ok = false;
    std::string spirv; // the module's bytes
    std::string log;   // diagnostics; warnings on success
    // The same inputs give the same result again, so it may be cached: true
    // for every success and for a compile error in the source; false for a
    // contained crash, an out-of-memory or a subprocess that failed to run.
    bool reproducible = true;
};

// A crash (a signal) inside clang, LLVM or the translator is contained: the
// result is a compile error naming the stage, the objects of that compile
// are kept (reachable) for the process's life, not destroyed, and
// inProcessTrusted() is false from then on.
CompileResult compileInProcess(const CompileRequest &request);
// False once an in-process compile crashed: later compiles should not run
// in this process's (possibly corrupted) compiler state.
bool inProcessTrusted();

// The source after preprocessing (clang -E with the same options, headers and
// file system), or nullopt if preprocessing fails. Keys builds that read user
// -I directories, and is the dump's processed source.
std::optional<std::string> preprocessInProcess(const CompileRequest &request);
CompileResult compileSubprocess(const CompileRequest &request);

// "clang 15.0.6; LLVMSPIRVLib 15.0.0; imex_l0 0.1.0"
const char *identity();

} // namespace imex_l0::compiler
