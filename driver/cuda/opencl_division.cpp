#include "opencl_division.hpp"

#include "math_options.hpp"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace ze_cuda {

namespace {

// Kept by the optimizations on the instruction it marks; where one drops
// it, that division stays IEEE (never less accurate than asked).
constexpr const char *kMark = "ze.opencl.fdiv";

// Of floats, or of vectors of floats (divided lane by lane).
bool isFloatDivision(const llvm::Instruction &i) {
    return i.getOpcode() == llvm::Instruction::FDiv && i.getType()->getScalarType()->isFloatTy();
}

} // namespace

void markOpenClDivisions(llvm::Module &module, const MathOptions &o) {
    if (o.unsafe || o.correctlyRoundedDivide)
        return;
    llvm::MDNode *mark = llvm::MDNode::get(module.getContext(), {});
    for (llvm::Function &f : module)
        for (llvm::BasicBlock &block : f)
            for (llvm::Instruction &i : block)
                if (isFloatDivision(i))
                    i.setMetadata(kMark, mark);
}

void lowerOpenClDivisions(llvm::Module &module, const MathOptions &o) {
    std::vector<llvm::Instruction *> marked;
    for (llvm::Function &f : module)
        for (llvm::BasicBlock &block : f)
            for (llvm::Instruction &i : block)
                if (isFloatDivision(i) && i.getMetadata(kMark))
                    marked.push_back(&i);
    if (marked.empty())
        return;
    llvm::Type *type = llvm::Type::getFloatTy(module.getContext());
    const std::string ftz = o.flushDenormals ? ".ftz" : "";
    llvm::InlineAsm *reciprocal =
        llvm::InlineAsm::get(llvm::FunctionType::get(type, {type}, false),
                             "rcp.approx" + ftz + ".f32 $0, $1;", "=f,f", /*hasSideEffects=*/false);
    llvm::InlineAsm *quotient =
        llvm::InlineAsm::get(llvm::FunctionType::get(type, {type, type}, false),
                             "div.full" + ftz + ".f32 $0, $1, $2;", "=f,f,f", false);
    for (llvm::Instruction *division : marked) {
        llvm::IRBuilder<> b(division);
        auto divide = [&](llvm::Value *x, llvm::Value *y) {
            auto *one = llvm::dyn_cast<llvm::ConstantFP>(x);
            llvm::CallInst *call = one && one->isExactlyValue(1.0) ? b.CreateCall(reciprocal, {y})
                                                                   : b.CreateCall(quotient, {x, y});
            call->setDoesNotAccessMemory();
            return call;
        };
        llvm::Value *x = division->getOperand(0), *y = division->getOperand(1), *result = nullptr;
        if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(division->getType())) {
            result = llvm::UndefValue::get(vector);
            for (unsigned lane = 0; lane < vector->getNumElements(); ++lane)
                result = b.CreateInsertElement(
                    result,
                    divide(b.CreateExtractElement(x, lane), b.CreateExtractElement(y, lane)), lane);
        } else {
            result = divide(x, y);
        }
        division->replaceAllUsesWith(result);
        division->eraseFromParent();
    }
}

} // namespace ze_cuda
