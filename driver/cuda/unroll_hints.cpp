#include "unroll_hints.hpp"

#include "loop_properties.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>

#include <cstdint>
#include <iterator>

namespace ze_cuda {

namespace {

constexpr unsigned kUnrollCount = 4;
// The most instructions a loop body may have to be unrolled four times (a
// register budget: four copies of it live at once); bodies of up to twice
// as many are unrolled twice, as NVIDIA's OpenCL unrolls GEGL's motion blur
// (its fast-math loop, 61 instructions, 1.11x-1.12x NVIDIA's time left
// rolled, 1.03x-1.04x unrolled twice on an H100; GEGL's circular motion
// blur went from 1.02x to 1.04x).
constexpr unsigned kMostInstructions = 60;

// Whether the loop's metadata already says how to unroll it (a directive of
// the source, or a transformation already done).
bool hasUnrollDirective(const llvm::Loop &loop) {
    return hasLoopMetadata(loop, "llvm.loop.unroll");
}

// The most iterations of a loop unrolled whole to keep a private array in
// registers.
constexpr unsigned kMostIterationsForArrays = 32;

// Whether the loop indexes a private array (an alloca) by something that
// changes from one iteration to the next: kept in local memory unless the
// loop is unrolled whole and each access gets a constant index.
bool indexesPrivateArray(const llvm::Loop &loop) {
    for (llvm::BasicBlock *block : loop.blocks())
        for (llvm::Instruction &i : *block) {
            llvm::Value *pointer = nullptr;
            if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&i))
                pointer = load->getPointerOperand();
            else if (auto *store = llvm::dyn_cast<llvm::StoreInst>(&i))
                pointer = store->getPointerOperand();
            auto *gep = llvm::dyn_cast_or_null<llvm::GetElementPtrInst>(pointer);
            if (gep == nullptr || gep->hasAllConstantIndices() ||
                !llvm::isa<llvm::AllocaInst>(llvm::getUnderlyingObject(gep)))
                continue;
            for (llvm::Value *index : gep->indices())
                if (!loop.isLoopInvariant(index))
                    return true;
        }
    return false;
}

void unrollBy(llvm::Loop &loop, unsigned count) {
    llvm::LLVMContext &ctx = loop.getHeader()->getContext();
    addLoopMetadata(loop, {llvm::MDString::get(ctx, "llvm.loop.unroll.count"),
                           llvm::ConstantAsMetadata::get(
                               llvm::ConstantInt::get(llvm::Type::getInt32Ty(ctx), count))});
}

// Whether LLVM's whole unrolling at -O3 takes the loop: its estimate of
// the loop unrolled whole (the body but its phis, the latch's compare and
// branch once) within its threshold.
bool unrolledWholeByLlvm(const llvm::Loop &loop, unsigned trips) {
    constexpr uint64_t kWholeUnrollThreshold = 300; // LLVM's at -O3
    uint64_t instructions = 0;
    for (llvm::BasicBlock *block : loop.blocks())
        instructions +=
            block->size() - uint64_t(std::distance(block->phis().begin(), block->phis().end()));
    return instructions > 2 && (instructions - 2) * trips + 2 <= kWholeUnrollThreshold;
}

// An innermost loop of a constant trip count over 16, unrolled eight times
// where eight divide the count, as NVIDIA's OpenCL does where LLVM does less
// (its partial unrolling stops at about 75 instructions on NVPTX): clpeak's
// chains of multiply-adds (bodies of 16 to 64 of them) were unrolled four
// times or not at all, each copy paying the loop's own instructions and
// branch (1.08x-1.11x NVIDIA's time on an H200; 1.00x-1.02x unrolled).
// Shorter loops are left to LLVM's whole unrolling: unrolled whole beyond
// it, clpeak's loops of 16 iterations over vectors of four chars or shorts
// ran 1.24x slower. So are the loops LLVM unrolls whole anyway: mixbench's
// eight loops of 64 dependent multiply-adds each, unrolled whole, become one
// block in which the GPU interleaves the eight chains; unrolled eight times,
// each chain ran alone in its own loop, 1.25x NVIDIA's time (an H100).
llvm::PreservedAnalyses unrollCounted(llvm::Loop &loop, unsigned trips) {
    constexpr unsigned kCountedUnroll = 8;
    constexpr unsigned kMostCountedInstructions = 600; // code size: 8 copies of 600
    const unsigned size = bodySize(loop);
    if (trips > 2 * kCountedUnroll && trips % kCountedUnroll == 0 && size > 0 &&
        size <= kMostCountedInstructions && !unrolledWholeByLlvm(loop, trips))
        unrollBy(loop, kCountedUnroll);
    return llvm::PreservedAnalyses::all();
}

