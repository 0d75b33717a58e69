// The arguments of OpenCL C's atomics, fences and barriers that order memory:
// the memory_order and memory_scope of atomic_*_explicit,
// atomic_work_item_fence, work_group_barrier and sub_group_barrier, and the
// cl_mem_fence_flags of those fences and barriers and of barrier and
// mem_fence. The SPIR-V translator (LLVMSPIRVLib 15) maps a constant order or
// scope through tables and asserts on a value outside them
// (`(memory_order)9`); for an order or scope known only at run time it writes
// a helper function with a linkage type that is not SPIR-V (spirv-val refuses
// the module), and fence flags known only at run time make it assert.
// Helpers that pass their parameter on as such an argument are therefore
// inlined, and what still is not a valid constant is a compile error.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace imex_l0::compiler {

// Marks every function that passes one of its parameters (directly, or
// through another such function) to such an argument always-inline, so that
// a caller's constant reaches the builtin at every optimisation level (-O0's
// pipeline runs the always-inliner too). Run before the optimisation pipeline.
void inlineMemoryOrderingHelpers(llvm::Module &module);

// Makes every such argument that is a constant held in local variables
// (-O0) the constant itself, and returns "kernel.cl: error: ..." lines for
// every one that is not a constant the translator takes ("" if none). Run on
// the module as it goes to the translator.
std::string settleMemoryOrdering(llvm::Module &module);

} // namespace imex_l0::compiler
