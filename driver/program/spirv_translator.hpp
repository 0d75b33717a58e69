// SPIR-V in: LLVM IR for any device compiler (readSpirvModule), or SPIR 1.2
// bitcode plus kernel metadata for PoCL (translateSpirv).
#pragma once

#include "program_builder.hpp"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <memory>
#include <string>
#include <vector>

namespace ze_driver {
namespace detail {

struct TranslatedModule {
    std::vector<uint8_t> bitcode;    // SPIR 1.2 (typed pointers), for clCreateProgramWithBinary
    std::vector<KernelInfo> kernels; // every kernel, in module order
};

// Header checks only (size, alignment of the size, magic). Returns
// ZE_RESULT_ERROR_INVALID_ARGUMENT with a reason in `log` when the bytes are
// not SPIR-V at all.
ze_result_t checkSpirvHeader(const uint8_t *spirv, size_t size, std::string *log);
// The same for each module of a program; the log names the module.
ze_result_t checkSpirvHeaders(const SpirvProgram &program, std::string *log);

// A translated module in a context of its own (destroyed after the module).
struct SpirvModule {
    std::unique_ptr<llvm::LLVMContext> context;
    std::unique_ptr<llvm::Module> module;
    std::vector<KernelInfo> kernels; // every kernel, in module order
};

// What every device compiler starts from: for each module of the program,
// header checks, SPIRV-Tools validation, the translator (SPIR-V -> LLVM IR
// with OpenCL 1.2 builtin calls and SPIR address spaces, typed or opaque
// pointers as asked) and the verifier; then the modules linked
// (spirv_linker.hpp) and the refusal of recursion. Returns like
// translateSpirv; in a program of several modules, each message of the log
// names its module.
ze_result_t readSpirvModule(const SpirvProgram &program, bool opaquePointers, SpirvModule *out,
                            std::string *log);

// Header checks, SPIRV-Tools validation, then the translator. Returns
// ZE_RESULT_SUCCESS, ZE_RESULT_ERROR_INVALID_ARGUMENT (not SPIR-V) or
// ZE_RESULT_ERROR_MODULE_BUILD_FAILURE (invalid or untranslatable SPIR-V),
// with the validator's or translator's message appended to `log`; a kernel
// whose name is not made of letters, digits and '_' is refused (PoCL cannot
// link it). A crash inside the translator (a signal on the calling thread) is contained:
// the result is ZE_RESULT_ERROR_MODULE_BUILD_FAILURE with a log that says so,
// and the process goes on. Thread-safe.
ze_result_t translateSpirv(const SpirvProgram &program, TranslatedModule *out, std::string *log);

} // namespace detail
} // namespace ze_driver
