#include "inline_program.hpp"

#include <llvm/ADT/SCCIterator.h>
#include <llvm/Analysis/CallGraph.h>

namespace ze_cuda {

namespace {

bool isKernel(const llvm::Function &f) {
    return f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL ||
           f.getCallingConv() == llvm::CallingConv::PTX_Kernel;
}

} // namespace

std::set<std::string> programFunctions(const llvm::Module &module) {
    std::set<std::string> names;
    for (const llvm::Function &f : module)
        if (!f.isDeclaration() && !isKernel(f))
            names.insert(f.getName().str());
    return names;
}

void inlineProgramFunctions(llvm::Module &module, const std::set<std::string> &program) {
    llvm::CallGraph graph(module);
    for (auto scc = llvm::scc_begin(&graph); !scc.isAtEnd(); ++scc) {
        if (scc.hasCycle())
            continue; // recursion: the inliner could not remove the call
        llvm::Function *f = (*scc).front()->getFunction();
        if (f == nullptr || f->isDeclaration() || isKernel(*f) ||
            f->hasFnAttribute(llvm::Attribute::NoInline) || !program.count(f->getName().str()))
            continue;
        f->addFnAttr(llvm::Attribute::AlwaysInline);
    }
}

} // namespace ze_cuda
