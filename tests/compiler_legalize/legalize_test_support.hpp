// Helpers of the legalisation tests: OpenCL C -> LLVM module through clang-15
// as a subprocess (the unit under test starts at the llvm::Module), the
// translator, and a minimal Level Zero runner for host-checked results.
#pragma once

#include <level_zero/ze_api.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace legalize_test {

// clang -cc1 for spir64 at -O<optLevel>. With `clangPasses` clang runs its own
// optimisation pipeline (the naive pipeline); without, it emits the module
// with -disable-llvm-passes, as the library's compiler does. Null on failure,
// with clang's messages in *log.
std::unique_ptr<llvm::Module> compileOpenCL(llvm::LLVMContext &context, const std::string &source,
                                            unsigned optLevel, bool clangPasses, std::string *log);

// LLVM IR text -> module; null (and the parser's message in *log) on failure.
std::unique_ptr<llvm::Module> parseIR(llvm::LLVMContext &context, const std::string &text,
                                      std::string *log);

// writeSpirv with SPIR-V 1.2 as the newest allowed version. False and the
// translator's message in *error on failure.
bool translate(llvm::Module &module, std::vector<uint32_t> *spirv, std::string *error);

// Runs `work` in a forked child process and returns what it returned, or,
// when the child dies (translator 15 calls exit() on its errors), a line
// "child exited with N" followed by what the child wrote to stderr.
std::string inChildProcess(const std::function<std::string()> &work);

// How many instructions with this opcode name ("freeze", "switch") the module has.
unsigned countInstructions(const llvm::Module &module, const std::string &opcodeName);

// One device of the project's Level Zero driver, or a reason why there is none.
class Device {
public:
    Device();
    ~Device();
    Device(const Device &) = delete;
    Device &operator=(const Device &) = delete;

    // "" when the device can run kernels.
    const std::string &unavailable() const { return unavailable_; }

    // Runs kernel(in, out, n) over `globalSize` work-items (groups of 1) and
    // returns out, which starts as `outInitial`. Empty on failure, with *error
    // saying what failed (the module build log included).
    std::vector<int32_t> run(const std::vector<uint32_t> &spirv, const char *kernelName,
                             const std::vector<int32_t> &in, const std::vector<int32_t> &outInitial,
                             int32_t n, uint32_t globalSize, std::string *error);

private:
    std::string unavailable_;
    ze_driver_handle_t driver_ = nullptr;
    ze_device_handle_t device_ = nullptr;
    ze_context_handle_t context_ = nullptr;
    ze_command_queue_handle_t queue_ = nullptr;
};

// Deterministic test input: mixed signs and magnitudes, a few zeros.
std::vector<int32_t> testInput(size_t count, uint32_t seed);

} // namespace legalize_test
