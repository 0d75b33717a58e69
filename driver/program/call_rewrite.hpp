// Replacing the calls of one declared builtin, and calling another, shared
// by the module rewrites that run after translation (generic_builtins.cpp,
// sub_groups.cpp, work_group_collectives.cpp).
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <optional>
#include <vector>

namespace ze_driver {
namespace detail {

// For every call of `callee`, `rewrite` inserts what replaces it before the
// call and returns the call's new value (nullptr for a call without a value),
// or nothing to leave that call alone. A rewritten call is erased, and so is
// `callee` once nothing uses it. Returns the number of calls rewritten.
inline unsigned
rewriteCalls(llvm::Function &callee,
             llvm::function_ref<std::optional<llvm::Value *>(llvm::CallInst &)> rewrite) {
    std::vector<llvm::CallInst *> calls;
    for (llvm::User *user : callee.users())
        if (auto *call = llvm::dyn_cast<llvm::CallInst>(user);
            call && call->getCalledFunction() == &callee)
            calls.push_back(call);
    unsigned rewritten = 0;
    for (llvm::CallInst *call : calls) {
        std::optional<llvm::Value *> value = rewrite(*call);
        if (!value)
            continue;
        if (*value)
            call->replaceAllUsesWith(*value);
        call->eraseFromParent();
        ++rewritten;
    }
    if (callee.use_empty())
        callee.eraseFromParent();
    return rewritten;
}

// "_Z<length><name><parameters>" -> name and parameters; false otherwise.
inline bool demangleName(llvm::StringRef mangled, llvm::StringRef *name, llvm::StringRef *params) {
    if (!mangled.consume_front("_Z"))
        return false;
    size_t length = 0;
    if (mangled.consumeInteger(10, length) || length == 0 || length > mangled.size())
        return false;
    *name = mangled.take_front(length);
    *params = mangled.drop_front(length);
    return true;
}

// A call of the device library's builtin `mangled` (declared if need be),
// with SPIR's calling convention; convergent for barriers and collectives.
inline llvm::CallInst *callBuiltin(llvm::IRBuilder<> &b, const char *mangled, llvm::Type *result,
                                   llvm::ArrayRef<llvm::Value *> args, bool convergent = false) {
    llvm::Module &module = *b.GetInsertBlock()->getModule();
    std::vector<llvm::Type *> params;
    for (llvm::Value *arg : args)
        params.push_back(arg->getType());
    llvm::FunctionCallee f =
        module.getOrInsertFunction(mangled, llvm::FunctionType::get(result, params, false));
    if (auto *function = llvm::dyn_cast<llvm::Function>(f.getCallee())) {
        function->setCallingConv(llvm::CallingConv::SPIR_FUNC);
        if (convergent)
            function->setConvergent();
    }
    llvm::CallInst *call = b.CreateCall(f, args);
    call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
    if (convergent)
        call->setConvergent();
    return call;
}

} // namespace detail
} // namespace ze_driver
