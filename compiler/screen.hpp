// Constructs the SPIR-V translator (LLVMSPIRVLib 15) cannot take without
// ending the process: inline assembly crashes it, and integer dot products
// make it exit() for want of SPV_KHR_integer_dot_product. Screened on the
// module clang produced, so they become compile errors.
#pragma once

#include <string>

namespace clang {
class SourceManager;
}
namespace llvm {
class Module;
}

namespace imex_l0::compiler {

// "kernel.cl:3:5: error: ..." lines for every such construct; empty if none.
std::string screenForTranslator(const llvm::Module &module, const clang::SourceManager &sources);

// Zero-length arrays (a GNU extension clang accepts: `float f[0]`, a flexible
// struct member `data[0]`) make the translator exit() ("InvalidArraySize"):
// SPIR-V arrays have at least one element. Checked on the module as it goes
// to the translator (optimisation may remove some); "error: ..." lines, or "".
std::string zeroLengthArrays(const llvm::Module &module);

} // namespace imex_l0::compiler
