#include "lsr_fences.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/PatternMatch.h>

namespace ze_cuda {

namespace {

using namespace llvm::PatternMatch;

// The operand ScalarEvolution truncates in `instruction`: x of `x & (2^n -
// 1)` or of `(x << c) >> c` (arithmetic), n narrower than x.
llvm::Use *truncatedOperand(llvm::Instruction &instruction) {
    const llvm::APInt *mask = nullptr;
    if (match(&instruction, m_And(m_Value(), m_APInt(mask))) && mask->isMask() &&
        !mask->isAllOnes())
        return &instruction.getOperandUse(0);
    const llvm::APInt *left = nullptr;
    const llvm::APInt *right = nullptr;
    if (match(&instruction, m_AShr(m_Shl(m_Value(), m_APInt(left)), m_APInt(right))) &&
        *left == *right)
        if (auto *shift = llvm::dyn_cast<llvm::Instruction>(instruction.getOperand(0)))
            return &shift->getOperandUse(0); // not of a constant expression
    return nullptr;
}

// Whether `value` holds one of the recurrences of `loop` or of a loop in it.
bool changesAlong(const llvm::SCEV *value, const llvm::Loop *loop) {
    return llvm::SCEVExprContains(value, [loop](const llvm::SCEV *part) {
        const auto *recurrence = llvm::dyn_cast<llvm::SCEVAddRecExpr>(part);
        return recurrence && loop->contains(recurrence->getLoop());
    });
}

// Whether `value` adds a loop's recurrence to something that changes along
// the loop without being one.
bool mixed(llvm::ScalarEvolution &evolution, const llvm::SCEV *value, const llvm::Loop *loop) {
    return changesAlong(value, loop) && llvm::SCEVExprContains(value, [&](const llvm::SCEV *part) {
               return llvm::isa<llvm::SCEVUnknown>(part) && !evolution.isLoopInvariant(part, loop);
           });
}

} // namespace

llvm::PreservedAnalyses LsrFencePass::run(llvm::Function &function,
                                          llvm::FunctionAnalysisManager &analyses) {
    auto &loops = analyses.getResult<llvm::LoopAnalysis>(function);
    auto &evolution = analyses.getResult<llvm::ScalarEvolutionAnalysis>(function);
    llvm::SmallVector<llvm::Instruction *, 16> roots;
    llvm::SmallVector<llvm::Use *, 16> masks;
    for (llvm::BasicBlock &block : function) {
        const llvm::Loop *loop = loops.getLoopFor(&block);
        if (loop == nullptr)
            continue;
        for (llvm::Instruction &instruction : block) {
            if (llvm::isa<llvm::PHINode>(instruction) || !instruction.getType()->isIntegerTy())
                continue;
            if (llvm::Use *operand = truncatedOperand(instruction);
                operand && evolution.isSCEVable(operand->get()->getType()) &&
                changesAlong(evolution.getSCEV(operand->get()), loop)) {
                masks.push_back(operand);
                continue;
            }
            if (!mixed(evolution, evolution.getSCEV(&instruction), loop))
                continue;
            // Where a recurrence enters the mix: an operand that is one (not
            // already mixed).
            for (llvm::Value *operand : instruction.operands()) {
                if (!evolution.isSCEVable(operand->getType()))
                    continue;
                const llvm::SCEV *value = evolution.getSCEV(operand);
                if (changesAlong(value, loop) && !mixed(evolution, value, loop)) {
                    roots.push_back(&instruction);
                    break;
                }
            }
        }
    }
    for (llvm::Instruction *root : roots) {
        auto *frozen = new llvm::FreezeInst(root, root->getName() + ".opaque");
        frozen->insertAfter(root);
        root->replaceUsesWithIf(frozen,
                                [frozen](llvm::Use &use) { return use.getUser() != frozen; });
    }
    for (llvm::Use *operand : masks) {
        if (llvm::isa<llvm::FreezeInst>(operand->get()))
            continue; // a mix's, frozen above
        auto *user = llvm::cast<llvm::Instruction>(operand->getUser());
        operand->set(
            new llvm::FreezeInst(operand->get(), operand->get()->getName() + ".opaque", user));
    }
    if (roots.empty() && masks.empty())
        return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

void addLsrFences(llvm::PassBuilder &builder) {
    builder.registerOptimizerLastEPCallback(
        [](llvm::ModulePassManager &passes, llvm::OptimizationLevel) {
            passes.addPass(llvm::createModuleToFunctionPassAdaptor(LsrFencePass()));
        });
}

} // namespace ze_cuda
