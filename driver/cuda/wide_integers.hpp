// Arithmetic on 8- and 16-bit integers computed in 32-bit registers, as
// NVIDIA's compilers compute it. LLVM's NVPTX backend has 16-bit registers
// and keeps `short`/`char` arithmetic in them (`mul.lo.s16`, `add.s16`; `char`
// is widened only to 16 bits); ptxas has no 16-bit multiply-add and turns
// each pair into two or three SASS instructions where a 32-bit `mad.lo.s32`
// is one IMAD. clpeak's chains of `short8`/`char16` multiply-adds ran 1.09x
// to 1.14x the time of NVIDIA's OpenCL build of them, whose frontend
// promotes such arithmetic to `int` and keeps it there.
//
// The low n bits of an add, subtract, multiply, and/or/xor or left shift
// depend only on the low n bits of its operands, so such a chain computes
// the same low bits in 32 bits. The pass, run at the end of the optimisation
// pipeline (after the last InstCombine, which would narrow them again),
// rebuilds every such 8- or 16-bit operation (scalar or vector) in 32 bits
// from the 32-bit forms of its operands, and truncates where a value leaves
// the chain (a store, a comparison, a division, a right shift, a call). An
// operand from outside the chain is zero-extended once where it is defined,
// or taken whole where it is itself a truncation of a 32-bit value. Wrap
// flags are dropped: the wide operation may exceed the narrow range.
#pragma once

#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

namespace ze_cuda {

struct WideIntegerPass : llvm::PassInfoMixin<WideIntegerPass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

// Registers WideIntegerPass at the end of the optimisation pipeline
// (PassBuilder's optimizer-last point) on `builder`, before the pipeline is
// built.
void addWideIntegers(llvm::PassBuilder &builder);

} // namespace ze_cuda
