// An alias analysis that knows PTX's state spaces are disjoint.
//
// A pointer into global memory never reaches shared (__local) or constant
// memory, and the other way round: PTX addresses each state space apart,
// and only a generic pointer (address space 0) may point into any of them.
// LLVM 15's NVPTX target tells the optimizer none of this (its alias
// analysis came later), so a store to __local memory in a loop that also
// loads global memory stays in the loop: SHOC's reduction kept
// `sdata[tid] += g_idata[i] + g_idata[i + blockSize]` as a shared store per
// iteration, where NVIDIA's OpenCL accumulates in a register and stores once
// after the loop.
//
// Two locations whose pointers (or, for a generic pointer, the objects they
// are derived from) lie in different non-generic address spaces do not
// alias; everything else is left to LLVM's own analyses.
#pragma once

#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/IR/PassManager.h>

namespace llvm {
class PassBuilder;
}

namespace ze_cuda {

class StateSpaceAAResult : public llvm::AAResultBase<StateSpaceAAResult> {
public:
    StateSpaceAAResult() = default;
    llvm::AliasResult alias(const llvm::MemoryLocation &a, const llvm::MemoryLocation &b,
                            llvm::AAQueryInfo &info);
    // Stateless: nothing a change to the function makes stale.
    bool invalidate(llvm::Function &, const llvm::PreservedAnalyses &,
                    llvm::FunctionAnalysisManager::Invalidator &) {
        return false;
    }
};

class StateSpaceAA : public llvm::AnalysisInfoMixin<StateSpaceAA> {
    friend llvm::AnalysisInfoMixin<StateSpaceAA>;
    static llvm::AnalysisKey Key;

public:
    using Result = StateSpaceAAResult;
    Result run(llvm::Function &, llvm::FunctionAnalysisManager &) { return Result(); }
};

// Adds the analysis to the alias analyses `functions` will use, after
// LLVM's default ones (each asked in turn until one is sure). Called before
// `builder` registers its own function analyses, which keep an alias
// analysis manager registered first.
void addStateSpaceAA(llvm::PassBuilder &builder, llvm::FunctionAnalysisManager &functions);

} // namespace ze_cuda
