#include "whole_program.hpp"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <set>

namespace imex_l0::compiler {

namespace {

// Builtins are declared overloadable, so their names are Itanium-mangled
// (_Z...); the few unmangled ones (printf, __spirv_*, the block and sampler
// helpers clang calls) and LLVM intrinsics have reserved names. A user's
// function has neither.
bool isBuiltin(llvm::StringRef name) {
    return name.startswith("_Z") || name.startswith("llvm.") || name.startswith("__") ||
           name == "printf";
}

} // namespace

void internalizeHelpers(llvm::Module &module) {
    for (llvm::Function &function : module)
        if (!function.isDeclaration() &&
            function.getCallingConv() != llvm::CallingConv::SPIR_KERNEL)
            function.setLinkage(llvm::GlobalValue::InternalLinkage);
}

std::string undefinedFunctions(const llvm::Module &module) {
    std::string errors;
    for (const llvm::Function &callee : module) {
        if (!callee.isDeclaration() || isBuiltin(callee.getName()))
            continue;
        std::set<std::string> callers;
        for (const llvm::User *user : callee.users())
            if (const auto *call = llvm::dyn_cast<llvm::CallBase>(user))
                callers.insert(call->getFunction()->getName().str());
        if (callers.empty())
            continue;
        std::string names;
        for (const std::string &caller : callers)
            names += (names.empty() ? "'" : ", '") + caller + "'";
        errors += "kernel.cl: error: function '" + callee.getName().str() + "' is called (from " +
                  names +
                  ") but defined nowhere in the program; an OpenCL C program is compiled as a "
                  "whole, so define it in the source (or include its definition)\n";
    }
    return errors;
}

} // namespace imex_l0::compiler
