// A 32-bit index as the sum of its terms, and the sign extension that makes
// it an address: what IndexOffsetsPass and ExactIndexSumsPass rewrite.
#pragma once

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Operator.h>

#include <cstdint>
#include <map>

namespace ze_cuda {

// A sum as its terms (value -> coefficient) and its constant.
struct Sum {
    std::map<llvm::Value *, int64_t> terms;
    int64_t constant = 0;
};

// Adds `v` times `sign` to `sum`, through add and sub that cannot wrap
// (nsw); anything else is a term. (Inside a sum that is no poison, each such
// add and sub computed its exact value, so the sum is exactly its terms'.)
inline void flatten(llvm::Value *v, int64_t sign, Sum &sum) {
    if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(v)) {
        sum.constant += sign * c->getSExtValue();
        return;
    }
    auto *op = llvm::dyn_cast<llvm::OverflowingBinaryOperator>(v);
    if (op != nullptr && op->hasNoSignedWrap() &&
        (op->getOpcode() == llvm::Instruction::Add || op->getOpcode() == llvm::Instruction::Sub)) {
        flatten(op->getOperand(0), sign, sum);
        flatten(op->getOperand(1), op->getOpcode() == llvm::Instruction::Sub ? -sign : sign, sum);
        return;
    }
    int64_t &coefficient = sum.terms[v];
    coefficient += sign;
    if (coefficient == 0)
        sum.terms.erase(v);
}

// `i` as the sign extension of a 32-bit index to 64 bits, or null.
inline llvm::SExtInst *indexExtension(llvm::Instruction &i) {
    auto *ext = llvm::dyn_cast<llvm::SExtInst>(&i);
    if (ext == nullptr || !ext->getSrcTy()->isIntegerTy(32) || !ext->getDestTy()->isIntegerTy(64))
        return nullptr;
    return ext;
}

} // namespace ze_cuda
