// Replacing the calls of one declared builtin, shared by the module rewrites
// that run after translation (generic_builtins.cpp, sub_groups.cpp).
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

#include <optional>
#include <vector>

namespace ze_opencl {
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

} // namespace detail
} // namespace ze_opencl
