// Optimisation and legalisation between clang's llvm::Module and
// LLVMSPIRVLib 15's writeSpirv, plus SPIR-V validation with SPIRV-Tools.
// Translator 15 mistranslates or rejects some IR that clang 15 emits at -O1/-O2
// (freeze, blocks laid out before their dominator, odd integer widths); these
// steps remove those shapes without changing what the program computes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace llvm {
class Module;
}

namespace imex_l0::compiler {

// Runs the optimisation pipeline for optLevel (0..3; clang emitted the module
// with its LLVM passes disabled) and then the legalisation passes. Returns ""
// on success, otherwise a message naming the function and the reason.
// *retryUnoptimized is set when that reason is an integer width the legaliser
// cannot rewrite and optimisation was on: clang never emits such a width for
// OpenCL C, so the optimiser made it, and the same source compiled at -O0 may
// succeed. The caller compiles again for that (the module is not copied
// before optimisation to restart from: copying every module costs more than
// compiling again in that rare case).
std::string optimizeAndLegalize(llvm::Module &module, unsigned optLevel,
                                bool *retryUnoptimized = nullptr);

// SPIRV-Tools validation of a SPIR-V binary for the given version
// (0x00010200 = 1.2; 0 also means 1.2, as in compiler_api.h). Returns "" when
// valid, otherwise the validator's message.
std::string validateSpirv(const void *data, size_t size, uint32_t spirvVersion);

} // namespace imex_l0::compiler
