#include "state_space_aa.hpp"

#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Passes/PassBuilder.h>

namespace ze_cuda {

llvm::AnalysisKey StateSpaceAA::Key;

namespace {

constexpr unsigned kGeneric = 0;

// The state space a location lies in: its pointer's, or for a generic
// pointer, the space of the object it was derived from (through casts and
// offsets); generic where that is not known.
unsigned stateSpace(const llvm::Value *pointer) {
    const unsigned space = pointer->getType()->getPointerAddressSpace();
    if (space != kGeneric)
        return space;
    return llvm::getUnderlyingObject(pointer)->getType()->getPointerAddressSpace();
}

} // namespace

llvm::AliasResult StateSpaceAAResult::alias(const llvm::MemoryLocation &a,
                                            const llvm::MemoryLocation &b,
                                            llvm::AAQueryInfo &info) {
    const unsigned first = stateSpace(a.Ptr), second = stateSpace(b.Ptr);
    if (first != kGeneric && second != kGeneric && first != second)
        return llvm::AliasResult::NoAlias;
    return AAResultBase::alias(a, b, info);
}

void addStateSpaceAA(llvm::PassBuilder &builder, llvm::FunctionAnalysisManager &functions) {
    functions.registerPass([] { return StateSpaceAA(); });
    functions.registerPass([&builder] {
        llvm::AAManager analyses = builder.buildDefaultAAPipeline();
        analyses.registerFunctionAnalysis<StateSpaceAA>();
        return analyses;
    });
}

} // namespace ze_cuda
