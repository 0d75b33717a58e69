// Bit selects kept whole through reassociation. `(m & a) | (~m & b)` (each
// bit from a where m has it set, else from b: MD5's F and G, SHA-2's Ch, any
// masked merge) is rewritten as `((a ^ b) & m) ^ b`, one operation fewer.
// In the or form, LLVM's Reassociate turns the `or` of the two disjoint
// halves into an `add` whenever the select feeds an add (MD5: a + F + K + M)
// and spreads the halves over the sum, so no backend sees a select any more:
// NVIDIA's ptxas then spends two logic instructions and an add where one
// three-input logic instruction (LOP3) did it; SHOC's MD5 kernel ran 1.13x
// the time of NVIDIA's OpenCL build of it for that reason alone. The xor
// form is left whole by every pass.
//
// Run right after the first InstCombine, before Reassociate: by the
// compiler on OpenCL C and by the PTX translation on SPIR-V from elsewhere.
#pragma once

#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

namespace imex_l0::compiler {

struct BitSelectPass : llvm::PassInfoMixin<BitSelectPass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

// Registers BitSelectPass after InstCombine (PassBuilder's peephole point)
// on `builder`, before its pipeline is built.
void addBitSelect(llvm::PassBuilder &builder);

} // namespace imex_l0::compiler
