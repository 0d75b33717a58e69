#include "recursion_check.hpp"

#include <llvm/ADT/SCCIterator.h>
#include <llvm/Analysis/CallGraph.h>
#include <llvm/IR/Module.h>

namespace ze_driver {
namespace detail {

std::string findRecursion(const llvm::Module &module) {
    // CallGraph takes a non-const module but only reads it.
    llvm::CallGraph graph(const_cast<llvm::Module &>(module));
    for (auto scc = llvm::scc_begin(&graph); !scc.isAtEnd(); ++scc) {
        if (!scc.hasCycle())
            continue;
        std::string names;
        for (const llvm::CallGraphNode *node : *scc) {
            const llvm::Function *f = node->getFunction();
            if (!f)
                continue;
            names += (names.empty() ? "" : ", ") + f->getName().str();
        }
        if (names.empty())
            continue; // the external node's own cycle
        return "the module uses recursion (the functions " + names +
               " call each other, or one calls itself): OpenCL C does not support recursion, "
               "and this device cannot run it\n";
    }
    return {};
}

} // namespace detail
} // namespace ze_driver
