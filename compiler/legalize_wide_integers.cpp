// demoteWideIntegers: integer arithmetic wider than 64 bits whose results
// are only ever truncated to 64 bits or fewer is done in 64 bits instead.
//
// Clang makes `long long` 128 bits wide on SPIR targets (OpenCL C reserves the
// type), so real kernels written for CPU and GPU compilers where it is 64
// bits, such as `i * 0x0555555555555555ULL` stored into a ulong, arrive as i128
// arithmetic that SPIR-V cannot express. The low 64 bits of an add, sub, mul,
// and, or, xor or left shift by less than 64 depend only on the low 64 bits
// of their operands, so when every value wider than 64 bits in such a chain
// ends in a truncation, the chain computes the same truncated results in i64.
// Anything else wide (a division, a right shift, a compare, a store, a call)
// stays as it is, and legalizeIntegerWidths refuses it by name.
#include "legalize_passes.hpp"
#include "low_bits.hpp"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

namespace imex_l0::compiler {

namespace {

bool isWide(const llvm::Value *value) {
    return value->getType()->isIntegerTy() && value->getType()->getIntegerBitWidth() > 64;
}

// Whether `instruction`'s low 64 bits follow from its operands' low 64 bits
// alone, and its wide operands are ones this rewrite can give in 64 bits.
bool lowBitsLocal(const llvm::Instruction &instruction) {
    if (lowBitsFollowOperands(instruction.getOpcode()))
        return true;
    switch (instruction.getOpcode()) {
    case llvm::Instruction::Select:
    case llvm::Instruction::PHI:
        return true;
    case llvm::Instruction::Shl: {
        auto *amount = llvm::dyn_cast<llvm::ConstantInt>(instruction.getOperand(1));
        return amount && amount->getValue().ult(64);
    }
    case llvm::Instruction::ZExt:
    case llvm::Instruction::SExt:
        return instruction.getOperand(0)->getType()->getIntegerBitWidth() <= 64;
    default:
        return false;
    }
}

} // namespace

void demoteWideIntegers(llvm::Function &function) {
    // The wide values the rewrite may take: computed locally in their low
    // bits, from operands that are such values, constants or (for the
    // extensions) narrow values, and used only by such values or by
    // truncations to 64 bits or fewer. Removing one can disqualify its
    // operands and users, so this runs to a fixed point.
    llvm::SetVector<llvm::Instruction *> chain;
    for (llvm::Instruction &instruction : llvm::instructions(function))
        if (isWide(&instruction) && lowBitsLocal(instruction))
            chain.insert(&instruction);
    bool changed = true;
    while (changed) {
        changed = false;
        for (llvm::Instruction *value : chain.getArrayRef()) {
            bool ok = true;
            for (llvm::Use &operand : value->operands()) {
                llvm::Value *v = operand.get();
                if (!isWide(v))
                    continue;
                auto *defined = llvm::dyn_cast<llvm::Instruction>(v);
                ok = ok && (llvm::isa<llvm::ConstantInt>(v) || (defined && chain.contains(defined)));
            }
            for (llvm::User *user : value->users()) {
                auto *instruction = llvm::dyn_cast<llvm::Instruction>(user);
                bool truncation = llvm::isa<llvm::TruncInst>(user) &&
                                  user->getType()->getIntegerBitWidth() <= 64;
                ok = ok && (truncation || (instruction && chain.contains(instruction)));
            }
            if (!ok) {
                chain.remove(value);
                changed = true;
                break;
            }
        }
    }
    if (chain.empty())
        return;

    llvm::LLVMContext &context = function.getContext();
    llvm::Type *i64 = llvm::Type::getInt64Ty(context);
    llvm::DenseMap<llvm::Value *, llvm::Value *> narrow;
    auto narrowed = [&](llvm::Value *value) -> llvm::Value * {
        if (auto *constant = llvm::dyn_cast<llvm::ConstantInt>(value))
            return value->getType()->getIntegerBitWidth() > 64
                       ? llvm::ConstantInt::get(i64, constant->getValue().trunc(64))
                       : value;
        return narrow.lookup(value);
    };
    // Phis first (their incoming values may come later in the function).
    for (llvm::Instruction *value : chain)
        if (auto *phi = llvm::dyn_cast<llvm::PHINode>(value))
            narrow[phi] = llvm::PHINode::Create(i64, phi->getNumIncomingValues(),
                                                phi->getName() + ".i64", phi);
    // The rest in the function's order: operands are defined before their
    // users except through phis, which exist already.
    for (llvm::Instruction &instruction : llvm::instructions(function)) {
        if (!chain.contains(&instruction) || llvm::isa<llvm::PHINode>(instruction))
            continue;
        llvm::IRBuilder<> builder(&instruction);
        llvm::Value *result = nullptr;
        if (llvm::isa<llvm::ZExtInst>(instruction) || llvm::isa<llvm::SExtInst>(instruction)) {
            llvm::Value *source = instruction.getOperand(0);
            result = llvm::isa<llvm::ZExtInst>(instruction) ? builder.CreateZExt(source, i64)
                                                            : builder.CreateSExt(source, i64);
        } else if (auto *select = llvm::dyn_cast<llvm::SelectInst>(&instruction)) {
            result = builder.CreateSelect(select->getCondition(), narrowed(select->getTrueValue()),
                                          narrowed(select->getFalseValue()));
        } else {
            // No nsw/nuw: wrapping in 64 bits is not wrapping in 128.
            result = builder.CreateBinOp(
                static_cast<llvm::Instruction::BinaryOps>(instruction.getOpcode()),
                narrowed(instruction.getOperand(0)), narrowed(instruction.getOperand(1)));
        }
        result->setName(instruction.getName() + ".i64");
        narrow[&instruction] = result;
    }
    for (llvm::Instruction *value : chain)
        if (auto *phi = llvm::dyn_cast<llvm::PHINode>(value)) {
            auto *replacement = llvm::cast<llvm::PHINode>(narrow[phi]);
            for (unsigned i = 0; i < phi->getNumIncomingValues(); ++i)
                replacement->addIncoming(narrowed(phi->getIncomingValue(i)),
                                         phi->getIncomingBlock(i));
        }
    // The truncations now take the 64-bit values; then the wide chain goes.
    for (llvm::Instruction *value : chain)
        for (llvm::User *user : llvm::make_early_inc_range(value->users()))
            if (auto *truncation = llvm::dyn_cast<llvm::TruncInst>(user)) {
                llvm::IRBuilder<> builder(truncation);
                truncation->replaceAllUsesWith(
                    builder.CreateZExtOrTrunc(narrow[value], truncation->getType()));
                truncation->eraseFromParent();
            }
    for (llvm::Instruction *value : chain)
        value->dropAllReferences();
    for (llvm::Instruction *value : chain)
        value->eraseFromParent();
}

} // namespace imex_l0::compiler
