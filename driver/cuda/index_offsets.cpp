#include "index_offsets.hpp"

#include "index_sums.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Passes/PassBuilder.h>

#include <map>
#include <vector>

namespace ze_cuda {

namespace {

// Whether it rewrote any extension.
bool shareInBlock(llvm::BasicBlock &block) {
    struct Extension {
        llvm::SExtInst *ext;
        int64_t constant;
    };
    // Sign extensions of 32-bit sums, by their terms, first one first.
    std::map<std::map<llvm::Value *, int64_t>, std::vector<Extension>> byTerms;
    for (llvm::Instruction &i : block) {
        llvm::SExtInst *ext = indexExtension(i);
        if (ext == nullptr)
            continue;
        auto *sum = llvm::dyn_cast<llvm::Instruction>(ext->getOperand(0));
        if (sum == nullptr || sum->getParent() != &block)
            continue;
        Sum flat;
        flatten(sum, 1, flat);
        if (flat.terms.empty())
            continue;
        byTerms[flat.terms].push_back({ext, flat.constant});
    }
    bool changed = false;
    for (auto &[terms, all] : byTerms) {
        if (all.size() < 2)
            continue;
        // The sums' flags hold only where their poison would be undefined
        // behaviour every time the block runs (a scan of the block from each
        // sum: asked only of sums that have a partner).
        std::vector<Extension> extensions;
        for (const Extension &e : all)
            if (llvm::programUndefinedIfPoison(llvm::cast<llvm::Instruction>(e.ext->getOperand(0))))
                extensions.push_back(e);
        if (extensions.size() < 2)
            continue;
        const Extension &first = extensions.front();
        for (size_t n = 1; n < extensions.size(); ++n) {
            const Extension &later = extensions[n];
            llvm::IRBuilder<> builder(later.ext);
            const int64_t offset = later.constant - first.constant;
            llvm::Value *shared =
                offset == 0 ? static_cast<llvm::Value *>(first.ext)
                            : builder.CreateNSWAdd(first.ext, builder.getInt64(uint64_t(offset)));
            later.ext->replaceAllUsesWith(shared);
            later.ext->eraseFromParent();
            changed = true;
        }
    }
    return changed;
}

} // namespace

llvm::PreservedAnalyses IndexOffsetsPass::run(llvm::Function &f, llvm::FunctionAnalysisManager &) {
    bool changed = false;
    for (llvm::BasicBlock &block : f)
        changed |= shareInBlock(block);
    if (!changed)
        return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

void addIndexOffsets(llvm::PassBuilder &builder) {
    builder.registerPeepholeEPCallback(
        [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
            passes.addPass(IndexOffsetsPass());
        });
}

} // namespace ze_cuda
