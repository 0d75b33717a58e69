#include "bit_select.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/PatternMatch.h>

#include <vector>

namespace imex_l0::compiler {

namespace {

using namespace llvm::PatternMatch;

// If `select` is (m & a) | (~m & b) in any operand order, with both ands
// used only here, sets m, a, b.
bool matchBitSelect(llvm::BinaryOperator &select, llvm::Value *&m, llvm::Value *&a,
                    llvm::Value *&b) {
    if (select.getOpcode() != llvm::Instruction::Or)
        return false;
    for (int side = 0; side < 2; ++side) {
        auto *taken = llvm::dyn_cast<llvm::BinaryOperator>(select.getOperand(side));
        auto *other = llvm::dyn_cast<llvm::BinaryOperator>(select.getOperand(1 - side));
        if (!taken || !other || taken->getOpcode() != llvm::Instruction::And ||
            other->getOpcode() != llvm::Instruction::And || !taken->hasOneUse() ||
            !other->hasOneUse())
            continue;
        for (int mask = 0; mask < 2; ++mask)
            for (int notMask = 0; notMask < 2; ++notMask)
                if (match(other->getOperand(notMask), m_Not(m_Specific(taken->getOperand(mask))))) {
                    m = taken->getOperand(mask);
                    a = taken->getOperand(1 - mask);
                    b = other->getOperand(1 - notMask);
                    return true;
                }
    }
    return false;
}

} // namespace

llvm::PreservedAnalyses BitSelectPass::run(llvm::Function &function,
                                           llvm::FunctionAnalysisManager &) {
    std::vector<llvm::BinaryOperator *> selects;
    for (llvm::Instruction &instruction : llvm::instructions(function))
        if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(&instruction)) {
            llvm::Value *m, *a, *b;
            if (matchBitSelect(*op, m, a, b))
                selects.push_back(op);
        }
    for (llvm::BinaryOperator *select : selects) {
        llvm::Value *m, *a, *b;
        if (!matchBitSelect(*select, m, a, b)) // an earlier rewrite changed it
            continue;
        llvm::IRBuilder<> builder(select);
        llvm::Value *merged = builder.CreateXor(builder.CreateAnd(builder.CreateXor(a, b), m), b);
        merged->takeName(select);
        select->replaceAllUsesWith(merged);
        // The two ands were used only by the select: they go with it.
        auto *left = llvm::cast<llvm::Instruction>(select->getOperand(0));
        auto *right = llvm::cast<llvm::Instruction>(select->getOperand(1));
        select->eraseFromParent();
        left->eraseFromParent();
        right->eraseFromParent();
    }
    if (selects.empty())
        return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

void addBitSelect(llvm::PassBuilder &builder) {
    builder.registerPeepholeEPCallback(
        [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
            passes.addPass(BitSelectPass());
        });
}

} // namespace imex_l0::compiler
