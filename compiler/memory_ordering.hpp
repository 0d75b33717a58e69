// The memory_order and memory_scope arguments of OpenCL C 2.0's atomics,
// fences and barriers (atomic_*_explicit, atomic_work_item_fence,
// work_group_barrier, sub_group_barrier). The SPIR-V translator (LLVMSPIRVLib
// 15) maps a constant one through tables and asserts on a value outside them
// (`(memory_order)9`); for one known only at run time it writes a helper
// function with a linkage type that is not SPIR-V, so spirv-val refuses the
// module. Helpers that pass their parameter on as such an argument are
// therefore inlined, and what still is not a valid constant is a compile error.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace imex_l0::compiler {

// Marks every function that passes one of its parameters (directly, or
// through another such function) to a memory order or scope argument
// always-inline, so that at every optimisation level above 0 a caller's
// constant reaches the builtin. Run before the optimisation pipeline.
void inlineMemoryOrderingHelpers(llvm::Module &module);

// Makes every memory order or scope argument that is a constant held in
// local variables (-O0) the constant itself, and returns "kernel.cl:
// error: ..." lines for every one that is not a constant of OpenCL C's
// enumerations ("" if none). Run on the module as it goes to the translator.
std::string settleMemoryOrdering(llvm::Module &module);

} // namespace imex_l0::compiler
