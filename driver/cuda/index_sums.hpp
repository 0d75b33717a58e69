// A 32-bit index as the sum of its terms: what IndexOffsetsPass and
// ExactIndexSumsPass compare.
#pragma once

#include <llvm/IR/Constants.h>
#include <llvm/IR/Operator.h>

#include <cstdint>
#include <map>

namespace ze_cuda {

// A sum as its terms (value -> coefficient) and its constant.
struct Sum {
    std::map<llvm::Value *, int64_t> terms;
    int64_t constant = 0;
    bool operator==(const Sum &other) const {
        return constant == other.constant && terms == other.terms;
    }
};

// Adds `v` times `sign` to `sum`, through add and sub: with noSignedWrapOnly
// only those that cannot wrap (nsw; inside a sum that is no poison each
// computed its exact value, so the sum is exactly its terms'), else all
// (the sum of its terms in wrapping arithmetic). Anything else is a term.
inline void flatten(llvm::Value *v, int64_t sign, Sum &sum, bool noSignedWrapOnly = true) {
    if (auto *c = llvm::dyn_cast<llvm::ConstantInt>(v)) {
        sum.constant += sign * c->getSExtValue();
        return;
    }
    auto *op = llvm::dyn_cast<llvm::OverflowingBinaryOperator>(v);
    if (op != nullptr && (op->hasNoSignedWrap() || !noSignedWrapOnly) &&
        (op->getOpcode() == llvm::Instruction::Add || op->getOpcode() == llvm::Instruction::Sub)) {
        flatten(op->getOperand(0), sign, sum, noSignedWrapOnly);
        flatten(op->getOperand(1), op->getOpcode() == llvm::Instruction::Sub ? -sign : sign, sum,
                noSignedWrapOnly);
        return;
    }
    int64_t &coefficient = sum.terms[v];
    coefficient += sign;
    if (coefficient == 0)
        sum.terms.erase(v);
}

} // namespace ze_cuda
