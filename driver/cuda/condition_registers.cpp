#include "condition_registers.hpp"

#include <llvm/CodeGen/TargetLowering.h>
#include <llvm/CodeGen/TargetSubtargetInfo.h>

namespace ze_cuda {

namespace {

// The setter is protected (each target calls it from its own lowering's
// constructor); a pointer to it named through a derived class may be formed
// here and applied to the NVPTX lowering. Never instantiated.
struct ConditionRegisters : llvm::TargetLoweringBase {
    static void setMany(llvm::TargetLoweringBase &lowering) {
        (lowering.*&ConditionRegisters::setHasMultipleConditionRegisters)(true);
    }
};

} // namespace

void keepComparisonsInPlace(llvm::TargetMachine &machine, const llvm::Function &function) {
    const llvm::TargetLowering *lowering =
        machine.getSubtargetImpl(function)->getTargetLowering();
    // The machine is the translation's own: nothing else reads its lowering.
    ConditionRegisters::setMany(*const_cast<llvm::TargetLowering *>(lowering));
}

} // namespace ze_cuda
