// EntryAllocasFirstPass (legalize_passes.hpp).
#include "legalize_passes.hpp"

#include <llvm/IR/Constant.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <vector>

namespace imex_l0::compiler {

llvm::PreservedAnalyses EntryAllocasFirstPass::run(llvm::Function &function,
                                                   llvm::FunctionAnalysisManager &) {
    if (function.isDeclaration())
        return llvm::PreservedAnalyses::all();
    llvm::BasicBlock &entry = function.getEntryBlock();
    // The first instruction that is not an alloca; allocas after it move before it.
    auto firstOther = entry.begin();
    while (firstOther != entry.end() && llvm::isa<llvm::AllocaInst>(*firstOther))
        ++firstOther;
    std::vector<llvm::AllocaInst *> late;
    for (auto it = firstOther; it != entry.end(); ++it)
        if (auto *alloca = llvm::dyn_cast<llvm::AllocaInst>(&*it);
            alloca && llvm::isa<llvm::Constant>(alloca->getArraySize()))
            late.push_back(alloca);
    if (late.empty())
        return llvm::PreservedAnalyses::all();
    for (llvm::AllocaInst *alloca : late)
        alloca->moveBefore(&*firstOther);
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

} // namespace imex_l0::compiler
