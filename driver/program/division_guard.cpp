#include "division_guard.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace ze_driver {
namespace detail {

namespace {

bool isSigned(unsigned opcode) {
    return opcode == llvm::Instruction::SDiv || opcode == llvm::Instruction::SRem;
}

// Whether a constant divisor can trap: a zero element, or (signed) -1
// against a dividend that may be the minimum value.
bool mayTrap(const llvm::Constant *divisor, bool signedDivision) {
    auto elementMayTrap = [&](const llvm::Constant *element) {
        const auto *value = llvm::dyn_cast_or_null<llvm::ConstantInt>(element);
        return !value || value->isZero() || (signedDivision && value->isMinusOne());
    };
    if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(divisor->getType())) {
        for (unsigned i = 0; i < vector->getNumElements(); ++i)
            if (elementMayTrap(divisor->getAggregateElement(i)))
                return true;
        return false;
    }
    return elementMayTrap(divisor);
}

} // namespace

unsigned guardIntegerDivision(llvm::Module &module) {
    std::vector<llvm::BinaryOperator *> divisions;
    for (llvm::Function &function : module)
        for (llvm::Instruction &instruction : llvm::instructions(function)) {
            auto *op = llvm::dyn_cast<llvm::BinaryOperator>(&instruction);
            if (!op || !op->isIntDivRem())
                continue;
            auto *constant = llvm::dyn_cast<llvm::Constant>(op->getOperand(1));
            if (!constant || mayTrap(constant, isSigned(op->getOpcode())))
                divisions.push_back(op);
        }
    for (llvm::BinaryOperator *op : divisions) {
        llvm::IRBuilder<> b(op);
        llvm::Value *dividend = op->getOperand(0), *divisor = op->getOperand(1);
        llvm::Type *type = divisor->getType();
        llvm::Value *traps = b.CreateICmpEQ(divisor, llvm::Constant::getNullValue(type));
        if (isSigned(op->getOpcode())) {
            unsigned bits = type->getScalarSizeInBits();
            llvm::Value *overflows = b.CreateAnd(
                b.CreateICmpEQ(divisor, llvm::Constant::getAllOnesValue(type)),
                b.CreateICmpEQ(dividend,
                               llvm::ConstantInt::get(type, llvm::APInt::getSignedMinValue(bits))));
            traps = b.CreateOr(traps, overflows);
        }
        op->setOperand(1, b.CreateSelect(traps, llvm::ConstantInt::get(type, 1), divisor));
    }
    return unsigned(divisions.size());
}

} // namespace detail
} // namespace ze_driver
