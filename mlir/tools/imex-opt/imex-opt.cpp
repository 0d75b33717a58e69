// imex-opt: mlir-opt with the GPUX dialect, its passes and the
// gpux-lower-to-llvm pipeline, next to every upstream dialect and pass.
#include "imex/Conversion/GPUXToLLVM/GPUXToLLVM.h"
#include "imex/Dialect/GPUX/IR/GPUXDialect.h"
#include "imex/Dialect/GPUX/Transforms/Passes.h"

#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<imex::gpux::GPUXDialect>();
  mlir::registerAllPasses();
  imex::gpux::registerGPUXTransformsPasses();
  imex::registerGPUXToLLVMPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "imex-opt: the GPUX dialect and its lowering\n", registry));
}
