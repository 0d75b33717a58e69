// VectorSelectConditionPass: `select i1 %c, <N x T> %a, <N x T> %b` picks a
// whole vector on one condition. SPIR-V before 1.4 only allows OpSelect on
// vectors with a condition vector of the same size, and translator 15 copies
// the scalar condition as is, so the module fails validation ("Expected vector
// sizes of Result Type and the condition to be equal"). Splatting the
// condition to <N x i1> selects every lane the same way: the same result, in a
// form every SPIR-V version accepts.
#include "legalize_passes.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

#include <vector>

namespace imex_l0::compiler {

bool VectorSelectConditionPass::splatConditions(llvm::Function &function) {
    std::vector<llvm::SelectInst *> selects;
    for (llvm::Instruction &instruction : llvm::instructions(function))
        if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction))
            if (select->getType()->isVectorTy() && !select->getCondition()->getType()->isVectorTy())
                selects.push_back(select);
    for (llvm::SelectInst *select : selects) {
        llvm::IRBuilder<> builder(select);
        auto *vector = llvm::cast<llvm::VectorType>(select->getType());
        select->setCondition(
            builder.CreateVectorSplat(vector->getElementCount(), select->getCondition()));
    }
    return !selects.empty();
}

llvm::PreservedAnalyses VectorSelectConditionPass::run(llvm::Function &function,
                                                       llvm::FunctionAnalysisManager &) {
    if (!splatConditions(function))
        return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

} // namespace imex_l0::compiler
