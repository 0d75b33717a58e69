#include "faster_builtins.hpp"

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

namespace {

// The bits of a float type's values: i32 for float, i64 for double (and
// vectors of them).
llvm::Type *bitsOf(llvm::Type *type) {
    return type->getWithNewType(
        llvm::IntegerType::get(type->getContext(), type->getScalarSizeInBits()));
}

// magnitude with its sign flipped where sign's is negative (magnitude's own
// sign kept: a remainder below zero stays so for a positive x).
llvm::Value *flipSignBy(llvm::IRBuilder<> &b, llvm::Value *magnitude, llvm::Value *sign) {
    llvm::Type *bits = bitsOf(magnitude->getType());
    llvm::Value *signBit =
        llvm::ConstantInt::get(bits, llvm::APInt::getSignMask(bits->getScalarSizeInBits()));
    return b.CreateBitCast(b.CreateXor(b.CreateBitCast(magnitude, bits),
                                       b.CreateAnd(b.CreateBitCast(sign, bits), signBit)),
                           magnitude->getType());
}

// ax rem ay (fmod's, or remainder's with `nearest`, of magnitudes) where
// the quotient ax / ay is below 2^20 (2^40 for double) and 1 / ay finite:
// the quotient truncated from ax * (1 / ay), at most one off, corrected by
// the sign of fma(-q, ay, ax), which is exact with the corrected q.
llvm::Value *reducedRemainder(llvm::IRBuilder<> &b, llvm::Value *ax, llvm::Value *ay,
                              bool nearest) {
    llvm::Type *type = ax->getType();
    auto constant = [&](double c) { return llvm::ConstantFP::get(type, c); };
    auto remainderOf = [&](llvm::Value *q) {
        return b.CreateIntrinsic(llvm::Intrinsic::fma, {type}, {b.CreateFNeg(q), ay, ax});
    };
    llvm::Value *q = b.CreateUnaryIntrinsic(llvm::Intrinsic::trunc,
                                            b.CreateFMul(ax, b.CreateFDiv(constant(1.0), ay)));
    llvm::Value *r = remainderOf(q);
    q = b.CreateSelect(b.CreateFCmpOLT(r, constant(0.0)), b.CreateFSub(q, constant(1.0)),
                       b.CreateSelect(b.CreateFCmpOGE(r, ay), b.CreateFAdd(q, constant(1.0)), q));
    r = remainderOf(q);
    if (!nearest)
        return r;
    llvm::Value *half = b.CreateFMul(ay, constant(0.5));
    llvm::Value *odd = b.CreateTrunc(b.CreateFPToUI(q, b.getInt64Ty()), b.getInt1Ty());
    llvm::Value *up =
        b.CreateOr(b.CreateFCmpOGT(r, half), b.CreateAnd(b.CreateFCmpOEQ(r, half), odd));
    return b.CreateSelect(up, b.CreateFSub(r, ay), r);
}

// The general path of a float fmod or remainder, from the current block:
// NaN for a NaN, an infinite x or a zero y, x for an infinite y, else in
// double (every float is a normal double there, 1 / |y| finite): |x|
// reduced by |y| 2^k, k >= 1 (an even multiple: the parity of the last
// quotient stays that of the whole), 39 bits of quotient a step, until the
// quotient by |y| is below 2^40, then by |y| itself.
void generalFloatRemainder(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y, bool nearest) {
    llvm::Function *f = b.GetInsertBlock()->getParent();
    llvm::LLVMContext &context = f->getContext();
    llvm::Type *wide = b.getDoubleTy();
    auto constant = [&](double c) { return llvm::ConstantFP::get(wide, c); };
    llvm::BasicBlock *chunk = llvm::BasicBlock::Create(context, "chunk", f);
    llvm::BasicBlock *last = llvm::BasicBlock::Create(context, "last", f);
    llvm::BasicBlock *finite = llvm::BasicBlock::Create(context, "finite", f);
    llvm::Value *ax = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
    llvm::Value *ay = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, y);
    llvm::Value *infinity = llvm::ConstantFP::getInfinity(x->getType());
    llvm::Value *invalid =
        b.CreateOr(b.CreateOr(b.CreateFCmpUNO(x, y), b.CreateFCmpOEQ(ax, infinity)),
                   b.CreateFCmpOEQ(ay, llvm::ConstantFP::get(x->getType(), 0.0)));
    llvm::Value *special = b.CreateSelect(invalid, llvm::ConstantFP::getNaN(x->getType()), x);
    llvm::BasicBlock *specials = llvm::BasicBlock::Create(context, "specials", f);
    b.CreateCondBr(b.CreateOr(invalid, b.CreateFCmpOEQ(ay, infinity)), specials, finite);
    b.SetInsertPoint(specials);
    b.CreateRet(special);

