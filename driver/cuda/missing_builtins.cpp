#include "missing_builtins.hpp"

#include "lanes.hpp"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <iterator>
#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace ze_cuda {

namespace {

// Whether the integer type a builtin's mangled parameters start with
// (Itanium's mangling: a builtin type's letter, or Dv<count>_ and its
// element's) is signed; none for what does not parse.
llvm::Optional<bool> signedElements(llvm::StringRef types) {
    if (types.consume_front("Dv"))
        types = types.drop_while([](char c) { return c >= '0' && c <= '9'; }).drop_front();
    if (types.empty())
        return llvm::None;
    return llvm::StringRef("acsilx").contains(types.front()); // char is signed
}

} // namespace

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

void missingAtomics(llvm::Module &module) {
    // _Z<length>atomic_<operation>PU3AS<space>V<element type><the other
    // arguments>, and the same of atom_.
    static const std::regex mangled(
        R"(_Z\d+(atomic|atom)_(add|sub|xchg|min|max|and|or|xor|inc|dec|cmpxchg)PU3AS([134])V([ijlmfd]).*)");
    using Op = llvm::AtomicRMWInst::BinOp;
    for (llvm::Function &f : module) {
        std::smatch match;
        std::string name = f.getName().str();
        if (!f.isDeclaration() || !std::regex_match(name, match, mangled))
            continue;
        const std::string op = match[2];
        const char type = match[4].str()[0];
        const bool generic = match[3] == "4";
        const bool floating = type == 'f' || type == 'd';
        const bool wide = type == 'l' || type == 'm';
        // What libclc defines stays libclc's: 32-bit atomic_* on global and
        // local pointers, float atomic_xchg there.
        const bool missing = floating ? (op == "add" || op == "sub" || (generic && op == "xchg"))
                                      : (generic || (wide && match[1] == "atom"));
        if (!missing)
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        llvm::Value *pointer = f.getArg(0);
        llvm::Type *element = f.getReturnType();
        const bool isSigned = type == 'i' || type == 'l';
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
            Op rmw = op == "add"    ? (floating ? Op::FAdd : Op::Add)
                     : op == "sub"  ? (floating ? Op::FSub : Op::Sub)
                     : op == "xchg" ? Op::Xchg
                     : op == "and"  ? Op::And
                     : op == "or"   ? Op::Or
                     : op == "xor"  ? Op::Xor
                     : op == "min"  ? (isSigned ? Op::Min : Op::UMin)
                                    : (isSigned ? Op::Max : Op::UMax);
            llvm::Value *operand = f.getArg(1);
            if (floating && op == "add") {
                // The SPIR-V reader's atomic load of a float is an add of
                // +0.0, which would turn a stored -0.0 into +0.0: -0.0 is the
                // add's identity for every value.
                llvm::Type *bits = b.getIntNTy(element->getPrimitiveSizeInBits());
                llvm::Value *positiveZero =
                    b.CreateICmpEQ(b.CreateBitCast(operand, bits), llvm::ConstantInt::get(bits, 0));
                operand = b.CreateSelect(positiveZero, llvm::ConstantFP::getNegativeZero(element),
                                         operand);
            }
            old = b.CreateAtomicRMW(rmw, pointer, operand, llvm::MaybeAlign(), order);
        }
        b.CreateRet(old);
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void highHalfProducts(llvm::Module &module) {
    for (llvm::Function &f : module) {
        llvm::StringRef type = f.getName();
        const bool mad = type.consume_front("_Z6mad_hi");
        if (!f.isDeclaration() || !(mad || type.consume_front("_Z6mul_hi")) ||
            f.arg_size() != (mad ? 3u : 2u) || !f.getReturnType()->isIntOrIntVectorTy())
            continue;
        const llvm::Optional<bool> isSigned = signedElements(type);
        if (!isSigned)
            continue;
        llvm::Type *result = f.getReturnType();
        const unsigned bits = result->getScalarSizeInBits();
        llvm::Type *wide = result->getWithNewBitWidth(2 * bits);
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        auto extend = [&](llvm::Value *v) {
            return *isSigned ? b.CreateSExt(v, wide) : b.CreateZExt(v, wide);
        };
        llvm::Value *product = b.CreateMul(extend(f.getArg(0)), extend(f.getArg(1)));
        llvm::Value *high =
            b.CreateTrunc(b.CreateLShr(product, llvm::ConstantInt::get(wide, bits)), result);
        b.CreateRet(mad ? b.CreateAdd(high, f.getArg(2)) : high);
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void countTrailingZeros(llvm::Module &module) {
    for (llvm::Function &f : module) {
        if (!f.isDeclaration() || !f.getName().startswith("_Z3ctz") || f.arg_size() != 1 ||
            !f.getReturnType()->isIntOrIntVectorTy())
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        b.CreateRet(b.CreateBinaryIntrinsic(llvm::Intrinsic::cttz, f.getArg(0),
                                            b.getFalse())); // zero gives the width
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void addressSpaceQueries(llvm::Module &module) {
    struct Cast {
        const char *name;
        llvm::Intrinsic::ID test, convert; // isspacep, cvta.to
    };
    static const Cast casts[] = {
        {"__to_global", llvm::Intrinsic::nvvm_isspacep_global,
         llvm::Intrinsic::nvvm_ptr_gen_to_global},
        {"__to_local", llvm::Intrinsic::nvvm_isspacep_shared,
         llvm::Intrinsic::nvvm_ptr_gen_to_shared},
        {"__to_private", llvm::Intrinsic::nvvm_isspacep_local,
         llvm::Intrinsic::nvvm_ptr_gen_to_local},
    };
    for (llvm::Function &f : module) {
        if (!f.isDeclaration() || f.arg_size() != 1 || !f.getArg(0)->getType()->isPointerTy())
            continue;
        llvm::StringRef name = f.getName();
        const bool fence = name == "_Z9get_fencePU3AS4Kv" || name == "_Z9get_fencePU3AS4v";
        const Cast *cast = std::find_if(std::begin(casts), std::end(casts),
                                        [&](const Cast &c) { return name == c.name; });
        if (!fence && cast == std::end(casts))
            continue;
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        llvm::Value *pointer = f.getArg(0);
        if (fence) {
            constexpr unsigned kLocalFence = 1, kGlobalFence = 2; // CLK_*_MEM_FENCE
            llvm::Value *local =
                b.CreateIntrinsic(llvm::Intrinsic::nvvm_isspacep_shared, {}, {pointer});
            b.CreateRet(b.CreateSelect(local, b.getInt32(kLocalFence), b.getInt32(kGlobalFence)));
        } else {
            // The conversion is PTX's cvta.to, not an addrspacecast: LLVM
            // would fold a cast of a cast of a global pointer into one from
            // global to local, which the NVPTX backend cannot emit.
            llvm::Type *result = f.getReturnType();
            llvm::Value *converted =
                result == pointer->getType()
                    ? pointer
                    : b.CreateIntrinsic(cast->convert, {result, pointer->getType()}, {pointer});
            llvm::Value *inSpace = b.CreateIntrinsic(cast->test, {}, {pointer});
            b.CreateRet(b.CreateSelect(
                inSpace, converted,
                llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(result))));
        }
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

void genericPointerOverloads(llvm::Module &module, const llvm::Module &library) {
    // ...PU3AS4<qualifiers><one type>: a builtin type's letter, half (Dh), a
    // vector, a substitution or a named type (9ocl_event).
    static const std::regex lastGeneric(
        R"((_Z.*)PU3AS4([KV]*(?:[a-z]|Dh|Dv\d+_(?:[a-z]|Dh)|S\d*_|\d+[A-Za-z_]\w*)))");
    for (llvm::Function &f : llvm::make_early_inc_range(module)) {
        std::smatch match;
        const std::string name = f.getName().str();
        if (!f.isDeclaration() || f.use_empty() || !std::regex_match(name, match, lastGeneric))
            continue;
        const std::string privateName = match[1].str() + "P" + match[2].str();
        const llvm::Function *defined = library.getFunction(privateName);
        if (!defined || defined->isDeclaration() ||
            defined->getFunctionType() != f.getFunctionType())
            continue;
        llvm::FunctionCallee overload =
            module.getOrInsertFunction(privateName, f.getFunctionType());
        f.replaceAllUsesWith(overload.getCallee());
        f.eraseFromParent();
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
        const llvm::Optional<bool> isSigned = signedElements(type);
        if (!isSigned)
            continue;
        llvm::Type *result = f.getReturnType();
        llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", &f));
        llvm::Value *low =
            b.CreateBinaryIntrinsic(*isSigned ? llvm::Intrinsic::smax : llvm::Intrinsic::umax,
                                    f.getArg(0), widenTo(b, f.getArg(1), result));
        b.CreateRet(
            b.CreateBinaryIntrinsic(*isSigned ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, low,
                                    widenTo(b, f.getArg(2), result)));
        f.setLinkage(llvm::GlobalValue::InternalLinkage);
    }
}

} // namespace ze_cuda
