// DominatorBlockOrderPass: translator 15 writes basic blocks in the order of
// the IR, and SPIR-V requires every block to appear after its dominator (and a
// definition before its uses outside phis). The optimiser is free to leave a
// block before its dominator (e.g. after loop rotation or jump threading), so
// the translated module fails validation. Reverse post-order from the entry
// block puts every block after all of its dominators; layout order has no
// meaning in LLVM IR, so moving blocks changes nothing else.
#include "legalize_passes.hpp"

#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/Transforms/Utils/Local.h>

#include <vector>

namespace imex_l0::compiler {

bool DominatorBlockOrderPass::orderBlocks(llvm::Function &function) {
    if (function.isDeclaration())
        return false;
    // Unreachable blocks have no dominator, so there is no valid place for them
    // (and they can use values in ways only legal because they never run).
    bool changed = llvm::removeUnreachableBlocks(function);

    llvm::ReversePostOrderTraversal<llvm::Function *> order(&function);
    llvm::BasicBlock *previous = nullptr;
    for (llvm::BasicBlock *block : order) {
        if (previous && block->getPrevNode() != previous) {
            block->moveAfter(previous);
            changed = true;
        }
        previous = block;
    }
    return changed;
}

llvm::PreservedAnalyses DominatorBlockOrderPass::run(llvm::Function &function,
                                                     llvm::FunctionAnalysisManager &) {
    if (!orderBlocks(function))
        return llvm::PreservedAnalyses::all();
    // Removing unreachable blocks changes the CFG; only moving them would not.
    return llvm::PreservedAnalyses::none();
}

} // namespace imex_l0::compiler
