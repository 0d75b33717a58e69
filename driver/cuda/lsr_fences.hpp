// Loop values hidden from loop strength reduction (LSR), which LLVM's code
// generator runs on the IR just before instruction selection.
//
// LSR rewrites every use of a loop's recurrences (its counter and what
// ScalarEvolution derives from it) as a formula over induction variables of
// its own choosing. On addresses and exit tests that is its purpose. Two
// kinds of use it makes worse on NVPTX, and NVIDIA's OpenCL compiler leaves
// as written:
//
// - A mix: a value that adds a recurrence to something that changes along
//   the loop without being one (`a = a * b + k` with k the counter). LSR
//   distributes the mix over the chain after it and keeps a register and an
//   add per term: `mad24(a, b, k); mul24(b, a) + a` unrolled four times
//   became 121 PTX instructions with 12 extra induction variables, 52
//   without them.
// - A mask: `x & (2^n - 1)` and `(x << c) >> c` (arithmetic) are
//   zext/sext(trunc(x) to iN) to ScalarEvolution; where x changes along the
//   loop, LSR builds the truncated recurrence in N bits (i2, i11, i23), which
//   the NVPTX backend legalises to 16-bit registers (`add.s16`, `mul.lo.s16`
//   and conversions back: no multiply-add for ptxas to make of them).
//   libclc's `mul24`/`mad24` mask their operands: a chain of them was 209
//   PTX instructions where NVIDIA's OpenCL makes 81, and ran 1.78x its time.
//
// The pass, run at the end of the optimisation pipeline, puts a `freeze`
// after each mix where a recurrence enters it (every use then reads the
// frozen value) and before each mask's operand. A frozen value is opaque to
// ScalarEvolution, so LSR leaves what follows as it is, and the code
// generator emits no instruction for a `freeze` (the two chains above: 52
// and 72 instructions). Addresses and exit tests built from recurrences
// alone are not touched.
#pragma once

#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

namespace ze_cuda {

struct LsrFencePass : llvm::PassInfoMixin<LsrFencePass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

// Registers LsrFencePass at the end of the optimisation pipeline
// (PassBuilder's optimizer-last point) on `builder`, before the pipeline is
// built; after addWideIntegers there, so that its 32-bit chains are seen.
void addLsrFences(llvm::PassBuilder &builder);

} // namespace ze_cuda
