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

// A translated module in a context of its own (destroyed after the module).
struct SpirvModule {
    std::unique_ptr<llvm::LLVMContext> context;
    std::unique_ptr<llvm::Module> module;
    std::vector<KernelInfo> kernels; // every kernel, in module order
};

// What every device compiler starts from: header checks, SPIRV-Tools
// validation, the translator (SPIR-V -> LLVM IR with OpenCL 1.2 builtin
// calls and SPIR address spaces, typed or opaque pointers as asked), the
// verifier, and the refusal of recursion. Returns like translateSpirv.
ze_result_t readSpirvModule(const uint8_t *spirv, size_t size,
                            const std::vector<SpecConstant> &specConstants, bool opaquePointers,
                            SpirvModule *out, std::string *log);

// Header checks, SPIRV-Tools validation, then the translator. Returns
// ZE_RESULT_SUCCESS, ZE_RESULT_ERROR_INVALID_ARGUMENT (not SPIR-V) or
// ZE_RESULT_ERROR_MODULE_BUILD_FAILURE (invalid or untranslatable SPIR-V),
// with the validator's or translator's message appended to `log`.
// A crash inside the translator (a signal on the calling thread) is contained:
// the result is ZE_RESULT_ERROR_MODULE_BUILD_FAILURE with a log that says so,
// and the process goes on. Thread-safe.
ze_result_t translateSpirv(const uint8_t *spirv, size_t size,
                           const std::vector<SpecConstant> &specConstants, TranslatedModule *out,
                           std::string *log);

} // namespace detail
} // namespace ze_driver
