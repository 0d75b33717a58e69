#include "vector_loads.hpp"

#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>

#include <map>
#include <utility>

namespace ze_cuda {

namespace {

constexpr unsigned kLanes = 4;
constexpr uint64_t kMaxVectorBytes = 16; // PTX's widest load

// The loads of one vector's elements: `getelementptr <4 x T>, base, index, k`
// for constant lanes k (`getelementptr <4 x T>, base, index` for lane 0).
struct Group {
    llvm::GetElementPtrInst *first = nullptr; // a lane's address, for base and index
    llvm::FixedVectorType *type = nullptr;
    llvm::SmallVector<std::pair<llvm::LoadInst *, unsigned>, kLanes> loads; // program order
};

using Key = std::pair<llvm::Value *, llvm::Value *>; // base, index

// The vector, key and lane a load reads an element of; false for any other load.
bool laneOf(llvm::LoadInst &load, Key &key, llvm::FixedVectorType *&type, unsigned &lane) {
    if (!load.isSimple())
        return false;
    auto *address = llvm::dyn_cast<llvm::GetElementPtrInst>(load.getPointerOperand());
    // Element 0 is the vector's own address (InstCombine drops a last index 0).
    if (!address || !address->isInBounds() || address->getNumIndices() < 1 ||
        address->getNumIndices() > 2)
        return false;
    type = llvm::dyn_cast<llvm::FixedVectorType>(address->getSourceElementType());
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
    key = {address->getPointerOperand(), address->getOperand(1)};
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

// Replaces the group's loads by one load of the vector, if they qualify.
bool rewrite(Group &group) {
    unsigned lanes = 0;
    llvm::LoadInst *lane0 = nullptr;
    for (auto [load, lane] : group.loads) {
        lanes |= 1u << lane;
        if (lane == 0 && !lane0)
            lane0 = load;
    }
    const llvm::DataLayout &layout = group.first->getModule()->getDataLayout();
    // The vector's alignment is known from its first element's load only.
    if (!needsVectorLoad(lanes) || !lane0 ||
        lane0->getAlign().value() < layout.getTypeStoreSize(group.type))
        return false;
    llvm::LoadInst *earliest = group.loads.front().first;
    llvm::IRBuilder<> builder(earliest);
    llvm::Value *vectorAddress = builder.CreateInBoundsGEP(
        group.type, group.first->getPointerOperand(), group.first->getOperand(1));
    llvm::LoadInst *vector = builder.CreateAlignedLoad(group.type, vectorAddress, lane0->getAlign());
    for (auto [load, lane] : group.loads) {
        llvm::Value *element = llvm::ExtractElementInst::Create(vector, builder.getInt32(lane), "",
                                                                load);
        load->replaceAllUsesWith(element);
        auto *address = llvm::cast<llvm::Instruction>(load->getPointerOperand());
        load->eraseFromParent();
        if (address->use_empty())
            address->eraseFromParent();
    }
    return true;
}

bool rewriteBlock(llvm::BasicBlock &block) {
    bool changed = false;
    std::map<Key, Group> open;
    auto flush = [&] {
        for (auto &[key, group] : open)
            changed |= rewrite(group);
        open.clear();
    };
    for (auto it = block.begin(); it != block.end();) {
        llvm::Instruction &inst = *it++; // rewrite() erases loads already passed only
        if (auto *load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
            Key key;
            llvm::FixedVectorType *type = nullptr;
            unsigned lane = 0;
            if (laneOf(*load, key, type, lane)) {
                Group &group = open[key];
                if (!group.first) {
                    group.first = llvm::cast<llvm::GetElementPtrInst>(load->getPointerOperand());
                    group.type = type;
                }
                if (group.type == type)
                    group.loads.push_back({load, lane});
            }
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
