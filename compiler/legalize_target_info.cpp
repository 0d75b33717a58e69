// The target description the optimisation pipeline sees for SPIR. LLVM 15 has
// no SPIR target, so without this the optimiser asks a default
// TargetTransformInfo, which says yes to everything. One answer is wrong for
// SPIR-V through translator 15:
//
// Lookup tables. SimplifyCFG turns a switch that selects constants into a
// load from a new module-scope table (@switch.table.*). It creates the table
// in address space 0, which for SPIR is private memory: the translator then
// writes a Function-storage OpVariable at module scope, which is invalid
// SPIR-V ("Variables can not have a function storage class outside of a
// function"). Its bitmap form also creates integers such as i2. Device
// compilers build their own tables from the switch where that pays off, so
// the switch is left as it is.
//
// Every other answer is the default one, as for clang's own -O<n> on spir64.
#include "legalize_passes.hpp"

#include <llvm/Analysis/TargetTransformInfo.h>
#include <llvm/Analysis/TargetTransformInfoImpl.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

namespace imex_l0::compiler {
namespace {

class SpirTransformInfo final : public llvm::TargetTransformInfoImplCRTPBase<SpirTransformInfo> {
public:
    explicit SpirTransformInfo(const llvm::DataLayout &layout)
        : llvm::TargetTransformInfoImplCRTPBase<SpirTransformInfo>(layout) {}
    bool shouldBuildLookupTables() const { return false; }
    bool shouldBuildLookupTablesForConstant(llvm::Constant *) const { return false; }
};

} // namespace

llvm::TargetIRAnalysis spirTargetAnalysis() {
    return llvm::TargetIRAnalysis([](const llvm::Function &function) {
        return llvm::TargetTransformInfo(SpirTransformInfo(function.getParent()->getDataLayout()));
    });
}

} // namespace imex_l0::compiler