// A short search through memory: an innermost loop with a counted exit (a
// bound known when it starts) and exits on values it loads, such as Parboil's
// splitRearrange walking back through local memory while the keys equal its
// own (`while (i >= 0 && a[i] == mine) i--`). NVIDIA's OpenCL unrolls such a
// loop four times, each copy with its own load and test, and where the count
// is a multiple of four drops the counted exit from three of the copies; the
// loop's own instructions (counter, index, back branch) are then paid once
// per four loads. LLVM's unroller does the same given the count (its
// remainder loop needs a single exit, so the copies keep their exits).
// Loops that exit on computed values (Mandelbrot's |z| > 2) stay rolled:
// their bodies are long next to what unrolling saves.
bool isShortSearch(const llvm::Loop &loop, llvm::ScalarEvolution &se) {
    constexpr unsigned kMostSearchInstructions = 16;
    llvm::SmallVector<llvm::BasicBlock *, 4> exiting;
    loop.getExitingBlocks(exiting);
    if (exiting.size() < 2)
        return false;
    bool counted = false;
    for (llvm::BasicBlock *block : exiting) {
        if (!llvm::isa<llvm::SCEVCouldNotCompute>(se.getExitCount(&loop, block))) {
            counted = true;
            continue;
        }
        auto *branch = llvm::dyn_cast<llvm::BranchInst>(block->getTerminator());
        auto *compare = branch && branch->isConditional()
                            ? llvm::dyn_cast<llvm::CmpInst>(branch->getCondition())
                            : nullptr;
        if (compare == nullptr)
            return false;
        auto loadedHere = [&](llvm::Value *v) {
            auto *load = llvm::dyn_cast<llvm::LoadInst>(v);
            return load != nullptr && loop.contains(load);
        };
        if (!loadedHere(compare->getOperand(0)) && !loadedHere(compare->getOperand(1)))
            return false;
    }
    const unsigned size = bodySize(loop);
    return counted && size > 0 && size <= kMostSearchInstructions;
}

struct UnrollHints : llvm::PassInfoMixin<UnrollHints> {
    llvm::PreservedAnalyses run(llvm::Loop &loop, llvm::LoopAnalysisManager &,
                                llvm::LoopStandardAnalysisResults &results, llvm::LPMUpdater &) {
        if (hasUnrollDirective(loop))
            return llvm::PreservedAnalyses::all();
        const unsigned trips = results.SE.getSmallConstantTripCount(&loop);
        if (trips != 0 && trips <= kMostIterationsForArrays && indexesPrivateArray(loop)) {
            addLoopMetadata(loop, {llvm::MDString::get(loop.getHeader()->getContext(),
                                                       "llvm.loop.unroll.full")});
            return llvm::PreservedAnalyses::all();
        }
        if (!loop.isInnermost())
            return llvm::PreservedAnalyses::all();
        if (isShortSearch(loop, results.SE)) {
            unrollBy(loop, kUnrollCount);
            return llvm::PreservedAnalyses::all();
        }
        if (loop.getExitingBlock() == nullptr)
            return llvm::PreservedAnalyses::all();
        if (trips != 0)
            return unrollCounted(loop, trips);
        // Only a loop that counts to a bound known when it starts: unrolled,
        // its copies run without exit tests, the remainder after them. A
        // loop that leaves on a condition of its data (Mandelbrot's |z| > 2)
        // would keep a test and a branch in every copy: no saving, more code.
        if (llvm::isa<llvm::SCEVCouldNotCompute>(results.SE.getBackedgeTakenCount(&loop)))
            return llvm::PreservedAnalyses::all();
        // A loop with a barrier or another convergent call cannot be
        // unrolled with a remainder (every work-item must reach each call).
        const unsigned instructions = bodySize(loop);
        if (instructions == 0 || instructions > 2 * kMostInstructions)
            return llvm::PreservedAnalyses::all();
        unrollBy(loop, instructions <= kMostInstructions ? kUnrollCount : 2);
        return llvm::PreservedAnalyses::all();
    }
};

// OpenCL C marks every call convergent (any function may hold a barrier),
// and inlining a builtin marks the calls of its body so: libclc's floor
// becomes a convergent call of llvm.floor. A loop holding a convergent call
// is not unrolled with a remainder, by this pass (bodySize) nor by LLVM's
// runtime unrolling: a loop that floors or rounds keeps its single copy.
// Calls of intrinsics lose the mark their declaration does not have (a
// barrier's intrinsic is declared convergent).
struct NonConvergentIntrinsics : llvm::PassInfoMixin<NonConvergentIntrinsics> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &) {
        for (llvm::BasicBlock &block : function)
            for (llvm::Instruction &i : block)
                if (auto *call = llvm::dyn_cast<llvm::CallBase>(&i)) {
                    const llvm::Function *callee = call->getCalledFunction();
                    if (callee && callee->isIntrinsic() && !callee->isConvergent())
                        call->removeFnAttr(llvm::Attribute::Convergent);
                }
        return llvm::PreservedAnalyses::all(); // attributes of calls: no analysis keeps them
    }
};

} // namespace

void addUnrollHints(llvm::PassBuilder &builder) {
    // After each InstCombine: the first after the inliner comes before the loop passes.
    builder.registerPeepholeEPCallback(
        [](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) {
            passes.addPass(NonConvergentIntrinsics());
        });
    builder.registerLateLoopOptimizationsEPCallback(
        [](llvm::LoopPassManager &passes, llvm::OptimizationLevel) {
            passes.addPass(UnrollHints());
        });
}

} // namespace ze_cuda
