// A float's sign on its bits: the NVPTX backend expands llvm.copysign as a
// test of the sign bit and a select between a value and its negation; an
// exclusive or of the sign bit is one instruction.
#pragma once

#include <llvm/IR/IRBuilder.h>

namespace ze_cuda {

// The bits of a float type's values: i32 for float, i64 for double (and
// vectors of them).
inline llvm::Type *bitsOf(llvm::Type *type) {
    return type->getWithNewType(
        llvm::IntegerType::get(type->getContext(), type->getScalarSizeInBits()));
}

// magnitude with its sign flipped where sign's is negative (magnitude's own
// sign kept: a remainder below zero stays so for a positive x).
inline llvm::Value *flipSignBy(llvm::IRBuilder<> &b, llvm::Value *magnitude, llvm::Value *sign) {
    llvm::Type *bits = bitsOf(magnitude->getType());
    llvm::Value *signBit =
        llvm::ConstantInt::get(bits, llvm::APInt::getSignMask(bits->getScalarSizeInBits()));
    return b.CreateBitCast(b.CreateXor(b.CreateBitCast(magnitude, bits),
                                       b.CreateAnd(b.CreateBitCast(sign, bits), signBit)),
                           magnitude->getType());
}

} // namespace ze_cuda
