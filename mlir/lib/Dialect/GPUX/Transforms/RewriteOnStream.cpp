// The rewrite both stream passes share: upstream GPU host ops -> gpux ops on
// a given stream, keeping async tokens, dependencies, sizes and operands.
#include "imex/Dialect/GPUX/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace imex::gpux {

static bool isGpuHostOp(Operation *op) {
  return isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::MemsetOp, gpu::LaunchFuncOp,
             gpu::WaitOp>(op);
}

bool hasGpuHostOps(func::FuncOp func) {
  return func.walk([](Operation *op) {
               return isGpuHostOp(op) ? WalkResult::interrupt() : WalkResult::advance();
             })
      .wasInterrupted();
}

static Type tokenType(Value token) { return token ? token.getType() : Type(); }

static LogicalResult rewrite(OpBuilder &b, Operation *op, Value stream) {
  b.setInsertionPoint(op);
  Location loc = op->getLoc();
  Operation *replacement = nullptr;
  if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
    replacement = AllocOp::create(b, loc, alloc.getMemref().getType(),
                                  tokenType(alloc.getAsyncToken()),
                                  alloc.getAsyncDependencies(), stream,
                                  alloc.getDynamicSizes(), alloc.getSymbolOperands(),
                                  alloc.getHostSharedAttr());
  } else if (auto dealloc = dyn_cast<gpu::DeallocOp>(op)) {
    replacement = DeallocOp::create(b, loc, tokenType(dealloc.getAsyncToken()),
                                    dealloc.getAsyncDependencies(), stream,
                                    dealloc.getMemref());
  } else if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
    replacement = MemcpyOp::create(b, loc, tokenType(copy.getAsyncToken()),
                                   copy.getAsyncDependencies(), stream, copy.getDst(),
                                   copy.getSrc());
  } else if (auto set = dyn_cast<gpu::MemsetOp>(op)) {
    replacement = MemsetOp::create(b, loc, tokenType(set.getAsyncToken()),
                                   set.getAsyncDependencies(), stream, set.getDst(),
                                   set.getValue());
  } else if (auto wait = dyn_cast<gpu::WaitOp>(op)) {
    replacement = WaitOp::create(b, loc, tokenType(wait.getAsyncToken()),
                                 wait.getAsyncDependencies(), stream);
  } else if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
    if (launch.hasClusterSize())
      return launch.emitOpError("has a cluster size, which gpux.launch_func cannot express");
    if (launch.getAsyncObject())
      return launch.emitOpError("launches on an async object (`<%stream : type>`), which "
                                "gpux.launch_func cannot express: the stream is the gpux one");
    gpu::KernelDim3 grid = launch.getGridSizeOperandValues();
    gpu::KernelDim3 block = launch.getBlockSizeOperandValues();
    replacement = LaunchFuncOp::create(
        b, loc, tokenType(launch.getAsyncToken()), launch.getAsyncDependencies(), stream,
        launch.getKernel(), grid.x, grid.y, grid.z, block.x, block.y, block.z,
        launch.getDynamicSharedMemorySize(), launch.getKernelOperands());
  }
  op->replaceAllUsesWith(replacement);
  op->erase();
  return success();
}

LogicalResult rewriteOnStream(func::FuncOp func, Value stream) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (isGpuHostOp(op))
      ops.push_back(op);
  });
  OpBuilder b(func.getContext());
  for (Operation *op : ops)
    if (failed(rewrite(b, op, stream)))
      return failure();
  return success();
}

} // namespace imex::gpux
