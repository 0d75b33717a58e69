#include "pure_calls.hpp"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/IPO/Inliner.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/GVN.h>
#include <llvm/Transforms/Scalar/SROA.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace ze_cuda {

namespace {

// Whether inlining `f` brings branches: its own, or those of a function it
// calls. Straight code of equal calls (get_global_id) GVN merges inlined.
bool bringsBranches(const llvm::Function &f, std::map<const llvm::Function *, bool> &known) {
    auto [at, added] = known.emplace(&f, false); // false while open: calls do not recurse
    if (!added)
        return at->second;
    bool branches = f.size() > 1;
    for (const llvm::BasicBlock &block : f)
        for (const llvm::Instruction &i : block)
            if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&i))
                if (const llvm::Function *callee = call->getCalledFunction())
                    branches =
                        branches || (!callee->isDeclaration() && bringsBranches(*callee, known));
    known[&f] = branches;
    return branches;
}

// How many calls of each held function inlining `f`'s other callees
// would leave in `f` (calls in a loop count once: two equal calls are what
// merges).
using CallCounts = std::map<const llvm::Function *, unsigned>;
const CallCounts &heldCalls(const llvm::Function &f, const std::set<const llvm::Function *> &held,
                            std::map<const llvm::Function *, CallCounts> &known) {
    auto [at, added] = known.emplace(&f, CallCounts()); // empty while open
    if (!added)
        return at->second;
    CallCounts counts;
    for (const llvm::BasicBlock &block : f)
        for (const llvm::Instruction &i : block)
            if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&i)) {
                const llvm::Function *callee = call->getCalledFunction();
                if (!callee || callee->isDeclaration())
                    continue;
                if (held.count(callee)) {
                    ++counts[callee];
                    continue;
                }
                for (const auto &[heldCallee, n] : heldCalls(*callee, held, known))
                    counts[heldCallee] += n;
            }
    return at->second = std::move(counts); // a map's entries stay where they are
}

// Whether some function (a kernel, or a held function itself), its other
// callees inlined, would call one held function twice or more: the only way
// two calls can merge. Without such a function the module is left as it is
// (the pass would only reorder it: a kernel of one sin and one cos, Parboil's
// mri-q ComputeQ, ran 1.25x NVIDIA's time after it, 1.02x before, on an
// H200; the PTX of its hot loop unchanged).
bool mayMerge(const llvm::Module &module, const std::set<const llvm::Function *> &held) {
    std::map<const llvm::Function *, CallCounts> known;
    for (const llvm::Function &f : module)
        if (!f.isDeclaration())
            for (const auto &counted : heldCalls(f, held, known))
                if (counted.second >= 2)
                    return true;
    return false;
}

} // namespace

void mergePureCalls(llvm::Module &module) {
    std::set<const llvm::Function *> held;
    std::map<const llvm::Function *, bool> branchy;
    for (llvm::Function &f : module)
        if (!f.isDeclaration() && f.doesNotAccessMemory() &&
            f.getReturnType()->isFPOrFPVectorTy() &&
            f.getCallingConv() != llvm::CallingConv::PTX_Kernel &&
            !f.hasFnAttribute(llvm::Attribute::NoInline) &&
            !f.hasFnAttribute(llvm::Attribute::AlwaysInline) && bringsBranches(f, branchy))
            held.insert(&f);
    if (held.empty() || !mayMerge(module, held))
        return;
    std::vector<std::string> names; // by name: a function whose calls all merge away may be deleted
    for (llvm::Function &f : module)
        if (held.count(&f)) {
            f.addFnAttr(llvm::Attribute::NoInline);
            names.push_back(f.getName().str());
        }

    llvm::LoopAnalysisManager loops;
    llvm::FunctionAnalysisManager functions;
    llvm::CGSCCAnalysisManager sccs;
    llvm::ModuleAnalysisManager modules;
    // LLVM's target-independent inlining costs, not NVPTX's (five times the
    // threshold), with which this pass inlined so much of GEGL's noise-cell
    // that its PTX grew 4.5 times; -O3 afterwards inlines with NVPTX's.
    llvm::PassBuilder builder;
    builder.registerModuleAnalyses(modules);
    builder.registerCGSCCAnalyses(sccs);
    builder.registerFunctionAnalyses(functions);
    builder.registerLoopAnalyses(loops);
    builder.crossRegisterProxies(loops, functions, sccs, modules);

    llvm::FunctionPassManager simplify;
    simplify.addPass(llvm::SROAPass());
    simplify.addPass(llvm::InstCombinePass());
    simplify.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/true));
    simplify.addPass(llvm::GVNPass());
    llvm::CGSCCPassManager inline_;
    inline_.addPass(llvm::InlinerPass());
    inline_.addPass(llvm::createCGSCCToFunctionPassAdaptor(std::move(simplify)));
    llvm::ModulePassManager passes;
    passes.addPass(llvm::createModuleToPostOrderCGSCCPassAdaptor(std::move(inline_)));
    passes.run(module, modules);

    for (const std::string &name : names)
        if (llvm::Function *f = module.getFunction(name))
            f->removeFnAttr(llvm::Attribute::NoInline);
}

} // namespace ze_cuda
