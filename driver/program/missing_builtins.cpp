#include "missing_builtins.hpp"

#include "call_rewrite.hpp"

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include <cctype>
#include <string>
#include <vector>

namespace ze_opencl {
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
    if (!name.consume_front("_Z"))
        return {};
    size_t digits = 0;
    while (digits < name.size() && std::isdigit(static_cast<unsigned char>(name[digits])))
        ++digits;
    unsigned length = 0;
    if (digits == 0 || name.take_front(digits).getAsInteger(10, length) ||
        name.size() < digits + length)
        return {};
    llvm::StringRef identifier = name.substr(digits, length);
    if (!identifier.consume_front("half_"))
        return {};
    function = identifier;
    return "_Z" + std::to_string(identifier.size()) + identifier.str() +
           name.substr(digits + length).str();
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
} // namespace ze_opencl
