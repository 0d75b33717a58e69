#include "missing_builtins.hpp"

#include "call_rewrite.hpp"

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace ze_driver {
namespace detail {

namespace {

// CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE
constexpr uint64_t kLocalAndGlobal = 3;

bool isFence(llvm::StringRef name) {
    return name == "_Z9mem_fencej" || name == "_Z14read_mem_fencej" ||
           name == "_Z15write_mem_fencej";
}

// "_Z8half_expDv4_f" -> "_Z3expDv4_f"; "" when `name` is no half_ function.
// The function name is no substitution candidate, so the parameters'
// substitutions keep their meaning.
std::string fullPrecisionName(llvm::StringRef name, llvm::StringRef &function) {
    llvm::StringRef identifier, params;
    if (!demangleName(name, &identifier, &params) || !identifier.consume_front("half_"))
        return {};
    function = identifier;
    return "_Z" + std::to_string(identifier.size()) + identifier.str() + params.str();
}

// cl_khr_extended_bit_ops' bitfield_insert(base, insert, offset, count),
// bitfield_extract_signed/unsigned(base, offset, count) on integers or their
// vectors (offset and count are uint; offset + count <= the width). A shift
// by the full width is poison in LLVM, so count 0 is selected apart.
std::optional<llvm::Value *> bitfield(llvm::CallInst &call, llvm::StringRef function) {
    llvm::IRBuilder<> b(&call);
    llvm::Value *base = call.getArgOperand(0);
    llvm::Type *type = base->getType();
    llvm::Type *element = type->getScalarType();
    if (!element->isIntegerTy())
        return std::nullopt;
    const unsigned width = element->getIntegerBitWidth();
    const bool insert = function == "bitfield_insert";
    // A uint argument as `type`: converted to the element width, then splat.
    auto asType = [&](llvm::Value *v) {
        v = b.CreateZExtOrTrunc(v, element);
        if (auto *vector = llvm::dyn_cast<llvm::FixedVectorType>(type))
            v = b.CreateVectorSplat(vector->getNumElements(), v);
        return v;
    };
    llvm::Value *offset = asType(call.getArgOperand(insert ? 2 : 1));
    llvm::Value *count = asType(call.getArgOperand(insert ? 3 : 2));
    llvm::Value *zero = llvm::Constant::getNullValue(type);
    llvm::Value *bits = llvm::ConstantInt::get(type, width);
    llvm::Value *none = b.CreateICmpEQ(count, zero);
    if (insert) {
        llvm::Value *mask = b.CreateLShr(llvm::Constant::getAllOnesValue(type), b.CreateSub(bits, count));
        llvm::Value *field = b.CreateShl(mask, offset);
        llvm::Value *value = b.CreateShl(b.CreateAnd(call.getArgOperand(1), mask), offset);
        return b.CreateSelect(none, base, b.CreateOr(b.CreateAnd(base, b.CreateNot(field)), value));
    }
    // The field's top bit to the top, then back down to bit 0.
    llvm::Value *top = b.CreateShl(base, b.CreateSub(b.CreateSub(bits, offset), count));
    llvm::Value *down = function == "bitfield_extract_signed"
                            ? b.CreateAShr(top, b.CreateSub(bits, count))
                            : b.CreateLShr(top, b.CreateSub(bits, count));
    return b.CreateSelect(none, zero, down);
}

} // namespace

unsigned resolveMissingBuiltins(llvm::Module &module) {
    std::vector<llvm::Function *> declarations;
    for (llvm::Function &f : module)
        if (f.isDeclaration())
            declarations.push_back(&f);
    unsigned rewritten = 0;
    for (llvm::Function *f : declarations) {
        llvm::StringRef name = f->getName();
        if (isFence(name)) {
            rewritten += rewriteCalls(*f, [](llvm::CallInst &call) -> std::optional<llvm::Value *> {
                llvm::IRBuilder<>(&call).CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
                return nullptr;
            });
            continue;
        }
        if (name.startswith("_Z17wait_group_events")) {
            llvm::LLVMContext &ctx = module.getContext();
            llvm::FunctionCallee barrier = module.getOrInsertFunction(
                "_Z7barrierj", llvm::Type::getVoidTy(ctx), llvm::Type::getInt32Ty(ctx));
            if (auto *b = llvm::dyn_cast<llvm::Function>(barrier.getCallee()))
                b->setCallingConv(llvm::CallingConv::SPIR_FUNC);
            rewritten += rewriteCalls(*f, [&](llvm::CallInst &call) -> std::optional<llvm::Value *> {
                llvm::IRBuilder<> builder(&call);
                llvm::CallInst *wait =
                    builder.CreateCall(barrier, {builder.getInt32(kLocalAndGlobal)});
                wait->setCallingConv(llvm::CallingConv::SPIR_FUNC);
                wait->setConvergent();
                return nullptr;
            });
            continue;
        }
        llvm::StringRef bitOp, params;
        if (demangleName(name, &bitOp, &params) &&
            (bitOp == "bitfield_insert" || bitOp == "bitfield_extract_signed" ||
             bitOp == "bitfield_extract_unsigned")) {
            rewritten += rewriteCalls(*f, [&](llvm::CallInst &call) { return bitfield(call, bitOp); });
            continue;
        }
        llvm::StringRef function;
        std::string fullName = fullPrecisionName(name, function);
        if (fullName.empty())
            continue;
        if (function == "divide" || function == "recip") {
            rewritten += rewriteCalls(*f, [&](llvm::CallInst &call) -> std::optional<llvm::Value *> {
                llvm::IRBuilder<> builder(&call);
                llvm::Value *x = call.getArgOperand(0);
                if (function == "divide")
                    return builder.CreateFDiv(x, call.getArgOperand(1));
                return builder.CreateFDiv(llvm::ConstantFP::get(x->getType(), 1.0), x);
            });
            continue;
        }
        llvm::FunctionCallee full =
            module.getOrInsertFunction(fullName, f->getFunctionType(), f->getAttributes());
        auto *target = llvm::dyn_cast<llvm::Function>(full.getCallee());
        if (!target || target->getFunctionType() != f->getFunctionType())
            continue; // the name is taken by something else: leave the calls
        target->setCallingConv(f->getCallingConv());
        rewritten += rewriteCalls(*f, [&](llvm::CallInst &call) -> std::optional<llvm::Value *> {
            std::vector<llvm::Value *> args(call.arg_begin(), call.arg_end());
            llvm::CallInst *replacement = llvm::IRBuilder<>(&call).CreateCall(target, args);
            replacement->setCallingConv(call.getCallingConv());
            replacement->setAttributes(call.getAttributes());
            return replacement;
        });
    }
    return rewritten;
}

} // namespace detail
} // namespace ze_driver
