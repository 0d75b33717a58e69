// Definitions the translation writes for builtins a module declares but
// neither it nor libclc's NVPTX library defines as the launch needs them
// (the launch values' work-item builtins, OpenCL 2.0's work-item builtins).
#pragma once

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

namespace ze_cuda {

// Gives `name`, where the module declares it and has no body for it, the
// one-block body whose result `body(builder, function)` builds, internal to
// the module: libclc's definition of the same name is then not linked in.
// Builtins the module does not call stay undeclared.
template <typename Body> void defineDeclared(llvm::Module &module, const char *name, Body body) {
    llvm::Function *f = module.getFunction(name);
    if (!f || !f->isDeclaration())
        return;
    llvm::IRBuilder<> b(llvm::BasicBlock::Create(module.getContext(), "", f));
    b.CreateRet(body(b, f));
    f->setLinkage(llvm::GlobalValue::InternalLinkage);
}

} // namespace ze_cuda
