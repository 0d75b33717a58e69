#include "missing_builtins.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <regex>
#include <string>
#include <vector>

namespace ze_cuda {

void printfAsVprintf(llvm::Module &module) {
    llvm::Function *printf = module.getFunction("printf");
    if (!printf || !printf->isDeclaration())
        return;
    llvm::LLVMContext &ctx = module.getContext();
    llvm::PointerType *generic = llvm::PointerType::get(ctx, 0);
    llvm::FunctionCallee vprintf = module.getOrInsertFunction(
        "vprintf", llvm::FunctionType::get(llvm::Type::getInt32Ty(ctx), {generic, generic}, false));
    std::vector<llvm::CallInst *> calls;
    for (llvm::User *user : printf->users())
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(user);
            call && call->getCalledFunction() == printf)
            calls.push_back(call);
    for (llvm::CallInst *call : calls) {
        llvm::IRBuilder<> b(call);
        auto toGeneric = [&](llvm::Value *v) -> llvm::Value * {
            auto *type = llvm::dyn_cast<llvm::PointerType>(v->getType());
            return type && type->getAddressSpace() != 0 ? b.CreateAddrSpaceCast(v, generic) : v;
        };
        std::vector<llvm::Value *> args;
        for (unsigned i = 1; i < call->arg_size(); ++i) {
            llvm::Value *arg = toGeneric(call->getArgOperand(i));
            if (arg->getType()->isFloatTy() || arg->getType()->isHalfTy())
                arg = b.CreateFPExt(arg, b.getDoubleTy());
            args.push_back(arg);
        }
        llvm::Value *buffer = llvm::ConstantPointerNull::get(generic);
        if (!args.empty()) {
            std::vector<llvm::Type *> types;
            for (llvm::Value *arg : args)
                types.push_back(arg->getType());
            llvm::StructType *layout = llvm::StructType::get(ctx, types);
            llvm::Function *f = call->getFunction();
            llvm::IRBuilder<> entry(&*f->getEntryBlock().getFirstInsertionPt());
            llvm::AllocaInst *slot = entry.CreateAlloca(layout);
            for (unsigned i = 0; i < args.size(); ++i)
                b.CreateStore(args[i], b.CreateStructGEP(layout, slot, i));
            buffer = slot;
        }
        llvm::CallInst *replacement =
            b.CreateCall(vprintf, {toGeneric(call->getArgOperand(0)), buffer});
        if (!call->getType()->isVoidTy())
            call->replaceAllUsesWith(b.CreateZExtOrTrunc(replacement, call->getType()));
        call->eraseFromParent();
    }
    if (printf->use_empty())
        printf->eraseFromParent();
}

void genericAddressAtomics(llvm::Module &module) {
    // _Z<length>atomic_<operation>PU3AS4V<element type><the other arguments>
    static const std::regex mangled(
        R"(_Z\d+atomic_(add|sub|xchg|min|max|and|or|xor|inc|dec|cmpxchg)PU3AS4V([ijlmf]).*)");
    using Op = llvm::AtomicRMWInst::BinOp;
    for (llvm::Function &f : module) {
        std::smatch match;
        std::string name = f.getName().str();
        if (!f.isDeclaration() || !std::regex_match(name, match, mangled))
            continue;
        const std::string op = match[1];
        const char type = match[2].str()[0];
        const bool isSigned = type == 'i' || type == 'l';
        if (type == 'f' && op != "xchg")
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        llvm::Value *pointer = f.getArg(0);
        llvm::Type *element = f.getReturnType();
        const auto order = llvm::AtomicOrdering::SequentiallyConsistent;
        llvm::Value *old;
        if (op == "cmpxchg") {
            old = b.CreateExtractValue(b.CreateAtomicCmpXchg(pointer, f.getArg(1), f.getArg(2),
                                                             llvm::MaybeAlign(), order, order),
                                       0);
        } else if (op == "inc" || op == "dec") {
            old = b.CreateAtomicRMW(op == "inc" ? Op::Add : Op::Sub, pointer,
                                    llvm::ConstantInt::get(element, 1), llvm::MaybeAlign(), order);
        } else {
            Op rmw = op == "add"    ? Op::Add
                     : op == "sub"  ? Op::Sub
                     : op == "xchg" ? Op::Xchg
                     : op == "and"  ? Op::And
                     : op == "or"   ? Op::Or
                     : op == "xor"  ? Op::Xor
                     : op == "min"  ? (isSigned ? Op::Min : Op::UMin)
                                    : (isSigned ? Op::Max : Op::UMax);
            old = b.CreateAtomicRMW(rmw, pointer, f.getArg(1), llvm::MaybeAlign(), order);
        }
        b.CreateRet(old);
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void fullWidthMul24(llvm::Module &module) {
    for (llvm::Function &f : module) {
        llvm::StringRef name = f.getName();
        const bool mad = name.startswith("_Z5mad24");
        if (!f.isDeclaration() || !(mad || name.startswith("_Z5mul24")) ||
            !f.getReturnType()->getScalarType()->isIntegerTy(32) || f.arg_size() != (mad ? 3u : 2u))
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        llvm::Value *product = b.CreateMul(f.getArg(0), f.getArg(1));
        b.CreateRet(mad ? b.CreateAdd(product, f.getArg(2)) : product);
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void minMaxClamp(llvm::Module &module) {
    for (llvm::Function &f : module) {
        llvm::StringRef type = f.getName();
        if (!f.isDeclaration() || !type.consume_front("_Z5clamp") || f.arg_size() != 3 ||
            !f.getReturnType()->isIntOrIntVectorTy())
            continue;
        // The first argument's type in Itanium's mangling: a builtin type's
        // letter, or Dv<count>_ and its element's.
        if (type.consume_front("Dv"))
            type = type.drop_while([](char c) { return c >= '0' && c <= '9'; }).drop_front();
        if (type.empty())
            continue;
        const bool isSigned = llvm::StringRef("acsilx").contains(type.front()); // char is signed
        llvm::Type *result = f.getReturnType();
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        // clamp(gentype, sgentype, sgentype): scalar bounds of a vector.
        auto bound = [&](llvm::Value *v) {
            return v->getType() == result
                       ? v
                       : b.CreateVectorSplat(
                             llvm::cast<llvm::VectorType>(result)->getElementCount(), v);
        };
        llvm::Value *low =
            b.CreateBinaryIntrinsic(isSigned ? llvm::Intrinsic::smax : llvm::Intrinsic::umax,
                                    f.getArg(0), bound(f.getArg(1)));
        b.CreateRet(b.CreateBinaryIntrinsic(
            isSigned ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, low, bound(f.getArg(2))));
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

} // namespace ze_cuda
