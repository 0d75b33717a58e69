#include "work_group_collectives.hpp"

#include "call_rewrite.hpp"

#include <llvm/ADT/APFloat.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <algorithm>
#include <utility>
#include <string>
#include <vector>

namespace ze_driver {
namespace detail {

namespace {

// CLK_LOCAL_MEM_FENCE
constexpr unsigned kLocalFence = 1;

enum class Kind { all, any, broadcast, reduce, scanInclusive, scanExclusive };
// add, min, max: OpenCL C 2.0; the rest: cl_khr_work_group_uniform_arithmetic
// (what the translator makes of SPV_KHR_uniform_group_instructions).
enum class Op {
    add,
    min,
    max,
    mul,
    bitwiseAnd,
    bitwiseOr,
    bitwiseXor,
    logicalAnd,
    logicalOr,
    logicalXor
};

bool isLogical(Op op) {
    return op == Op::logicalAnd || op == Op::logicalOr || op == Op::logicalXor;
}

struct Collective {
    Kind kind;
    Op op;
};

// The collective a builtin name stands for; false for any other name.
bool parse(llvm::StringRef name, Collective *out) {
    if (!name.consume_front("work_group_"))
        return false;
    if (name == "all") {
        *out = {Kind::all, Op::logicalAnd};
        return true;
    }
    if (name == "any") {
        *out = {Kind::any, Op::logicalOr};
        return true;
    }
    if (name == "broadcast") {
        *out = {Kind::broadcast, Op::add};
        return true;
    }
    Kind kind;
    if (name.consume_front("reduce_"))
        kind = Kind::reduce;
    else if (name.consume_front("scan_inclusive_"))
        kind = Kind::scanInclusive;
    else if (name.consume_front("scan_exclusive_"))
        kind = Kind::scanExclusive;
    else
        return false;
    static const std::pair<llvm::StringRef, Op> kOps[] = {
        {"add", Op::add},
        {"min", Op::min},
        {"max", Op::max},
        {"mul", Op::mul},
        {"bitwise_and", Op::bitwiseAnd},
        {"bitwise_or", Op::bitwiseOr},
        {"bitwise_xor", Op::bitwiseXor},
        {"logical_and", Op::logicalAnd},
        {"logical_or", Op::logicalOr},
        {"logical_xor", Op::logicalXor},
    };
    for (const auto &[spelling, op] : kOps)
        if (name == spelling) {
            *out = {kind, op};
            return true;
        }
    return false;
}

// The identity of `op` on `type`; `isSigned` for integers ('i', 'l' in the
// mangled name).
llvm::Constant *identity(Op op, llvm::Type *type, bool isSigned) {
    switch (op) {
    case Op::add:
    case Op::bitwiseOr:
    case Op::bitwiseXor:
    case Op::logicalOr:
    case Op::logicalXor:
        return llvm::Constant::getNullValue(type);
    case Op::logicalAnd:
        return llvm::ConstantInt::get(type, 1);
    case Op::mul:
        return type->isFloatingPointTy() ? llvm::ConstantFP::get(type, 1.0)
                                         : llvm::ConstantInt::get(type, 1);
    case Op::bitwiseAnd:
        return llvm::Constant::getAllOnesValue(type);
    case Op::min:
    case Op::max:
        break;
    }
    const bool min = op == Op::min;
    if (type->isFloatingPointTy())
        return llvm::ConstantFP::getInfinity(type, /*Negative=*/!min);
    const unsigned bits = type->getIntegerBitWidth();
    llvm::APInt value =
        min ? (isSigned ? llvm::APInt::getSignedMaxValue(bits) : llvm::APInt::getMaxValue(bits))
            : (isSigned ? llvm::APInt::getSignedMinValue(bits) : llvm::APInt::getMinValue(bits));
    return llvm::ConstantInt::get(type, value);
}

llvm::Value *combine(llvm::IRBuilder<> &b, Op op, llvm::Value *x, llvm::Value *y, bool isSigned) {
    const bool fp = x->getType()->isFloatingPointTy();
    switch (op) {
    case Op::add:
        return fp ? b.CreateFAdd(x, y) : b.CreateAdd(x, y);
    case Op::mul:
        return fp ? b.CreateFMul(x, y) : b.CreateMul(x, y);
    case Op::bitwiseAnd:
    case Op::logicalAnd: // on 0/1 values
        return b.CreateAnd(x, y);
    case Op::bitwiseOr:
    case Op::logicalOr:
        return b.CreateOr(x, y);
    case Op::bitwiseXor:
    case Op::logicalXor:
        return b.CreateXor(x, y);
    case Op::min:
        if (fp)
            return b.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, x, y);
        return b.CreateSelect(isSigned ? b.CreateICmpSLT(x, y) : b.CreateICmpULT(x, y), x, y);
    case Op::max:
        if (fp)
            return b.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x, y);
        return b.CreateSelect(isSigned ? b.CreateICmpSGT(x, y) : b.CreateICmpUGT(x, y), x, y);
    }
    return nullptr;
}

// The module's scratch array: `maxItems` 8-byte slots of local memory,
// shared by every collective (each ends with a barrier, so the next one
// finds it free).
llvm::GlobalVariable *scratchArray(llvm::Module &module, unsigned maxItems) {
    const char *name = "__ze_work_group_scratch";
    if (llvm::GlobalVariable *existing = module.getGlobalVariable(name, true))
        return existing;
    auto *type = llvm::ArrayType::get(llvm::Type::getInt64Ty(module.getContext()), maxItems);
    return new llvm::GlobalVariable(module, type, /*isConstant=*/false,
                                    llvm::GlobalValue::InternalLinkage,
                                    llvm::UndefValue::get(type), name, nullptr,
                                    llvm::GlobalValue::NotThreadLocal, /*AddressSpace=*/3);
}

llvm::Value *workItem(llvm::IRBuilder<> &b, const char *mangled, unsigned dimension) {
    return callBuiltin(b, mangled, b.getInt64Ty(), {b.getInt32(dimension)});
}

void barrier(llvm::IRBuilder<> &b) {
    callBuiltin(b, "_Z7barrierj", b.getVoidTy(), {b.getInt32(kLocalFence)}, /*convergent=*/true);
}

// The linear id of the work-item at local ids (x, y, z).
llvm::Value *linear(llvm::IRBuilder<> &b, llvm::Value *x, llvm::Value *y, llvm::Value *z) {
    llvm::Value *sizeX = workItem(b, "_Z14get_local_sizej", 0);
    llvm::Value *sizeY = workItem(b, "_Z14get_local_sizej", 1);
    return b.CreateAdd(x, b.CreateMul(sizeX, b.CreateAdd(y, b.CreateMul(sizeY, z))));
}

void define(llvm::Function &f, Collective c, llvm::StringRef params, unsigned maxItems) {
    llvm::LLVMContext &ctx = f.getContext();
    llvm::Module &module = *f.getParent();
    const char element = params.empty() ? 'i' : params.front();
    const bool isSigned = element == 'i' || element == 'l';
    llvm::Type *type = f.getReturnType();
    llvm::Value *x = f.getArg(0);

    auto *entry = llvm::BasicBlock::Create(ctx, "entry", &f);
    llvm::IRBuilder<> b(entry);
    llvm::Value *slots =
        b.CreatePointerCast(scratchArray(module, maxItems), type->getPointerTo(3));
    llvm::Value *id = linear(b, workItem(b, "_Z12get_local_idj", 0),
                             workItem(b, "_Z12get_local_idj", 1),
                             workItem(b, "_Z12get_local_idj", 2));
    llvm::Value *value = x;
    // Logical operations combine truth values: each operand becomes 0 or 1.
    if (c.kind == Kind::all || c.kind == Kind::any || isLogical(c.op))
        value = b.CreateZExt(b.CreateICmpNE(x, llvm::Constant::getNullValue(type)), type);
    // The previous collective's readers are done with the array.
    barrier(b);
    b.CreateStore(value, b.CreateGEP(type, slots, id));
    barrier(b);

    llvm::Value *result;
    if (c.kind == Kind::broadcast) {
        llvm::Value *zero = b.getInt64(0);
        auto arg = [&](unsigned i) { return i < f.arg_size() ? f.getArg(i) : zero; };
        llvm::Value *source = linear(b, arg(1), arg(2), arg(3));
        result = b.CreateLoad(type, b.CreateGEP(type, slots, source));
    } else {
        llvm::Value *end;
        if (c.kind == Kind::scanInclusive)
            end = b.CreateAdd(id, b.getInt64(1));
        else if (c.kind == Kind::scanExclusive)
            end = id;
        else
            end = b.CreateMul(workItem(b, "_Z14get_local_sizej", 0),
                              b.CreateMul(workItem(b, "_Z14get_local_sizej", 1),
                                          workItem(b, "_Z14get_local_sizej", 2)));
        llvm::Constant *start = identity(c.op, type, isSigned);
        auto *loop = llvm::BasicBlock::Create(ctx, "loop", &f);
        auto *done = llvm::BasicBlock::Create(ctx, "done", &f);
        b.CreateCondBr(b.CreateICmpULT(b.getInt64(0), end), loop, done);

        b.SetInsertPoint(loop);
        llvm::PHINode *i = b.CreatePHI(b.getInt64Ty(), 2);
        llvm::PHINode *acc = b.CreatePHI(type, 2);
        i->addIncoming(b.getInt64(0), entry);
        acc->addIncoming(start, entry);
        llvm::Value *next =
            combine(b, c.op, acc, b.CreateLoad(type, b.CreateGEP(type, slots, i)), isSigned);
        llvm::Value *nextI = b.CreateAdd(i, b.getInt64(1));
        i->addIncoming(nextI, loop);
        acc->addIncoming(next, loop);
        b.CreateCondBr(b.CreateICmpULT(nextI, end), loop, done);

        b.SetInsertPoint(done);
        llvm::PHINode *total = b.CreatePHI(type, 2);
        total->addIncoming(start, entry);
        total->addIncoming(next, loop);
        result = total;
    }
    // The array is free again only once every work-item has read it.
    barrier(b);
    b.CreateRet(result);

    f.setLinkage(llvm::GlobalValue::InternalLinkage);
    f.addFnAttr(llvm::Attribute::AlwaysInline);
    f.setConvergent();
}

// PoCL gives a __local array its own memory per work-group only where a
// kernel uses it directly (an OpenCL C kernel declares its __local arrays in
// its body); an array reached through a call is one memory for all the
// work-groups it runs at once. So every function using the scratch array
// is inlined into its callers, until only kernels use it (the module has no
// recursion: recursion_check.hpp refused it).
void inlineIntoKernels(llvm::GlobalVariable &scratch) {
    for (bool changed = true; changed;) {
        changed = false;
        std::vector<llvm::Function *> users;
        for (llvm::User *user : scratch.users()) {
            std::vector<llvm::User *> pending = {user};
            while (!pending.empty()) {
                llvm::User *u = pending.back();
                pending.pop_back();
                if (auto *inst = llvm::dyn_cast<llvm::Instruction>(u)) {
                    llvm::Function *f = inst->getFunction();
                    if (f->getCallingConv() != llvm::CallingConv::SPIR_KERNEL &&
                        std::find(users.begin(), users.end(), f) == users.end())
                        users.push_back(f);
                } else {
                    // A constant expression (a cast of the array): its users.
                    for (llvm::User *next : u->users())
                        pending.push_back(next);
                }
            }
        }
        for (llvm::Function *f : users) {
            std::vector<llvm::CallBase *> calls;
            for (llvm::User *user : f->users())
                if (auto *call = llvm::dyn_cast<llvm::CallBase>(user))
                    calls.push_back(call);
            for (llvm::CallBase *call : calls) {
                llvm::InlineFunctionInfo info;
                changed |= llvm::InlineFunction(*call, info).isSuccess();
            }
            if (f->use_empty() && f->hasLocalLinkage()) {
                f->eraseFromParent();
                changed = true;
            }
        }
    }
}

} // namespace

unsigned defineWorkGroupCollectives(llvm::Module &module, unsigned maxItems) {
    unsigned defined = 0;
    std::vector<llvm::Function *> declarations;
    for (llvm::Function &f : module)
        if (f.isDeclaration())
            declarations.push_back(&f);
    for (llvm::Function *f : declarations) {
        llvm::StringRef name, params;
        Collective c;
        if (!demangleName(f->getName(), &name, &params) || !parse(name, &c) || f->arg_size() == 0)
            continue;
        // The value and the result share a type (the size_t ids of a
        // broadcast come after); anything else is not a collective we know.
        llvm::Type *type = f->getReturnType();
        if (f->getArg(0)->getType() != type ||
            !(type->isIntegerTy(32) || type->isIntegerTy(64) || type->isFloatingPointTy()))
            continue;
        define(*f, c, params, maxItems);
        ++defined;
    }
    if (defined != 0)
        inlineIntoKernels(*scratchArray(module, maxItems));
    return defined;
}

} // namespace detail
} // namespace ze_driver
