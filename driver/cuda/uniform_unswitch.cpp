#include "uniform_unswitch.hpp"

#include "loop_properties.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/LoopSimplify.h>
#include <llvm/Transforms/Utils/LoopUtils.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <utility>
#include <vector>

namespace ze_cuda {

namespace {

// Code size: the loop is copied.
constexpr unsigned kMostInstructions = 240;
// How deep a condition's operands are followed to the kernel's arguments.
constexpr unsigned kMostDepth = 8;
// Loop metadata of the two loops an unswitching made: neither is unswitched
// again (the pass runs after every InstCombine of the pipeline).
constexpr const char *kUnswitched = "ze_cuda.loop.unswitched";

bool groupUniformIntrinsic(const llvm::IntrinsicInst &call) {
    switch (call.getIntrinsicID()) {
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_y:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_z:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y:
    case llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z:
        return true;
    default:
        return false;
    }
}

// Whether every work-item of a work-group computes the same `value` in a
// kernel: constants and the kernel's arguments, the group's ids and sizes,
// and arithmetic, comparisons, casts and selects of those. (A load may read
// what other work-items write; a work-item id differs by definition.)
bool uniform(const llvm::Value *value, unsigned depth = 0) {
    if (llvm::isa<llvm::Constant>(value) || llvm::isa<llvm::Argument>(value))
        return true;
    const auto *i = llvm::dyn_cast<llvm::Instruction>(value);
    if (i == nullptr || depth == kMostDepth)
        return false;
    if (const auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(i))
        return groupUniformIntrinsic(*call);
    if (!llvm::isa<llvm::BinaryOperator, llvm::CmpInst, llvm::CastInst, llvm::SelectInst,
                   llvm::FreezeInst>(i))
        return false;
    for (const llvm::Use &operand : i->operands())
        if (!uniform(operand.get(), depth + 1))
            return false;
    return true;
}

// Whether the operands of a uniform `value` come from outside the loop: it
// can be computed before the loop (it may sit in the loop until LICM).
bool invariantOperands(const llvm::Loop &loop, const llvm::Value *value) {
    const auto *i = llvm::dyn_cast<llvm::Instruction>(value);
    if (i == nullptr || !loop.contains(i))
        return true;
    if (llvm::isa<llvm::PHINode>(i))
        return false;
    for (const llvm::Use &operand : i->operands())
        if (!invariantOperands(loop, operand.get()))
            return false;
    return true;
}

// A use of `condition` in the loop that unswitching removes a part of the
// loop for: a branch both of whose targets stay in the loop, or a select.
bool picksWithinLoop(const llvm::Loop &loop, const llvm::Instruction &user) {
    if (const auto *branch = llvm::dyn_cast<llvm::BranchInst>(&user))
        return branch->isConditional() && loop.contains(branch->getSuccessor(0)) &&
               loop.contains(branch->getSuccessor(1));
    return llvm::isa<llvm::SelectInst>(user);
}

// The condition to unswitch `loop` on, or nullptr.
llvm::Value *unswitchCondition(const llvm::Loop &loop) {
    if (!loop.isInnermost() || !loop.isSafeToClone() || hasLoopMetadata(loop, kUnswitched))
        return nullptr;
    const unsigned size = bodySize(loop);
    if (size == 0 || size > kMostInstructions)
        return nullptr;
    for (llvm::BasicBlock *block : loop.blocks())
        for (llvm::Instruction &i : *block) {
            if (!picksWithinLoop(loop, i))
                continue;
            llvm::Value *condition = llvm::isa<llvm::BranchInst>(i)
                                         ? llvm::cast<llvm::BranchInst>(i).getCondition()
                                         : llvm::cast<llvm::SelectInst>(i).getCondition();
            if (!llvm::isa<llvm::Constant>(condition) && condition->getType()->isIntegerTy(1) &&
                uniform(condition) && invariantOperands(loop, condition))
                return condition;
        }
    return nullptr;
}

// Marks a loop unswitching made (its copy gets an ID of its own).
void markUnswitched(llvm::Loop &loop) {
    addLoopMetadata(loop, {llvm::MDString::get(loop.getHeader()->getContext(), kUnswitched)});
}

// Two copies of `loop` (simplified, in LCSSA form), the first run where
// `condition` holds and the second where it does not, chosen before them;
// in each, the condition's uses are its value there, and the branches on
// it are folded. False where the condition cannot be computed before the
// loop.
bool unswitch(llvm::Loop &loop, llvm::Value *condition, llvm::DominatorTree &dt,
              llvm::LoopInfo &li) {
    if (auto *i = llvm::dyn_cast<llvm::Instruction>(condition)) {
        bool changed = false;
        if (!loop.makeLoopInvariant(i, changed))
            return false;
    }
    llvm::BasicBlock *before = loop.getLoopPreheader();
    llvm::BasicBlock *preheader = llvm::SplitBlock(before, before->getTerminator(), &dt, &li);
    llvm::ValueToValueMapTy map;
    llvm::SmallVector<llvm::BasicBlock *, 16> blocks;
    llvm::Loop *copy = llvm::cloneLoopWithPreheader(preheader, before, &loop, map, ".unswitched",
                                                    &li, &dt, blocks);
    llvm::remapInstructionsInBlocks(blocks, map);
    markUnswitched(loop);
    markUnswitched(*copy);

    // The exits' LCSSA phis take the copy's values from the copy's blocks.
    llvm::SmallVector<llvm::BasicBlock *, 4> exits;
    loop.getUniqueExitBlocks(exits);
    for (llvm::BasicBlock *exit : exits)
        for (llvm::PHINode &phi : exit->phis())
            for (unsigned n = phi.getNumIncomingValues(), k = 0; k < n; ++k) {
                llvm::BasicBlock *from = phi.getIncomingBlock(k);
                if (!loop.contains(from))
                    continue;
                llvm::Value *value = phi.getIncomingValue(k);
                llvm::Value *copied = map.lookup(value);
                phi.addIncoming(copied ? copied : value, llvm::cast<llvm::BasicBlock>(map[from]));
            }

    // Chosen once: a frozen condition, so that a loop that would not have
    // run does not branch on poison.
    llvm::Instruction *entry = before->getTerminator();
    llvm::IRBuilder<> b(entry);
    b.CreateCondBr(b.CreateFreeze(condition), preheader,
                   llvm::cast<llvm::BasicBlock>(map[preheader]));
    entry->eraseFromParent();

    llvm::LLVMContext &ctx = condition->getContext();
    for (llvm::Use &use : llvm::make_early_inc_range(condition->uses())) {
        auto *user = llvm::dyn_cast<llvm::Instruction>(use.getUser());
        if (user == nullptr)
            continue;
        if (loop.contains(user))
            use.set(llvm::ConstantInt::getTrue(ctx));
        else if (copy->contains(user))
            use.set(llvm::ConstantInt::getFalse(ctx));
    }
    for (llvm::Loop *version : {&loop, copy})
        for (llvm::BasicBlock *block : version->blocks())
            llvm::ConstantFoldTerminator(block, true);
    return true;
}

bool isKernel(const llvm::Function &function) {
    return function.getCallingConv() == llvm::CallingConv::PTX_Kernel;
}

struct UniformUnswitch : llvm::PassInfoMixin<UniformUnswitch> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses) {
        if (!isKernel(function) || function.isDeclaration())
            return llvm::PreservedAnalyses::all();
        // The loops' headers and conditions first; each loop is then found
        // again in the analyses of the function as the last one left it.
        std::vector<std::pair<llvm::BasicBlock *, llvm::Value *>> candidates;
        for (llvm::Loop *loop :
             analyses.getResult<llvm::LoopAnalysis>(function).getLoopsInPreorder())
            if (llvm::Value *condition = unswitchCondition(*loop))
                candidates.emplace_back(loop->getHeader(), condition);
        bool changed = false;
        for (const auto &[header, condition] : candidates) {
            if (changed) // a copying keeps the exits' dominators only in part
                analyses.invalidate(function, llvm::PreservedAnalyses::none());
            auto &dt = analyses.getResult<llvm::DominatorTreeAnalysis>(function);
            auto &li = analyses.getResult<llvm::LoopAnalysis>(function);
            llvm::Loop *loop = li.getLoopFor(header);
            if (loop == nullptr || loop->getHeader() != header)
                continue;
            changed |= llvm::simplifyLoop(loop, &dt, &li, nullptr, nullptr, nullptr, false);
            changed |= llvm::formLCSSA(*loop, dt, &li, nullptr);
            changed |= unswitch(*loop, condition, dt, li);
        }
        if (!changed)
            return llvm::PreservedAnalyses::all();
        llvm::removeUnreachableBlocks(function);
        return llvm::PreservedAnalyses::none();
    }
};

} // namespace

void addUniformUnswitch(llvm::PassBuilder &builder) {
    builder.registerPeepholeEPCallback(
        [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
            passes.addPass(UniformUnswitch());
        });
}

} // namespace ze_cuda
