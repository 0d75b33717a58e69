#include "loop_versioning.hpp"

#include "loop_properties.hpp"

#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Scalar/LoopVersioningLICM.h>

namespace ze_cuda {

namespace {

// Whether every iteration of the loop stores to one address the loop does
// not change: a store in a block that dominates the latch. Not a loop that
// calls something convergent (bodySize 0): which version runs is each
// work-item's own, and a barrier or sub-group function must be reached by
// all of them at one call.
bool updatesOneAddressEveryIteration(const llvm::Loop &loop, const llvm::DominatorTree &tree) {
    const llvm::BasicBlock *latch = loop.getLoopLatch();
    if (!latch || !loop.isInnermost())
        return false;
    for (const llvm::BasicBlock *block : loop.blocks()) {
        if (!tree.dominates(block, latch))
            continue;
        for (const llvm::Instruction &instruction : *block) {
            const auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
            if (store && store->isSimple() && loop.isLoopInvariant(store->getPointerOperand()))
                return bodySize(loop) != 0; // walks the whole loop: only for a candidate
        }
    }
    return false;
}

} // namespace

llvm::PreservedAnalyses LoopVersioningPass::run(llvm::Loop &loop,
                                                llvm::LoopAnalysisManager &analyses,
                                                llvm::LoopStandardAnalysisResults &results,
                                                llvm::LPMUpdater &updater) {
    if (!updatesOneAddressEveryIteration(loop, results.DT))
        return llvm::PreservedAnalyses::all();
    return llvm::LoopVersioningLICMPass().run(loop, analyses, results, updater);
}

void addLoopVersioning(llvm::PassBuilder &builder) {
    builder.registerLateLoopOptimizationsEPCallback(
        [](llvm::LoopPassManager &passes, llvm::OptimizationLevel) {
            passes.addPass(LoopVersioningPass());
        });
}

} // namespace ze_cuda
