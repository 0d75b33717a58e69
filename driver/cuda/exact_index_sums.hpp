// Index sums of a loop's counter made 64-bit before LLVM's reassociation
// loses what the source said about them, so that the loop's addresses step.
#pragma once

#include <llvm/IR/PassManager.h>

namespace llvm {
class PassBuilder;
}

namespace ze_cuda {

// OpenCL C indexes with `int`s: in[i + j * width] with i = x + r + u, u a
// loop's counter, is the sign extension of a 32-bit sum whose adds carry
// no-signed-wrap flags (signed overflow is undefined). Where the sum is no
// poison, every partial sum was exact, so sext(sum) is the 64-bit sum of
// its terms' extensions: an address that steps by a constant with u. LLVM's
// reassociation reorders a sum of three terms or more, (x + r + j * width) +
// u, whose partial sum the source never computed, and drops the flags;
// scalar evolution then sees sext(wrapping i32 + u) and each address is
// computed from the image's base (add.s32, mul.wide.s32, add.s64 a load).
// GEGL's bilateral filter, whose inner loop reads four pixels a trip that
// way, took 1.06x NVIDIA's OpenCL's time under fast math; NVIDIA's reads
// them at constant offsets from one address that steps by 64 bytes.
//
// Right before the reassociation, in a loop, the sign extension of such a
// sum (no-signed-wrap throughout, three terms or more, used for addresses,
// its poison undefined behaviour every time it is computed) whose terms
// are each the same in every trip or a counter of the loop (a header phi
// stepping by a constant without signed wrap) that makes no other index of
// the loop (LLVM steps that one with the 32-bit counter, which a 64-bit
// twin would take over and truncate) becomes the 64-bit sum of the
// terms, outer loops' terms first; each counter gets a 64-bit twin, which
// also replaces the counter's other extensions in the loop (one counter,
// not a 32-bit one truncated from the 64-bit one). Sums of two terms are
// left to LLVM, which steps them itself (as 64-bit sums they cost
// instructions: measured over public projects' kernels), as are sums with
// a term that changes otherwise (each trip would extend it anew).
struct ExactIndexSumsPass : llvm::PassInfoMixin<ExactIndexSumsPass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

// Registers ExactIndexSumsPass at the -O3 pipeline's peephole point right
// before the function simplification's reassociation.
void addExactIndexSums(llvm::PassBuilder &builder);

} // namespace ze_cuda
