// Constructs the SPIR-V translator (LLVMSPIRVLib 15) cannot take without
// ending the process: inline assembly crashes it, integer dot products and
// sub-group rotates make it exit() for want of SPV_KHR_integer_dot_product
// and SPV_KHR_subgroup_rotate, and the other cl_khr_subgroup_*
// extension builtins (GroupNonUniform instructions, SPIR-V 1.3) make it
// abort when the target is SPIR-V 1.2. Device-side enqueue and pipes
// translate (or make it assert), but no driver of this library runs them. A
// sampler_t constant that is no sampler translates into SPIR-V that fails
// validation with a raw operand number.
// Screened on the module clang
// produced, so they become compile errors.
#pragma once

#include <cstdint>
#include <string>

namespace clang {
class SourceManager;
}
namespace llvm {
class Module;
}

namespace imex_l0::compiler {

// "kernel.cl:3:5: error: ..." lines for every such construct; empty if none.
// spirvVersion is the target's (0x00010200 is SPIR-V 1.2).
std::string screenForTranslator(const llvm::Module &module, const clang::SourceManager &sources,
                                uint32_t spirvVersion);

// Zero-length arrays (a GNU extension clang accepts: `float f[0]`, a flexible
// struct member `data[0]`) make the translator exit() ("InvalidArraySize"):
// SPIR-V arrays have at least one element. Checked on the module as it goes
// to the translator (optimisation may remove some); "error: ..." lines, or "".
std::string zeroLengthArrays(const llvm::Module &module);

} // namespace imex_l0::compiler
