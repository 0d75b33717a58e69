// DuplicateEdgeSplitPass: in LLVM, a switch whose cases (or default) lead to
// the same block gives that block one predecessor edge per case, and each phi
// there lists the switching block once per edge. SPIR-V counts parent blocks,
// not edges: an OpPhi must name each parent exactly once. Translator 15 copies
// the LLVM phi as is, and the module fails validation ("OpPhi's number of
// incoming blocks ... does not match block's predecessor count").
//
// For every block B whose terminator reaches a phi-carrying successor S more
// than once, the edges B->S are routed through a new empty block N (B->N
// several times, N->S once). N has no phis, and S's phis name N once with the
// value they had for B (LLVM requires that value to be the same on every
// duplicate edge), so control flow and values are unchanged.
#include "legalize_passes.hpp"

#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/IR/BasicBlock.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <vector>

namespace imex_l0::compiler {

bool DuplicateEdgeSplitPass::splitDuplicateEdges(llvm::Function &function) {
    // Collected first: the loop below adds blocks to the function.
    std::vector<std::pair<llvm::BasicBlock *, llvm::BasicBlock *>> duplicated;
    for (llvm::BasicBlock &block : function) {
        llvm::Instruction *terminator = block.getTerminator();
        if (!terminator)
            continue;
        llvm::SmallPtrSet<llvm::BasicBlock *, 8> seen, reported;
        for (llvm::BasicBlock *successor : llvm::successors(&block))
            if (!seen.insert(successor).second && llvm::isa<llvm::PHINode>(successor->front()) &&
                reported.insert(successor).second)
                duplicated.emplace_back(&block, successor);
    }

    for (auto &[block, successor] : duplicated) {
        llvm::BasicBlock *bridge = llvm::BasicBlock::Create(
            function.getContext(), successor->getName() + ".from." + block->getName(), &function,
            successor);
        llvm::BranchInst::Create(successor, bridge);
        llvm::Instruction *terminator = block->getTerminator();
        for (unsigned index = 0; index < terminator->getNumSuccessors(); ++index)
            if (terminator->getSuccessor(index) == successor)
                terminator->setSuccessor(index, bridge);
        for (llvm::PHINode &phi : successor->phis()) {
            // Keep the first entry for `block`, renamed to the bridge; drop
            // the others (they carry the same value).
            bool kept = false;
            for (unsigned index = phi.getNumIncomingValues(); index-- > 0;) {
                if (phi.getIncomingBlock(index) != block)
                    continue;
                if (kept) {
                    phi.removeIncomingValue(index, /*DeletePHIIfEmpty=*/false);
                } else {
                    phi.setIncomingBlock(index, bridge);
                    kept = true;
                }
            }
        }
    }
    return !duplicated.empty();
}

llvm::PreservedAnalyses DuplicateEdgeSplitPass::run(llvm::Function &function,
                                                    llvm::FunctionAnalysisManager &) {
    return splitDuplicateEdges(function) ? llvm::PreservedAnalyses::none()
                                         : llvm::PreservedAnalyses::all();
}

} // namespace imex_l0::compiler
