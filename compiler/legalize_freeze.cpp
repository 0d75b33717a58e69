// RemoveFreezePass: translator 15 cannot translate `freeze`.
//
// Why replacing `freeze x` by `x` keeps the program's meaning: the optimiser
// inserts freeze where it makes an operand be used more often than in the
// source (DivRemPairs rewrites `a % b` as `a - (a / b) * b` and freezes a and b;
// loop unswitching and select-to-branch freeze a condition). In a program
// without undefined behaviour those operands are already well-defined values,
// and freeze of a well-defined value is the value itself. SPIR-V has no poison,
// and translator 16 translates freeze the same way. The one case where the
// operand is not a value is a literal undef/poison constant; freezing picks
// *some* fixed value, so we pick zero, which is one of the allowed choices.
#include "legalize_passes.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include <vector>

namespace imex_l0::compiler {

bool RemoveFreezePass::removeFreeze(llvm::Function &function) {
    std::vector<llvm::FreezeInst *> freezes;
    for (llvm::Instruction &instruction : llvm::instructions(function))
        if (auto *freeze = llvm::dyn_cast<llvm::FreezeInst>(&instruction))
            freezes.push_back(freeze);
    for (llvm::FreezeInst *freeze : freezes) {
        llvm::Value *operand = freeze->getOperand(0);
        if (llvm::isa<llvm::UndefValue>(operand)) // poison is an UndefValue too
            operand = llvm::Constant::getNullValue(operand->getType());
        freeze->replaceAllUsesWith(operand);
        freeze->eraseFromParent();
    }
    return !freezes.empty();
}

llvm::PreservedAnalyses RemoveFreezePass::run(llvm::Function &function,
                                              llvm::FunctionAnalysisManager &) {
    if (!removeFreeze(function))
        return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

} // namespace imex_l0::compiler
