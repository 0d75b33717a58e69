#include "exact_index_sums.hpp"

#include "index_sums.hpp"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Passes/PassBuilder.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace ze_cuda {

namespace {

// Whether `v` has one value in every trip of `loop`: defined outside it,
// or computed inside from such values without memory or side effects.
bool invariantIn(const llvm::Loop &loop, llvm::Value *v, int depth = 0) {
    auto *i = llvm::dyn_cast<llvm::Instruction>(v);
    if (i == nullptr || !loop.contains(i))
        return true;
    if (depth > 4 || llvm::isa<llvm::PHINode>(i) || !llvm::isSafeToSpeculativelyExecute(i) ||
        i->mayReadOrWriteMemory())
        return false;
    return std::all_of(i->op_begin(), i->op_end(),
                       [&](llvm::Value *op) { return invariantIn(loop, op, depth + 1); });
}

bool onlyAddresses(const llvm::SExtInst &ext) {
    return !ext.use_empty() &&
           std::all_of(ext.user_begin(), ext.user_end(),
                       [](const llvm::User *u) { return llvm::isa<llvm::GetElementPtrInst>(u); });
}

// A counter of `loop`: a phi of its header that starts at a value and
// steps by a constant without signed wrap (else the next trip's sum of it
// would be poison). Its step, or null.
llvm::ConstantInt *counterStep(llvm::Value *v, const llvm::Loop &loop) {
    auto *phi = llvm::dyn_cast<llvm::PHINode>(v);
    llvm::BasicBlock *latch = loop.getLoopLatch();
    if (phi == nullptr || phi->getParent() != loop.getHeader() || latch == nullptr ||
        loop.getLoopPredecessor() == nullptr || phi->getNumIncomingValues() != 2 ||
        !phi->getType()->isIntegerTy(32))
        return nullptr;
    auto *next = llvm::dyn_cast<llvm::BinaryOperator>(phi->getIncomingValueForBlock(latch));
    if (next == nullptr || next->getOpcode() != llvm::Instruction::Add ||
        !next->hasNoSignedWrap() || next->getOperand(0) != phi)
        return nullptr;
    return llvm::dyn_cast<llvm::ConstantInt>(next->getOperand(1));
}

// Whether the loop's address of the sum can step once the sum is 64-bit:
// every term the same in each trip of the loop or one of its counters, one
// counter at least. (A term that changes otherwise would need its own
// extension every trip.)
bool steps(const llvm::Loop &loop, const Sum &sum) {
    bool counter = false;
    for (const auto &[term, coefficient] : sum.terms) {
        if (counterStep(term, loop) != nullptr)
            counter = true;
        else if (!invariantIn(loop, term))
            return false;
    }
    return counter;
}

// Whether the counter, through arithmetic, reaches an index extension of
// the loop other than its own and those being widened: an address LLVM
// steps with the 32-bit counter, which a 64-bit twin would take over and
// then truncate (PolyBench's doitgen, C4[s * np + p] beside a widened sum).
bool indexesOtherwise(llvm::PHINode *counter, const llvm::Loop &loop,
                      const std::set<const llvm::Instruction *> &widened) {
    std::vector<llvm::Instruction *> work{counter};
    std::set<llvm::Instruction *> seen{counter};
    while (!work.empty()) {
        llvm::Instruction *v = work.back();
        work.pop_back();
        for (llvm::User *u : v->users()) {
            auto *i = llvm::dyn_cast<llvm::Instruction>(u);
            if (i == nullptr || !loop.contains(i) || !seen.insert(i).second)
                continue;
            if (llvm::isa<llvm::SExtInst, llvm::ZExtInst>(i)) {
                if (v != counter && widened.count(i) == 0 && i->getType()->isIntegerTy(64))
                    return true;
            } else if (llvm::isa<llvm::BinaryOperator>(i)) {
                work.push_back(i);
            }
        }
    }
    return false;
}

// The counter phi in 64 bits, a counter of its own: sext(phi) wherever a
// sum of it is no poison (counterStep). Made once per phi.
llvm::Value *wideCounter(llvm::PHINode *phi, const llvm::Loop &loop,
                         std::map<llvm::PHINode *, llvm::PHINode *> &made) {
    if (auto found = made.find(phi); found != made.end())
        return found->second;
    llvm::BasicBlock *latch = loop.getLoopLatch();
    llvm::BasicBlock *entry = loop.getLoopPredecessor(); // no preheader yet
    auto *next = llvm::cast<llvm::Instruction>(phi->getIncomingValueForBlock(latch));
    llvm::IRBuilder<> builder(phi);
    llvm::PHINode *wide = builder.CreatePHI(builder.getInt64Ty(), 2, phi->getName() + ".wide");
    builder.SetInsertPoint(entry->getTerminator());
    wide->addIncoming(
        builder.CreateSExt(phi->getIncomingValueForBlock(entry), builder.getInt64Ty()), entry);
    builder.SetInsertPoint(next);
    wide->addIncoming(
        builder.CreateNSWAdd(wide, builder.getInt64(counterStep(phi, loop)->getSExtValue())),
        latch);
    return made[phi] = wide;
}

// The counter's other extensions in its loop are its 64-bit twin too, so
// that the loop keeps one counter, not a 32-bit one the 64-bit one is
// truncated to: every sign extension (a trip whose counter is poison may
// read the twin's value), and zero extensions of a counter that starts at
// no less than 0 and counts up (without wrap it stays non-negative).
void extendAsWide(llvm::PHINode *narrow, llvm::PHINode *wide, const llvm::Loop &loop) {
    const llvm::DataLayout &layout = narrow->getModule()->getDataLayout();
    llvm::BasicBlock *entry = loop.getLoopPredecessor();
    const bool nonNegative =
        !counterStep(narrow, loop)->isNegative() &&
        llvm::isKnownNonNegative(narrow->getIncomingValueForBlock(entry), layout);
    std::vector<llvm::CastInst *> extensions;
    for (llvm::User *u : narrow->users()) {
        auto *cast = llvm::dyn_cast<llvm::CastInst>(u);
        if (cast != nullptr && cast->getDestTy() == wide->getType() && loop.contains(cast) &&
            (llvm::isa<llvm::SExtInst>(cast) || (llvm::isa<llvm::ZExtInst>(cast) && nonNegative)))
            extensions.push_back(cast);
    }
    for (llvm::CastInst *cast : extensions) {
        cast->replaceAllUsesWith(wide);
        cast->eraseFromParent();
    }
}

unsigned loopDepth(const llvm::Value *v, const llvm::LoopInfo &loops) {
    auto *i = llvm::dyn_cast<llvm::Instruction>(v);
    return i ? loops.getLoopDepth(i->getParent()) : 0;
}

// The sum's terms in the order the source adds them (Sum's map is ordered
// by address, which differs from run to run).
void termsInOrder(llvm::Value *v, const Sum &sum,
                  std::vector<std::pair<llvm::Value *, int64_t>> &terms) {
    if (auto found = sum.terms.find(v); found != sum.terms.end()) {
        if (std::none_of(terms.begin(), terms.end(), [&](const auto &t) { return t.first == v; }))
            terms.push_back(*found);
        return;
    }
    if (auto *op = llvm::dyn_cast<llvm::BinaryOperator>(v))
        for (llvm::Value *operand : op->operands())
            termsInOrder(operand, sum, terms);
}

// sext(sum) as the 64-bit sum of its terms' extensions times their
// coefficients (none can overflow: 32-bit terms, small coefficients), the
// terms of outer loops first, the constant last (an offset the address can
// fold).
llvm::Value *wideSum(llvm::SExtInst &ext, const Sum &sum, const llvm::Loop &loop,
                     const llvm::LoopInfo &loops,
                     std::map<llvm::PHINode *, llvm::PHINode *> &counters) {
    std::vector<std::pair<llvm::Value *, int64_t>> terms;
    termsInOrder(ext.getOperand(0), sum, terms);
    std::stable_sort(terms.begin(), terms.end(), [&](const auto &a, const auto &b) {
        return loopDepth(a.first, loops) < loopDepth(b.first, loops);
    });
    llvm::IRBuilder<> builder(&ext);
    llvm::Value *total = nullptr;
    for (const auto &[term, coefficient] : terms) {
        llvm::Value *wide = counterStep(term, loop) != nullptr
                                ? wideCounter(llvm::cast<llvm::PHINode>(term), loop, counters)
                                : builder.CreateSExt(term, builder.getInt64Ty());
        const int64_t magnitude = coefficient < 0 ? -coefficient : coefficient;
        if (magnitude != 1)
            wide = builder.CreateNSWMul(wide, builder.getInt64(uint64_t(magnitude)));
        if (total == nullptr)
            total = coefficient < 0 ? builder.CreateNSWNeg(wide) : wide;
        else
            total = coefficient < 0 ? builder.CreateNSWSub(total, wide)
                                    : builder.CreateNSWAdd(total, wide);
    }
    if (sum.constant != 0)
        total = builder.CreateNSWAdd(total, builder.getInt64(uint64_t(sum.constant)));
    return total;
}

} // namespace

