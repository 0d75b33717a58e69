// GPUX -> LLVM dialect over the gpu* runtime wrappers (Passes.td).
#ifndef IMEX_CONVERSION_GPUXTOLLVM_GPUXTOLLVM_H
#define IMEX_CONVERSION_GPUXTOLLVM_GPUXTOLLVM_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace imex {

#define GEN_PASS_DECL
#include "imex/Conversion/GPUXToLLVM/Passes.h.inc"

/// The runtimes the GPUX RFC names. Only level_zero exists on this platform.
enum class Runtime { sycl, level_zero };

/// The RFC's createConvertGPUXToLLVMPass(Runtime); IMEX's code calls it
/// without an argument.
std::unique_ptr<mlir::Pass> createConvertGPUXToLLVMPass(Runtime runtime = Runtime::level_zero);

/// Registers the pass and the gpux-lower-to-llvm pipeline.
void registerGPUXToLLVMPasses();

} // namespace imex

#endif // IMEX_CONVERSION_GPUXTOLLVM_GPUXTOLLVM_H
