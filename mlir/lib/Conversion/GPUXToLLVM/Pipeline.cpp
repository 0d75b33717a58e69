// Registration of convert-gpux-to-llvm and of the gpux-lower-to-llvm
// pipeline: upstream GPU-dialect input (an outlined gpu.module, gpu.launch_func,
// gpu.alloc, memref code) to LLVM dialect that mlir-runner and
// mlir-translate --mlir-to-llvmir accept, calling the gpu* wrappers.
#include "imex/Conversion/GPUXToLLVM/GPUXToLLVM.h"
#include "imex/Dialect/GPUX/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include "mlir/Pass/PassRegistry.h"

namespace imex {

namespace {

#define GEN_PASS_REGISTRATION
#include "imex/Conversion/GPUXToLLVM/Passes.h.inc"

struct LowerToLLVMOptions : mlir::PassPipelineOptions<LowerToLLVMOptions> {
  Option<bool> streamFromArgument{
      *this, "stream-from-argument",
      llvm::cl::desc("Functions take the stream as their first argument (the framework's "
                     "stream) instead of creating one"),
      llvm::cl::init(false)};
};

// The kernels go through upstream's SPIR-V path (OpenCL-flavoured: Kernel,
// Addresses, Int64, 64-bit indices) and are serialized by
// gpu-module-to-binary; the host code goes through the gpux passes.
void buildLowerToLLVM(mlir::OpPassManager &pm, const LowerToLLVMOptions &options) {
  // Plain GPU-dialect input: gpu.launch bodies become kernels, and kernels
  // without SPIR-V entry-point attributes get them (set-spirv-abi-attrs).
  std::string pipeline = "gpu-kernel-outlining,";
  pipeline += options.streamFromArgument ? "gpux-stream-from-argument" : "gpux-insert-stream";
  pipeline += ",gpu.module(set-spirv-abi-attrs)"
              ",spirv-attach-target{ver=v1.0 caps=Addresses,Int64,Kernel}"
              ",convert-gpu-to-spirv{use-64bit-index=true}"
              ",gpu.module(spirv.module(spirv-lower-abi-attrs,spirv-update-vce))"
              ",gpu-module-to-binary"
              ",expand-strided-metadata,lower-affine,convert-scf-to-cf"
              ",convert-gpux-to-llvm,reconcile-unrealized-casts";
  if (mlir::failed(mlir::parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("gpux-lower-to-llvm: the pipeline does not parse");
}

} // namespace

void registerGPUXToLLVMPasses() {
  registerConvertGPUXToLLVM();
  // IMEX's spelling of the stream pass, for pipelines written for IMEX.
  mlir::PassPipelineRegistration<>(
      "convert-gpu-to-gpux", "IMEX's name of gpux-insert-stream",
      [](mlir::OpPassManager &pm) { pm.addPass(gpux::createInsertStream()); });
  mlir::PassPipelineRegistration<LowerToLLVMOptions>(
      "gpux-lower-to-llvm",
      "Lowers upstream GPU-dialect programs to LLVM dialect calling the gpu* wrappers",
      buildLowerToLLVM);
}

} // namespace imex
