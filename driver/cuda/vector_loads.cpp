#include "vector_loads.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <map>
#include <tuple>
#include <utility>

namespace ze_cuda {

namespace {

constexpr unsigned kLanes = 4;
constexpr uint64_t kMaxVectorBytes = 16; // PTX's widest load

// A vector whose elements are loaded one by one: `getelementptr <4 x T>,
// base, index, k` for constant lanes k (`getelementptr <4 x T>, base, index`
// for lane 0). Its elements' loads are grouped by it.
struct Vector {
    llvm::FixedVectorType *type;
    llvm::Value *base;
    llvm::Value *index;
    bool operator<(const Vector &other) const {
        return std::tie(type, base, index) < std::tie(other.type, other.base, other.index);
    }
};

using Loads = llvm::SmallVector<std::pair<llvm::LoadInst *, unsigned>, kLanes>; // program order

// The vector and lane a load reads an element of; false for any other load.
bool laneOf(llvm::LoadInst &load, Vector &vector, unsigned &lane) {
    if (!load.isSimple())
        return false;
    auto *address = llvm::dyn_cast<llvm::GetElementPtrInst>(load.getPointerOperand());
    // Element 0 is the vector's own address (InstCombine drops a last index 0).
    if (!address || !address->isInBounds() || address->getNumIndices() < 1 ||
        address->getNumIndices() > 2)
        return false;
    auto *type = llvm::dyn_cast<llvm::FixedVectorType>(address->getSourceElementType());
    auto *element = address->getNumIndices() == 2
                        ? llvm::dyn_cast<llvm::ConstantInt>(address->getOperand(2))
                        : llvm::ConstantInt::get(llvm::Type::getInt32Ty(load.getContext()), 0);
    if (!type || type->getNumElements() != kLanes || type->getElementType() != load.getType() ||
        !element || element->getZExtValue() >= kLanes)
        return false;
    const llvm::DataLayout &layout = load.getModule()->getDataLayout();
    uint64_t bytes = layout.getTypeStoreSize(type);
    if (bytes > kMaxVectorBytes || layout.getTypeAllocSize(type) != bytes)
        return false;
    vector = {type, address->getPointerOperand(), address->getOperand(1)};
    lane = unsigned(element->getZExtValue());
    return true;
}

// Whether one vector load is worth it: the load-store vectorizer joins an
// aligned pair (or all four) itself, and one element needs no vector.
bool needsVectorLoad(unsigned lanes) {
    unsigned count = 0;
    for (unsigned l = 0; l < kLanes; ++l)
        count += (lanes >> l) & 1;
    return count >= 2 && lanes != 0b0011 && lanes != 0b1100 && lanes != 0b1111;
}

// Replaces the loads of a vector's elements by one load of the vector, if
// they qualify.
bool rewrite(const Vector &vector, const Loads &loads) {
    unsigned lanes = 0;
    llvm::LoadInst *lane0 = nullptr;
    for (auto [load, lane] : loads) {
        lanes |= 1u << lane;
        if (lane == 0 && !lane0)
            lane0 = load;
    }
    // The vector's alignment is known from its first element's load only.
    if (!needsVectorLoad(lanes) || !lane0 ||
        lane0->getAlign().value() <
            lane0->getModule()->getDataLayout().getTypeStoreSize(vector.type))
        return false;
    llvm::IRBuilder<> builder(loads.front().first);
    llvm::Value *address = builder.CreateInBoundsGEP(vector.type, vector.base, vector.index);
    llvm::LoadInst *whole = builder.CreateAlignedLoad(vector.type, address, lane0->getAlign());
    for (auto [load, lane] : loads) {
        llvm::Value *element =
            llvm::ExtractElementInst::Create(whole, builder.getInt32(lane), "", load);
        load->replaceAllUsesWith(element);
        auto *elementAddress = llvm::cast<llvm::Instruction>(load->getPointerOperand());
        load->eraseFromParent();
        if (elementAddress->use_empty())
            elementAddress->eraseFromParent();
    }
    return true;
}

bool rewriteBlock(llvm::BasicBlock &block) {
    bool changed = false;
    std::map<Vector, Loads> open;
    auto flush = [&] {
        for (auto &[vector, loads] : open)
            changed |= rewrite(vector, loads);
        open.clear();
    };
    for (auto it = block.begin(); it != block.end();) {
        llvm::Instruction &inst = *it++; // rewrite() erases loads already passed only
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
            Vector vector;
            unsigned lane = 0;
            if (laneOf(*load, vector, lane))
                open[vector].push_back({load, lane});
        } else if (inst.mayWriteToMemory()) {
            // A later load of the same element may see another value.
            flush();
        }
    }
    flush();
    return changed;
}

} // namespace

llvm::PreservedAnalyses VectorLoadPass::run(llvm::Function &function,
                                            llvm::FunctionAnalysisManager &) {
    bool changed = false;
    for (llvm::BasicBlock &block : function)
        changed |= rewriteBlock(block);
    if (!changed)
        return llvm::PreservedAnalyses::all();
    llvm::PreservedAnalyses kept;
    kept.preserveSet<llvm::CFGAnalyses>();
    return kept;
}

void addVectorLoads(llvm::PassBuilder &builder) {
    builder.registerOptimizerLastEPCallback(
        [](llvm::ModulePassManager &passes, llvm::OptimizationLevel) {
            passes.addPass(llvm::createModuleToFunctionPassAdaptor(VectorLoadPass()));
        });
}

} // namespace ze_cuda