    b.SetInsertPoint(finite);
    llvm::Value *wx = b.CreateFPExt(ax, wide), *wy = b.CreateFPExt(ay, wide);
    llvm::Value *limit = b.CreateFMul(wy, constant(0x1p40));
    auto exponent = [&](llvm::Value *v) {
        return b.CreateLShr(b.CreateBitCast(v, b.getInt64Ty()), 52);
    };
    llvm::Value *yExponent = exponent(wy);
    b.CreateCondBr(b.CreateFCmpOGE(wx, limit), chunk, last);

    b.SetInsertPoint(chunk);
    llvm::PHINode *r = b.CreatePHI(wide, 2);
    r->addIncoming(wx, finite);
    // k = e(r) - e(|y|) - 38 >= 1: the quotient by |y| 2^k is below 2^39.
    llvm::Value *k = b.CreateSub(b.CreateSub(exponent(r), yExponent), b.getInt64(38));
    llvm::Value *scaled =
        b.CreateFMul(wy, b.CreateBitCast(b.CreateShl(b.CreateAdd(k, b.getInt64(1023)), 52), wide));
    llvm::Value *reduced = reducedRemainder(b, r, scaled, false);
    r->addIncoming(reduced, chunk);
    b.CreateCondBr(b.CreateFCmpOGE(reduced, limit), chunk, last);

    b.SetInsertPoint(last);
    llvm::PHINode *rest = b.CreatePHI(wide, 2);
    rest->addIncoming(wx, finite);
    rest->addIncoming(reduced, chunk);
    llvm::Value *result = b.CreateFPTrunc(reducedRemainder(b, rest, wy, nearest), x->getType());
    b.CreateRet(flipSignBy(b, result, x));
}

// The scalar fmod (nearest false) or remainder (nearest true) of `type`,
// defined in `f` (the declaration of the builtin): the fast path above;
// otherwise for float the general path above, for double libclc's `slow`
// (__clc_fmod, __clc_remainder: libclc's double functions keep subnormals).
void defineQuotientRemainder(llvm::Function &f, llvm::FunctionCallee slow, bool nearest) {
    llvm::LLVMContext &context = f.getContext();
    llvm::Type *type = f.getReturnType();
    const bool single = type->isFloatTy();
    auto constant = [&](double c) { return llvm::ConstantFP::get(type, c); };
    llvm::Value *x = f.getArg(0), *y = f.getArg(1);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "", &f));
    llvm::BasicBlock *quick = llvm::BasicBlock::Create(context, "quick", &f);
    llvm::BasicBlock *general = llvm::BasicBlock::Create(context, "general", &f);
    llvm::Value *ax = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x);
    llvm::Value *ay = b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, y);
    // Ordered comparisons: a NaN or an infinite x takes the general path.
    llvm::Value *fast =
        b.CreateAnd(b.CreateFCmpOLT(ax, b.CreateFMul(ay, constant(single ? 0x1p20 : 0x1p40))),
                    b.CreateAnd(b.CreateFCmpOGE(ay, constant(single ? 0x1p-100 : 0x1p-900)),
                                b.CreateFCmpOLE(ay, constant(single ? 0x1p100 : 0x1p900))));
    b.CreateCondBr(fast, quick, general);

    b.SetInsertPoint(quick);
    b.CreateRet(flipSignBy(b, reducedRemainder(b, ax, ay, nearest), x));

    b.SetInsertPoint(general);
    if (single)
        generalFloatRemainder(b, x, y, nearest);
    else
        b.CreateRet(b.CreateCall(slow, {x, y}));
}

} // namespace

