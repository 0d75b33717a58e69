// GPUX -> LLVM dialect, onto the gpu* runtime wrappers.
#ifndef IMEX_GPUX_TO_LLVM_PASSES
#define IMEX_GPUX_TO_LLVM_PASSES

include "mlir/Pass/PassBase.td"

def ConvertGPUXToLLVM : Pass<"convert-gpux-to-llvm", "::mlir::ModuleOp"> {
  let summary = "Lowers gpux ops to calls of the gpu* runtime wrappers";
  let description = [{
    runtime=level_zero: every gpux op becomes llvm.call of the gpu* wrappers
    (include/imex_gpu_runtime.h); the SPIR-V of each gpu.binary is embedded as
    a global and loaded once per stream (gpuModuleLoad + gpuKernelGet right
    after the stream is defined), launches pass a null-terminated ParamDesc
    array and the launch events they depend on. The rest of the module (func,
    arith, memref, cf, ...) is lowered to the LLVM dialect too.
    runtime=sycl: a diagnostic, since no SYCL implementation exists for this
    platform.
  }];
  let options = [
    Option<"runtime", "runtime", "std::string", /*default=*/"\"level_zero\"",
           "level_zero or sycl">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // IMEX_GPUX_TO_LLVM_PASSES
