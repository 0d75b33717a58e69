#include "wide_integers.hpp"

#include "low_bits.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/PostOrderIterator.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

namespace ze_cuda {

namespace {

constexpr unsigned kWideBits = 32;

// An 8- or 16-bit operation whose low bits depend only on its operands' low
// bits (for a left shift, on its first operand's; the amount is exact).
bool isNarrowChainOp(const llvm::Instruction &instruction) {
    if (!imex_l0::compiler::lowBitsFollowOperands(instruction.getOpcode()) &&
        instruction.getOpcode() != llvm::Instruction::Shl)
        return false;
    unsigned bits = instruction.getType()->getScalarSizeInBits();
    return bits == 8 || bits == 16;
}

// Rebuilds a function's narrow chains in 32 bits.
class Widener {
public:
    explicit Widener(llvm::Function &function) : function_(function) {}

    bool run() {
        llvm::SmallVector<llvm::Instruction *, 64> narrow;
        for (llvm::BasicBlock *block :
             llvm::ReversePostOrderTraversal<llvm::Function *>(&function_))
            for (llvm::Instruction &instruction : *block)
                if (isNarrowChainOp(instruction)) {
                    widen(instruction);
                    narrow.push_back(&instruction);
                }
        if (narrow.empty())
            return false;
        // Every use of a narrow operation now reads the truncated wide one;
        // those inside the chain have their wide forms, and go with it.
        llvm::SmallVector<llvm::Instruction *, 64> truncations;
        for (llvm::Instruction *instruction : narrow) {
            llvm::IRBuilder<> builder(instruction);
            llvm::Value *truncated =
                builder.CreateTrunc(wide_.lookup(instruction), instruction->getType());
            instruction->replaceAllUsesWith(truncated);
            if (auto *truncation = llvm::dyn_cast<llvm::Instruction>(truncated))
                truncations.push_back(truncation);
        }
        for (llvm::Instruction *instruction : narrow)
            instruction->eraseFromParent();
        for (llvm::Instruction *truncation : truncations)
            if (truncation->use_empty())
                truncation->eraseFromParent();
        return true;
    }

private:
    static llvm::Type *wideType(llvm::Type *narrow) {
        llvm::Type *wide = llvm::Type::getIntNTy(narrow->getContext(), kWideBits);
        if (auto *vector = llvm::dyn_cast<llvm::VectorType>(narrow))
            return llvm::VectorType::get(wide, vector->getElementCount());
        return wide;
    }

    void widen(llvm::Instruction &instruction) {
        llvm::IRBuilder<> builder(&instruction);
        llvm::Type *type = wideType(instruction.getType());
        llvm::Value *left = wideOperand(instruction.getOperand(0), type);
        llvm::Value *right = instruction.getOpcode() == llvm::Instruction::Shl
                                 ? builder.CreateZExt(instruction.getOperand(1), type)
                                 : wideOperand(instruction.getOperand(1), type);
        llvm::Value *wide =
            builder.CreateBinOp(llvm::Instruction::BinaryOps(instruction.getOpcode()), left, right,
                                instruction.getName() + ".wide");
        wide_[&instruction] = wide;
    }

    // The 32-bit form of a chain's operand: its wide operation, a constant
    // sign-extended (small immediates stay small), the 32-bit value a
    // truncation came from, or the value zero-extended once where it is
    // defined.
    llvm::Value *wideOperand(llvm::Value *value, llvm::Type *type) {
        if (llvm::Value *wide = wide_.lookup(value))
            return wide;
        if (auto *constant = llvm::dyn_cast<llvm::Constant>(value))
            return llvm::ConstantExpr::getSExt(constant, type);
        if (auto *truncation = llvm::dyn_cast<llvm::TruncInst>(value))
            if (truncation->getOperand(0)->getType() == type)
                return truncation->getOperand(0);
        llvm::Value *&extended = extended_[value];
        if (!extended) {
            llvm::IRBuilder<> builder(insertionAfter(value));
            extended = builder.CreateZExt(value, type, value->getName() + ".zext");
        }
        return extended;
    }

    llvm::Instruction *insertionAfter(llvm::Value *value) {
        if (auto *instruction = llvm::dyn_cast<llvm::Instruction>(value)) {
            if (llvm::isa<llvm::PHINode>(instruction))
                return &*instruction->getParent()->getFirstInsertionPt();
            return instruction->getNextNode();
        }
        return &*function_.getEntryBlock().getFirstInsertionPt(); // an argument
    }

    llvm::Function &function_;
    llvm::DenseMap<llvm::Value *, llvm::Value *> wide_;     // narrow operation -> its wide form
    llvm::DenseMap<llvm::Value *, llvm::Value *> extended_; // operand from outside -> its zext
};

} // namespace

llvm::PreservedAnalyses WideIntegerPass::run(llvm::Function &function,
                                             llvm::FunctionAnalysisManager &) {
    if (function.isDeclaration() || !Widener(function).run())
        return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

void addWideIntegers(llvm::PassBuilder &builder) {
    builder.registerOptimizerLastEPCallback(
        [](llvm::ModulePassManager &passes, llvm::OptimizationLevel) {
            passes.addPass(llvm::createModuleToFunctionPassAdaptor(WideIntegerPass()));
        });
}

} // namespace ze_cuda