void quotientRemainders(llvm::Module &module) {
    // <length><name><operand type>: fmod and remainder of float, double and
    // their vectors (<type>S_ for the second operand).
    static const std::regex mangled(R"(_Z(4fmod|9remainder)(f|d|Dv\d+_[fd])(f|d|S_))");
    std::vector<llvm::Function *> builtins;
    for (llvm::Function &f : module) {
        const std::string name = f.getName().str();
        if (f.isDeclaration() && std::regex_match(name, mangled) && f.arg_size() == 2 &&
            f.getReturnType()->getScalarType()->isFloatingPointTy() &&
            !f.getReturnType()->getScalarType()->isHalfTy())
            builtins.push_back(&f);
    }
    for (llvm::Function *f : builtins) {
        const bool nearest = f->getName().startswith("_Z9remainder");
        llvm::Type *type = f->getReturnType();
        llvm::Type *scalar = type->getScalarType();
        const std::string what = nearest ? "remainder" : "fmod";
        const std::string letter = scalar->isFloatTy() ? "f" : "d";
        auto *signature = llvm::FunctionType::get(scalar, {scalar, scalar}, false);
        // The scalar builtin, defined here (it may be declared already).
        llvm::Function *one = llvm::cast<llvm::Function>(
            module
                .getOrInsertFunction("_Z" + std::to_string(what.size()) + what + letter + letter,
                                     signature)
                .getCallee());
        if (one->isDeclaration()) {
            const std::string clc = "__clc_" + what;
            defineQuotientRemainder(
                *one,
                scalar->isFloatTy()
                    ? llvm::FunctionCallee()
                    : module.getOrInsertFunction("_Z" + std::to_string(clc.size()) + clc + "dd",
                                                 signature),
                nearest);
            one->setLinkage(llvm::GlobalValue::InternalLinkage);
        }
        if (f == one)
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", f));
        b.CreateRet(fromLanes(b, type, [&](unsigned e) {
            return b.CreateCall(one, {laneOf(b, f->getArg(0), e), laneOf(b, f->getArg(1), e)});
        }));
        f->setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void wideRemquos(llvm::Module &module) {
    llvm::LLVMContext &context = module.getContext();
    llvm::Type *doubleType = llvm::Type::getDoubleTy(context);
    llvm::Type *intType = llvm::Type::getInt32Ty(context);
    llvm::Type *privatePointer = llvm::PointerType::get(context, 0);
    llvm::FunctionCallee wide = nullptr;
    for (llvm::Function &f : module) {
        llvm::Type *type = f.getReturnType();
        if (!f.isDeclaration() || !f.getName().startswith("_Z6remquo") || f.arg_size() != 3 ||
            !type->getScalarType()->isFloatTy() || f.getArg(0)->getType() != type ||
            f.getArg(1)->getType() != type || !f.getArg(2)->getType()->isPointerTy())
            continue;
        if (!wide)
            wide = module.getOrInsertFunction(
                "_Z12__clc_remquoddPi",
                llvm::FunctionType::get(doubleType, {doubleType, doubleType, privatePointer},
                                        false));
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "", &f));
        llvm::Value *quotient = b.CreateAlloca(intType);
        llvm::Type *quotients = type->getWithNewType(intType);
        llvm::Value *allQuotients = llvm::PoisonValue::get(quotients);
        llvm::Value *result = fromLanes(b, type, [&](unsigned e) {
            llvm::Value *r = b.CreateCall(
                wide, {b.CreateFPExt(laneOf(b, f.getArg(0), e), doubleType),
                       b.CreateFPExt(laneOf(b, f.getArg(1), e), doubleType), quotient});
            llvm::Value *q = b.CreateLoad(intType, quotient);
            allQuotients = quotients->isVectorTy() ? b.CreateInsertElement(allQuotients, q, e) : q;
            return b.CreateFPTrunc(r, b.getFloatTy());
        });
        b.CreateStore(allQuotients, f.getArg(2));
        b.CreateRet(result);
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

namespace {

// The scalar float ldexp, defined in `f` (the declaration of _Z5ldexpfi).
void defineLdexp(llvm::Function &f) {
    llvm::LLVMContext &context = f.getContext();
    llvm::Value *x = f.getArg(0), *n = f.getArg(1);
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "", &f));
    llvm::BasicBlock *quick = llvm::BasicBlock::Create(context, "quick", &f);
    llvm::BasicBlock *wide = llvm::BasicBlock::Create(context, "wide", &f);
    // n in [-126, 127]: 2^n a normal float.
    b.CreateCondBr(b.CreateICmpULT(b.CreateAdd(n, b.getInt32(126)), b.getInt32(254)), quick, wide);

    b.SetInsertPoint(quick);
    llvm::Value *scale = b.CreateShl(b.CreateAdd(n, b.getInt32(127)), 23);
    b.CreateRet(b.CreateFMul(x, b.CreateBitCast(scale, b.getFloatTy())));

    b.SetInsertPoint(wide);
    // Beyond 400 every nonzero float overflows or underflows either way.
    llvm::Value *clamped = b.CreateBinaryIntrinsic(
        llvm::Intrinsic::smin, b.CreateBinaryIntrinsic(llvm::Intrinsic::smax, n, b.getInt32(-400)),
        b.getInt32(400));
    llvm::Value *wideScale =
        b.CreateShl(b.CreateZExt(b.CreateAdd(clamped, b.getInt32(1023)), b.getInt64Ty()), 52);
    llvm::Value *product = b.CreateFMul(b.CreateFPExt(x, b.getDoubleTy()),
                                        b.CreateBitCast(wideScale, b.getDoubleTy()));
    b.CreateRet(b.CreateFPTrunc(product, b.getFloatTy()));
}

} // namespace

