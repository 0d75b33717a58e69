#include "generic_builtins.hpp"

#include "call_rewrite.hpp"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <string>
#include <vector>

namespace ze_driver {
namespace detail {

namespace {

constexpr unsigned kGeneric = 4;
constexpr unsigned kGlobal = 1;

llvm::Type *globalInsteadOfGeneric(llvm::Type *type) {
    auto *pointer = llvm::dyn_cast<llvm::PointerType>(type);
    if (!pointer || pointer->getAddressSpace() != kGeneric)
        return type;
    if (pointer->isOpaque())
        return llvm::PointerType::get(type->getContext(), kGlobal);
    return llvm::PointerType::get(pointer->getNonOpaquePointerElementType(), kGlobal);
}

// The global overload of a generic builtin, or nullptr when the declaration
// is not one (defined here, not mangled, returns a generic pointer).
llvm::Function *globalOverload(llvm::Function &generic) {
    llvm::StringRef name = generic.getName();
    if (!generic.isDeclaration() || !name.startswith("_Z") || !name.contains("U3AS4"))
        return nullptr;
    llvm::FunctionType *type = generic.getFunctionType();
    if (globalInsteadOfGeneric(type->getReturnType()) != type->getReturnType())
        return nullptr;
    std::vector<llvm::Type *> params;
    for (llvm::Type *param : type->params())
        params.push_back(globalInsteadOfGeneric(param));
    std::string globalName = name.str();
    for (size_t at = globalName.find("U3AS4"); at != std::string::npos;
         at = globalName.find("U3AS4", at))
        globalName[at + 4] = '1';
    auto *globalType = llvm::FunctionType::get(type->getReturnType(), params, type->isVarArg());
    llvm::FunctionCallee callee =
        generic.getParent()->getOrInsertFunction(globalName, globalType, generic.getAttributes());
    auto *function = llvm::dyn_cast<llvm::Function>(callee.getCallee());
    if (!function || function->getFunctionType() != globalType)
        return nullptr; // the name is taken by something else: leave the call alone
    function->setCallingConv(generic.getCallingConv());
    return function;
}

} // namespace

unsigned resolveGenericBuiltins(llvm::Module &module) {
    std::vector<llvm::Function *> generics;
    for (llvm::Function &function : module)
        if (function.isDeclaration() && function.getName().contains("U3AS4"))
            generics.push_back(&function);
    unsigned rewritten = 0;
    for (llvm::Function *generic : generics) {
        llvm::Function *global = globalOverload(*generic);
        if (!global)
            continue;
        rewritten +=
            rewriteCalls(*generic, [&](llvm::CallInst &call) -> std::optional<llvm::Value *> {
                llvm::IRBuilder<> builder(&call);
                std::vector<llvm::Value *> args;
                for (unsigned i = 0; i < call.arg_size(); ++i) {
                    llvm::Value *arg = call.getArgOperand(i);
                    llvm::Type *wanted = global->getFunctionType()->getParamType(i);
                    args.push_back(
                        arg->getType() == wanted ? arg : builder.CreateAddrSpaceCast(arg, wanted));
                }
                llvm::CallInst *replacement = builder.CreateCall(global, args);
                replacement->setCallingConv(call.getCallingConv());
                replacement->setAttributes(call.getAttributes());
                replacement->takeName(&call);
                return replacement;
            });
    }
    return rewritten;
}

} // namespace detail
} // namespace ze_driver
