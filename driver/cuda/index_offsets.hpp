// Array indices that differ by a constant read as one index and constant
// offsets, as NVIDIA's OpenCL compiles them.
#pragma once

#include <llvm/IR/PassManager.h>

namespace llvm {
class PassBuilder;
}

namespace ze_cuda {

// OpenCL C indexes arrays with `int`s: a[i + 1], a[i - 1] and b[i] become
// sign extensions of three 32-bit sums, each multiplied and added to its
// base anew (mul.wide, add.s64) unless the optimizer sees that they differ
// by constants. The sums carry no-signed-wrap flags from the source (signed
// overflow is undefined), which make sext(x + 1) equal sext(x) + 1; but
// LLVM's reassociation drops them when it reorders a sum such as
// (i + 1) + nx * (j + ny * k) into (i + nx * (j + ny * k)) + 1, and without
// them the extensions cannot be split. Parboil's stencil (`block2D_reg_tiling`)
// then computed its six addresses one by one, where NVIDIA's OpenCL
// addresses a[i - 1] and a[i + 1] as [x-4] and [x+4] from the address of
// b[i]: 1.06-1.07x its time on an H200.
//
// In one function: where sign-extended sums in one basic block are the same
// sum of the same values but for a constant, each no-signed-wrap throughout
// (the sum flattened through add/sub nsw), and each known to be no poison
// (the block reaches a use that would be undefined if it were: an address
// it loads or stores through), the later extension becomes the first one
// plus the difference, computed in 64 bits.
struct IndexOffsetsPass : llvm::PassInfoMixin<IndexOffsetsPass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

// Registers IndexOffsetsPass in the -O3 pipeline after each InstCombine
// (the first comes after the inliner, SROA and EarlyCSE, before
// Reassociate), while the flags are there.
void addIndexOffsets(llvm::PassBuilder &builder);

} // namespace ze_cuda
