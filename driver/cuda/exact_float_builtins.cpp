#include "exact_float_builtins.hpp"

#include "float_bits.hpp"
#include "lanes.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <regex>
#include <string>
#include <vector>

namespace ze_cuda {

namespace {

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
        llvm::Type *scalar = f->getReturnType()->getScalarType();
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
        if (f != one)
            defineByScalarCalls(*f, one);
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
    for (llvm::Function *f : builtins)
        if (f != one)
            defineByScalarCalls(*f, one);
}

} // namespace ze_cuda