void exactLdexps(llvm::Module &module) {
    std::vector<llvm::Function *> builtins;
    for (llvm::Function &f : module) {
        llvm::Type *type = f.getReturnType();
        if (f.isDeclaration() && f.getName().startswith("_Z5ldexp") && f.arg_size() == 2 &&
            type->getScalarType()->isFloatTy() && f.getArg(0)->getType() == type &&
            f.getArg(1)->getType()->getScalarType()->isIntegerTy(32))
            builtins.push_back(&f);
    }
    if (builtins.empty())
        return;
    llvm::LLVMContext &context = module.getContext();
    llvm::Type *floatType = llvm::Type::getFloatTy(context);
    llvm::Function *one = llvm::cast<llvm::Function>(
        module
            .getOrInsertFunction(
                "_Z5ldexpfi", llvm::FunctionType::get(
                                  floatType, {floatType, llvm::Type::getInt32Ty(context)}, false))
            .getCallee());
    if (one->isDeclaration()) {
        defineLdexp(*one);
        one->setLinkage(llvm::GlobalValue::InternalLinkage);
    }
    for (llvm::Function *f : builtins) {
        if (f == one)
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(context, "", f));
        llvm::Value *n =
            widenTo(b, f->getArg(1),
                    llvm::VectorType::getInteger(llvm::cast<llvm::VectorType>(f->getReturnType())));
        b.CreateRet(fromLanes(b, f->getReturnType(), [&](unsigned e) {
            return b.CreateCall(one, {laneOf(b, f->getArg(0), e), laneOf(b, n, e)});
        }));
        f->setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

namespace {

// Fitted in relative error (weighted least squares toward minimax, on
// Chebyshev nodes): asin(a) = a + a^3 P(a^2) on a in [0, 1/2], atan(t) =
// t + t^3 Q(t^2) on t in [0, tan(pi/8)].
constexpr float kAsin[] = {0.16666673f, 0.074988134f, 0.045009896f, 0.026499419f, 0.038196184f};
constexpr float kAtan[] = {-0.33333331f, 0.19999546f, -0.14264120f, 0.10745260f, -0.064563595f};
constexpr float kPi = 3.14159265358979f;

// The inverse trigonometric functions of one float, on an IRBuilder.
class InverseTrig {
public:
    explicit InverseTrig(llvm::IRBuilder<> &b) : b_(b) {}

    llvm::Value *asin(llvm::Value *x) {
        auto [p, big] = asinCore(x);
        return copySign(b_.CreateSelect(big, fma(c(-2), p, c(kPi / 2)), p), x);
    }
    llvm::Value *acos(llvm::Value *x) {
        auto [p, big] = asinCore(x);
        llvm::Value *doubled = b_.CreateFMul(c(2), p);
        llvm::Value *far =
            b_.CreateSelect(b_.CreateFCmpOGT(x, c(0)), doubled, b_.CreateFSub(c(kPi), doubled));
        return b_.CreateSelect(big, far, b_.CreateFSub(c(kPi / 2), copySign(p, x)));
    }
    llvm::Value *atan(llvm::Value *x) {
        llvm::Value *a = abs(x);
        llvm::Value *inverse = b_.CreateFCmpOGT(a, c(1));
        llvm::Value *r = atanCore(b_.CreateSelect(inverse, b_.CreateFDiv(c(1), a), a));
        return copySign(b_.CreateSelect(inverse, b_.CreateFSub(c(kPi / 2), r), r), x);
    }
    llvm::Value *atan2(llvm::Value *y, llvm::Value *x) {
        llvm::Value *ax = abs(x), *ay = abs(y);
        llvm::Value *most = b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, ax, ay);
        llvm::Value *least = b_.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, ax, ay);
        llvm::Value *t =
            b_.CreateSelect(b_.CreateFCmpOEQ(most, c(0)), c(0), b_.CreateFDiv(least, most));
        llvm::Value *r = atanCore(t);
        r = b_.CreateSelect(b_.CreateFCmpOGT(ay, ax), b_.CreateFSub(c(kPi / 2), r), r);
        llvm::Value *negativeX = b_.CreateICmpSLT(b_.CreateBitCast(x, b_.getInt32Ty()),
                                                  b_.getInt32(0)); // -0 too
        return copySign(b_.CreateSelect(negativeX, b_.CreateFSub(c(kPi), r), r), y);
    }

private:
    llvm::Value *c(float v) { return llvm::ConstantFP::get(b_.getFloatTy(), v); }
    llvm::Value *abs(llvm::Value *v) { return b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, v); }
    llvm::Value *fma(llvm::Value *a, llvm::Value *m, llvm::Value *add) {
        return b_.CreateIntrinsic(llvm::Intrinsic::fma, {b_.getFloatTy()}, {a, m, add});
    }
    // magnitude (>= 0 here) with sign's sign, on the bits.
    llvm::Value *copySign(llvm::Value *magnitude, llvm::Value *sign) {
        return flipSignBy(b_, magnitude, sign);
    }
    // s + s^3 * poly(s^2) for one of the fitted polynomials.
    llvm::Value *odd(const float (&coefficients)[5], llvm::Value *s) {
        llvm::Value *z = b_.CreateFMul(s, s);
        llvm::Value *p = c(coefficients[4]);
        for (int i = 3; i >= 0; --i)
            p = fma(p, z, c(coefficients[i]));
        return fma(b_.CreateFMul(s, z), p, s);
    }
    // asin(s) for the reduced s, and whether |x| > 1/2 (then s =
    // sqrt((1 - |x|) / 2)).
    std::pair<llvm::Value *, llvm::Value *> asinCore(llvm::Value *x) {
        llvm::Value *a = abs(x);
        llvm::Value *big = b_.CreateFCmpOGT(a, c(0.5f));
        llvm::Value *reduced = b_.CreateUnaryIntrinsic(
            llvm::Intrinsic::sqrt, b_.CreateFMul(c(0.5f), b_.CreateFSub(c(1), a)));
        return {odd(kAsin, b_.CreateSelect(big, reduced, a)), big};
    }
    // atan(t) for t in [0, 1].
    llvm::Value *atanCore(llvm::Value *t) {
        llvm::Value *middle = b_.CreateFCmpOGT(t, c(0.41421356f)); // tan(pi/8)
        llvm::Value *u = b_.CreateSelect(
            middle, b_.CreateFDiv(b_.CreateFSub(t, c(1)), b_.CreateFAdd(t, c(1))), t);
        llvm::Value *r = odd(kAtan, u);
        return b_.CreateSelect(middle, b_.CreateFAdd(r, c(kPi / 4)), r);
    }

    llvm::IRBuilder<> &b_;
};

} // namespace

void relaxedInverseTrig(llvm::Module &module, bool unsafe) {
    if (!unsafe)
        return;
    // <length><name>: asin, acos, atan of float and its vectors (one
    // argument), atan2 (two).
    static const std::regex mangled(R"(_Z(4asin|4acos|4atan|5atan2)(f|Dv\d+_f)(f|S_)?)");
    for (llvm::Function &f : module) {
        std::smatch match;
        const std::string name = f.getName().str();
        llvm::Type *type = f.getReturnType();
        if (!f.isDeclaration() || !std::regex_match(name, match, mangled) ||
            !type->getScalarType()->isFloatTy())
            continue;
        const std::string what = match[1].str().substr(1);
        if (f.arg_size() != (what == "atan2" ? 2u : 1u))
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        InverseTrig trig(b);
        b.CreateRet(fromLanes(b, type, [&](unsigned e) {
            llvm::Value *x = laneOf(b, f.getArg(0), e);
            return what == "asin"   ? trig.asin(x)
                   : what == "acos" ? trig.acos(x)
                   : what == "atan" ? trig.atan(x)
                                    : trig.atan2(x, laneOf(b, f.getArg(1), e));
        }));
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

} // namespace ze_cuda
