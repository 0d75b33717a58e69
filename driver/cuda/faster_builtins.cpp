#include "faster_builtins.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <regex>
#include <string>
#include <vector>

namespace ze_cuda {

namespace {

unsigned elementCount(llvm::Type *type) {
    auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type);
    return vector ? vector->getNumElements() : 1;
}

} // namespace

void halfStores(llvm::Module &module) {
    // vstore[a]_half[n][_rte](value, offset, pointer): the value's type
    // (f, d, Dv<n>_f, Dv<n>_d) right after the name, so _rtz, _rtn and _rtp
    // do not match.
    static const std::regex mangled(R"(_Z\d+vstore(a?)_half\d*(_rte)?(f|d|Dv\d+_[fd])m.*)");
    llvm::LLVMContext &context = module.getContext();
    for (llvm::Function &f : module) {
        std::smatch match;
        const std::string name = f.getName().str();
        if (!f.isDeclaration() || f.arg_size() != 3 || !std::regex_match(name, match, mangled) ||
            !f.getArg(0)->getType()->isFPOrFPVectorTy() || !f.getArg(2)->getType()->isPointerTy())
            continue;
        const bool aligned = match[1].length() != 0;
        llvm::Type *value = f.getArg(0)->getType();
        const unsigned count = elementCount(value);
        // vstorea_half3 steps by four halves, as if it were a half4.
        const unsigned stride = aligned && count == 3 ? 4 : count;
        llvm::Type *half = llvm::Type::getHalfTy(context);
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "", &f));
        llvm::Value *halves = b.CreateFPTrunc(
            f.getArg(0), count == 1 ? half : llvm::FixedVectorType::get(half, count));
        llvm::Value *base =
            b.CreateGEP(half, f.getArg(2), b.CreateMul(f.getArg(1), b.getInt64(stride)));
        if (count == 3) {
            for (unsigned e = 0; e < 3; ++e)
                b.CreateAlignedStore(b.CreateExtractElement(halves, e),
                                     b.CreateConstGEP1_64(half, base, e), llvm::Align(2));
        } else {
            b.CreateAlignedStore(halves, base, llvm::Align(aligned ? 2 * count : 2));
        }
        b.CreateRetVoid();
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void selectShuffles(llvm::Module &module) {
    for (llvm::Function &f : module) {
        llvm::StringRef name = f.getName();
        const bool two = name.startswith("_Z8shuffle2");
        if (!f.isDeclaration() || !(two || name.startswith("_Z7shuffle")) ||
            f.arg_size() != (two ? 3u : 2u))
            continue;
        auto *result = llvm::dyn_cast<llvm::FixedVectorType>(f.getReturnType());
        auto *input = llvm::dyn_cast<llvm::FixedVectorType>(f.getArg(0)->getType());
        llvm::Value *mask = f.getArg(f.arg_size() - 1);
        auto *maskType = llvm::dyn_cast<llvm::FixedVectorType>(mask->getType());
        if (!result || !input || !maskType || !maskType->getElementType()->isIntegerTy() ||
            maskType->getNumElements() != result->getNumElements())
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        // The candidates in the order the mask counts them: the first
        // vector's elements, then the second's.
        std::vector<llvm::Value *> candidates;
        for (unsigned a = 0; a + 1 < f.arg_size(); ++a)
            for (unsigned e = 0; e < input->getNumElements(); ++e)
                candidates.push_back(b.CreateExtractElement(f.getArg(a), e));
        llvm::Value *shuffled = llvm::PoisonValue::get(result);
        for (unsigned i = 0; i < result->getNumElements(); ++i) {
            llvm::Value *index = b.CreateExtractElement(mask, i);
            // Only the bits that count the candidates are read (OpenCL: the
            // ilogb(2m - 1) low bits), one level of selects for each.
            std::vector<llvm::Value *> level = candidates;
            for (unsigned bit = 0; level.size() > 1; ++bit) {
                llvm::Value *set = b.CreateTrunc(b.CreateLShr(index, bit), b.getInt1Ty());
                std::vector<llvm::Value *> next;
                for (size_t t = 0; t + 1 < level.size(); t += 2)
                    next.push_back(b.CreateSelect(set, level[t + 1], level[t]));
                level = std::move(next);
            }
            shuffled = b.CreateInsertElement(shuffled, level[0], i);
        }
        b.CreateRet(shuffled);
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void funnelRotates(llvm::Module &module) {
    for (llvm::Function &f : module) {
        if (!f.isDeclaration() || !f.getName().startswith("_Z6rotate") || f.arg_size() != 2 ||
            !f.getReturnType()->isIntOrIntVectorTy() || f.getArg(1)->getType() != f.getReturnType())
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        // The amount modulo the width, as OpenCL's rotate takes it (a
        // negative one rotates right).
        b.CreateRet(b.CreateIntrinsic(llvm::Intrinsic::fshl, {f.getReturnType()},
                                      {f.getArg(0), f.getArg(0), f.getArg(1)}));
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void selectSigns(llvm::Module &module) {
    for (llvm::Function &f : module) {
        if (!f.isDeclaration() || !f.getName().startswith("_Z4sign") || f.arg_size() != 1 ||
            !f.getReturnType()->isFPOrFPVectorTy() || f.getArg(0)->getType() != f.getReturnType())
            continue;
        llvm::Type *type = f.getReturnType();
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        llvm::Value *x = f.getArg(0);
        llvm::Value *zero = llvm::ConstantFP::get(type, 0.0);
        llvm::Value *sign =
            b.CreateSelect(b.CreateFCmpOGT(x, zero), llvm::ConstantFP::get(type, 1.0), x);
        sign = b.CreateSelect(b.CreateFCmpOLT(x, zero), llvm::ConstantFP::get(type, -1.0), sign);
        b.CreateRet(b.CreateSelect(b.CreateFCmpUNO(x, x), zero, sign));
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

} // namespace ze_cuda
