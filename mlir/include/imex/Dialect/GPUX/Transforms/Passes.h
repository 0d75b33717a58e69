// The GPUX stream passes (Passes.td).
#ifndef IMEX_DIALECT_GPUX_TRANSFORMS_PASSES_H
#define IMEX_DIALECT_GPUX_TRANSFORMS_PASSES_H

#include "imex/Dialect/GPUX/IR/GPUXDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SPIRV/IR/SPIRVDialect.h"
#include "mlir/Pass/Pass.h"

namespace imex::gpux {

#define GEN_PASS_DECL
#include "imex/Dialect/GPUX/Transforms/Passes.h.inc"

/// Rewrites the GPU host ops of `func` (gpu.alloc, gpu.dealloc, gpu.memcpy, gpu.memset,
/// gpu.launch_func, gpu.wait) to their gpux forms on `stream`. Fails, with a
/// diagnostic, on a launch the gpux form cannot express.
mlir::LogicalResult rewriteOnStream(mlir::func::FuncOp func, mlir::Value stream);
/// Whether `func` contains an op rewriteOnStream rewrites.
bool hasGpuHostOps(mlir::func::FuncOp func);

#define GEN_PASS_REGISTRATION
#include "imex/Dialect/GPUX/Transforms/Passes.h.inc"

} // namespace imex::gpux

#endif // IMEX_DIALECT_GPUX_TRANSFORMS_PASSES_H