llvm::PreservedAnalyses ExactIndexSumsPass::run(llvm::Function &f,
                                                llvm::FunctionAnalysisManager &analyses) {
    const llvm::LoopInfo &loops = analyses.getResult<llvm::LoopAnalysis>(f);
    if (loops.empty())
        return llvm::PreservedAnalyses::all();
    struct Candidate {
        llvm::SExtInst *ext;
        Sum exact;
        const llvm::Loop *loop;
    };
    std::vector<Candidate> candidates;
    std::set<const llvm::Instruction *> widened;
    for (llvm::BasicBlock &block : f) {
        const llvm::Loop *loop = loops.getLoopFor(&block);
        if (loop == nullptr)
            continue;
        for (llvm::Instruction &i : block) {
            llvm::SExtInst *ext = indexExtension(i);
            if (ext == nullptr || !onlyAddresses(*ext))
                continue;
            auto *sum = llvm::dyn_cast<llvm::BinaryOperator>(ext->getOperand(0));
            if (sum == nullptr || sum->getOpcode() != llvm::Instruction::Add ||
                !sum->hasNoSignedWrap())
                continue;
            Sum exact;
            flatten(sum, 1, exact);
            if (exact.terms.size() < 3 || !steps(*loop, exact) ||
                !llvm::programUndefinedIfPoison(sum))
                continue;
            candidates.push_back({ext, std::move(exact), loop});
            widened.insert(ext);
        }
    }
    // Decided for all before any is rewritten.
    llvm::erase_if(candidates, [&](const Candidate &c) {
        return std::any_of(c.exact.terms.begin(), c.exact.terms.end(), [&](const auto &term) {
            return counterStep(term.first, *c.loop) != nullptr &&
                   indexesOtherwise(llvm::cast<llvm::PHINode>(term.first), *c.loop, widened);
        });
    });
    std::map<llvm::PHINode *, llvm::PHINode *> counters;
    for (Candidate &c : candidates) {
        c.ext->replaceAllUsesWith(wideSum(*c.ext, c.exact, *c.loop, loops, counters));
        c.ext->eraseFromParent();
    }
    for (auto &[narrow, wide] : counters)
        extendAsWide(narrow, wide, *loops.getLoopFor(narrow->getParent()));
    if (candidates.empty())
        return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

void addExactIndexSums(llvm::PassBuilder &builder) {
    // LLVM 15's -O3 calls the peephole callbacks at, in order: the module's
    // cleanup before the inliner (0), the function simplification's first
    // InstCombine, right before the reassociation (1), then points after it.
    builder.registerPeepholeEPCallback(
        [point = 0](llvm::FunctionPassManager &passes, llvm::OptimizationLevel) mutable {
            if (point++ == 1)
                passes.addPass(ExactIndexSumsPass());
        });
}

} // namespace ze_cuda
