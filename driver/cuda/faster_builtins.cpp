#include "faster_builtins.hpp"

#include "float_bits.hpp"
#include "lanes.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InlineAsm.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <regex>
#include <string>
#include <vector>

namespace ze_cuda {

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
        // Element by element, as vload_half reads them: LLVM forwards such
        // stores to such loads (not all elements of one vector store).
        for (unsigned e = 0; e < count; ++e)
            b.CreateAlignedStore(laneOf(b, halves, e), b.CreateConstGEP1_64(half, base, e),
                                 llvm::Align(2));
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
        llvm::Value *shuffled = fromLanes(b, result, [&](unsigned i) {
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
            return level[0];
        });
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
        llvm::Type *type = f.getReturnType();
        const unsigned bits = type->getScalarSizeInBits();
        // The amount modulo the width, as OpenCL's rotate takes it (a
        // negative one rotates right).
        llvm::Value *amount = b.CreateAnd(f.getArg(1), llvm::ConstantInt::get(type, bits - 1));
        if (bits != 64) {
            b.CreateRet(b.CreateIntrinsic(llvm::Intrinsic::fshl, {type},
                                          {f.getArg(0), f.getArg(0), amount}));
        } else {
            // LLVM 15's NVPTX backend shifts a 64-bit funnel shift's value by
            // its amount unreduced (a shift past 64 gives 0) and drops a
            // reduction made before it, NVVM's 64-bit rotate wraps the
            // amount at 32, and a 32-bit funnel shift of two values becomes
            // five shifts: the halves, swapped for an amount of 32 or more,
            // each PTX's funnel shift (the high word of {b, a} << c % 32) of
            // the two.
            llvm::Type *word = b.getInt32Ty();
            llvm::InlineAsm *funnel = llvm::InlineAsm::get(
                llvm::FunctionType::get(word, {word, word, word}, false),
                "shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r,r,r", /*hasSideEffects=*/false);
            llvm::Value *rotated = fromLanes(b, type, [&](unsigned e) {
                llvm::Value *x = laneOf(b, f.getArg(0), e);
                llvm::Value *n = b.CreateTrunc(laneOf(b, amount, e), word);
                llvm::Value *low = b.CreateTrunc(x, word);
                llvm::Value *high = b.CreateTrunc(b.CreateLShr(x, 32), word);
                llvm::Value *swap = b.CreateICmpUGE(n, b.getInt32(32));
                llvm::Value *first = b.CreateSelect(swap, low, high); // the result's high half
                llvm::Value *second = b.CreateSelect(swap, high, low);
                llvm::Value *newHigh = b.CreateCall(funnel, {second, first, n});
                llvm::Value *newLow = b.CreateCall(funnel, {first, second, n});
                return b.CreateOr(b.CreateShl(b.CreateZExt(newHigh, type->getScalarType()), 32),
                                  b.CreateZExt(newLow, type->getScalarType()));
            });
            b.CreateRet(rotated);
        }
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void saturatingConversions(llvm::Module &module) {
    // convert_<type><n>_sat[_<rounding>](<float type>): the type's name,
    // the rounding, the source's letter (f or d, alone or in Dv<n>_).
    static const std::regex mangled(
        R"(_Z\d+convert_(u?char|u?short|u?int|u?long)\d*_sat(_rte|_rtz|_rtn|_rtp)?(?:Dv\d+_)?([fd]))");
    llvm::LLVMContext &context = module.getContext();
    for (llvm::Function &f : module) {
        std::smatch match;
        const std::string name = f.getName().str();
        if (!f.isDeclaration() || f.arg_size() != 1 || !std::regex_match(name, match, mangled) ||
            !f.getReturnType()->isIntOrIntVectorTy() || !f.getArg(0)->getType()->isFPOrFPVectorTy())
            continue;
        const std::string type = match[1], rounding = match[2];
        const bool isDouble = match[3] == "d";
        const bool isUnsigned = type[0] == 'u';
        llvm::Type *element = f.getReturnType()->getScalarType();
        const unsigned bits = element->getIntegerBitWidth();
        // PTX's rounding to an integer (round to zero by default), its
        // destination type, and the register constraint of each side
        // (8-bit results live in 16-bit registers).
        const std::string mode = rounding == "_rte"   ? "rni"
                                 : rounding == "_rtn" ? "rmi"
                                 : rounding == "_rtp" ? "rpi"
                                                      : "rzi";
        const std::string instruction = "cvt." + mode + ".sat." + (isUnsigned ? "u" : "s") +
                                        std::to_string(bits) + (isDouble ? ".f64" : ".f32") +
                                        " $0, $1;";
        const char *result = bits <= 16 ? "=h" : bits == 32 ? "=r" : "=l";
        llvm::Type *registerType = llvm::Type::getIntNTy(context, std::max(bits, 16u));
        llvm::Type *source = f.getArg(0)->getType()->getScalarType();
        llvm::InlineAsm *convert = llvm::InlineAsm::get(
            llvm::FunctionType::get(registerType, {source}, false), instruction,
            std::string(result) + (isDouble ? ",d" : ",f"), /*hasSideEffects=*/false);
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "", &f));
        llvm::Value *converted = fromLanes(b, f.getReturnType(), [&](unsigned e) {
            llvm::Value *x = laneOf(b, f.getArg(0), e);
            llvm::Value *r = b.CreateTrunc(b.CreateCall(convert, {x}), element);
            // NaN converts to 0 from float to 32 bits or fewer; a double
            // NaN to uint gives 2^31 (H200), so from double and to 64 bits
            // NaN is 0 by a select.
            if (isDouble || bits == 64)
                r = b.CreateSelect(b.CreateFCmpUNO(x, x), llvm::ConstantInt::get(element, 0), r);
            return r;
        });
        b.CreateRet(converted);
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void shortGeometry(llvm::Module &module, bool unsafe) {
    // <name>Dv<n>_f[S_]: the function's name and its vector argument.
    static const std::regex mangled(R"(_Z\d+(fast_)?(length|normalize|distance)Dv[234]_f(S_)?)");
    for (llvm::Function &f : module) {
        std::smatch match;
        const std::string name = f.getName().str();
        if (!f.isDeclaration() || !std::regex_match(name, match, mangled) ||
            (match[1].length() == 0 && !unsafe))
            continue;
        const std::string what = match[2];
        if (f.arg_size() != (what == "distance" ? 2u : 1u))
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        llvm::Value *p = what == "distance" ? b.CreateFSub(f.getArg(0), f.getArg(1)) : f.getArg(0);
        const unsigned count = elementCount(p->getType());
        llvm::Value *sum = nullptr;
        for (unsigned e = 0; e < count; ++e) {
            llvm::Value *x = laneOf(b, p, e);
            sum = sum ? b.CreateIntrinsic(llvm::Intrinsic::fma, {x->getType()}, {x, x, sum})
                      : b.CreateFMul(x, x);
        }
        if (what != "normalize") {
            b.CreateRet(b.CreateIntrinsic(llvm::Intrinsic::nvvm_sqrt_approx_f, {}, {sum}));
        } else {
            llvm::Value *scale = b.CreateVectorSplat(
                count, b.CreateIntrinsic(llvm::Intrinsic::nvvm_rsqrt_approx_f, {}, {sum}));
            llvm::Value *zero = b.CreateFCmpOEQ(sum, llvm::ConstantFP::get(sum->getType(), 0.0));
            b.CreateRet(b.CreateSelect(zero, p, b.CreateFMul(p, scale)));
        }
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

namespace {

// fmin(fmax(x, low), high) of a float type, low and high of its type; of
// floats a saturation (cvt.sat) where inlining made them 0 and 1:
// llvm.is.constant folds to true where the bounds are constants and to
// false otherwise, so the test costs nothing either way.
llvm::Value *clampFloats(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *low,
                         llvm::Value *high) {
    llvm::Type *type = x->getType();
    llvm::Value *clamped = b.CreateBinaryIntrinsic(
        llvm::Intrinsic::minnum, b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x, low), high);
    if (!type->getScalarType()->isFloatTy())
        return clamped;
    // Whether every element of v equals c.
    auto all = [&](llvm::Value *v, double c) {
        llvm::Value *result = nullptr;
        for (unsigned e = 0; e < elementCount(type); ++e) {
            llvm::Value *is =
                b.CreateFCmpOEQ(laneOf(b, v, e), llvm::ConstantFP::get(b.getFloatTy(), c));
            result = result ? b.CreateAnd(result, is) : is;
        }
        return result;
    };
    auto constant = [&](llvm::Value *v) {
        return b.CreateIntrinsic(llvm::Intrinsic::is_constant, {v->getType()}, {v});
    };
    llvm::Value *unit = b.CreateAnd(b.CreateAnd(constant(low), constant(high)),
                                    b.CreateAnd(all(low, 0.0), all(high, 1.0)));
    llvm::Value *saturated = fromLanes(b, type, [&](unsigned e) {
        return b.CreateIntrinsic(llvm::Intrinsic::nvvm_saturate_f, {}, {laneOf(b, x, e)});
    });
    return b.CreateSelect(unit, saturated, clamped);
}

} // namespace

void floatClamps(llvm::Module &module) {
    for (llvm::Function &f : module) {
        llvm::StringRef name = f.getName();
        const bool smooth = name.startswith("_Z10smoothstep");
        if (!f.isDeclaration() || !(smooth || name.startswith("_Z5clamp")) || f.arg_size() != 3 ||
            !f.getReturnType()->isFPOrFPVectorTy())
            continue;
        llvm::Type *type = f.getReturnType();
        // The value's argument, and the bounds' (scalars of a vector in
        // clamp(gentype, float, float), smoothstep(float, float, gentype)).
        const unsigned value = smooth ? 2 : 0, first = smooth ? 0 : 1;
        if (f.getArg(value)->getType() != type)
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        llvm::Value *low = widenTo(b, f.getArg(first), type);
        llvm::Value *high = widenTo(b, f.getArg(first + 1), type);
        llvm::Value *one = llvm::ConstantFP::get(type, 1.0);
        if (!smooth) {
            b.CreateRet(clampFloats(b, f.getArg(value), low, high));
        } else {
            // t = clamp((x - edge0) / (edge1 - edge0), 0, 1); t * t * (3 - 2 * t)
            llvm::Value *t = clampFloats(
                b, b.CreateFDiv(b.CreateFSub(f.getArg(value), low), b.CreateFSub(high, low)),
                llvm::ConstantFP::get(type, 0.0), one);
            b.CreateRet(
                b.CreateFMul(b.CreateFMul(t, t),
                             b.CreateFSub(llvm::ConstantFP::get(type, 3.0),
                                          b.CreateFMul(llvm::ConstantFP::get(type, 2.0), t))));
        }
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

void selectFdims(llvm::Module &module) {
    for (llvm::Function &f : module) {
        llvm::Type *type = f.getReturnType();
        if (!f.isDeclaration() || !f.getName().startswith("_Z4fdim") || f.arg_size() != 2 ||
            !type->isFPOrFPVectorTy() || f.getArg(0)->getType() != type ||
            f.getArg(1)->getType() != type)
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        llvm::Value *x = f.getArg(0), *y = f.getArg(1);
        b.CreateRet(b.CreateSelect(b.CreateFCmpOLE(x, y), llvm::ConstantFP::get(type, 0.0),
                                   b.CreateFSub(x, y)));
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void bitCopySigns(llvm::Module &module) {
    for (llvm::Function &f : module) {
        llvm::Type *type = f.getReturnType();
        if (!f.isDeclaration() || !f.getName().startswith("_Z8copysign") || f.arg_size() != 2 ||
            !type->isFPOrFPVectorTy() || type->getScalarType()->isHalfTy() ||
            f.getArg(0)->getType() != type || f.getArg(1)->getType() != type)
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        b.CreateRet(
            flipSignBy(b, b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, f.getArg(0)), f.getArg(1)));
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

} // namespace ze_cuda
