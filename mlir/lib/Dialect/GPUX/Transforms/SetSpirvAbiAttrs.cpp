// set-spirv-abi-attrs: a spirv.entry_point_abi on every kernel without one.
#include "imex/Dialect/GPUX/Transforms/Passes.h"

#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Dialect/SPIRV/IR/TargetAndABI.h"

using namespace mlir;

namespace imex::gpux {

#define GEN_PASS_DEF_SETSPIRVABIATTRS
#include "imex/Dialect/GPUX/Transforms/Passes.h.inc"

namespace {

struct SetSpirvAbiAttrs : impl::SetSpirvAbiAttrsBase<SetSpirvAbiAttrs> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    StringRef name = spirv::getEntryPointABIAttrName();
    for (auto func : getOperation().getOps<gpu::GPUFuncOp>()) {
      if (!func.isKernel() || func->hasAttr(name))
        continue;
      ArrayRef<int32_t> workgroupSize;
      if (std::optional<ArrayRef<int32_t>> known = func.getKnownBlockSize())
        workgroupSize = *known;
      func->setAttr(name, spirv::getEntryPointABIAttr(ctx, workgroupSize));
    }
  }
};

} // namespace
} // namespace imex::gpux
