// gpux-stream-from-argument: functions with GPU host ops (and their callers
// in the module) take the stream as a leading argument.
#include "imex/Dialect/GPUX/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;

namespace imex::gpux {

#define GEN_PASS_DEF_STREAMFROMARGUMENT
#include "imex/Dialect/GPUX/Transforms/Passes.h.inc"

namespace {

struct StreamFromArgument : impl::StreamFromArgumentBase<StreamFromArgument> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // Code already on streams of its own (after gpux-insert-stream, or
    // written with gpux.create_stream) is not moved onto the caller's: say
    // so, rather than return it unchanged in silence.
    module.walk([](CreateStreamOp create) {
      create.emitWarning("this function creates its own stream; gpux-stream-from-argument "
                         "moves only upstream gpu host ops onto the caller's stream: run it "
                         "instead of gpux-insert-stream, or pass the stream in with "
                         "gpux ops yourself");
    });
    // Functions that need a stream: those with GPU host ops, then, until
    // nothing changes, those calling one of them.
    llvm::SetVector<func::FuncOp> needs;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && hasGpuHostOps(func))
        needs.insert(func);
    for (bool changed = true; changed;) {
      changed = false;
      for (auto func : module.getOps<func::FuncOp>()) {
        if (func.isExternal() || needs.contains(func))
          continue;
        bool calls = func.walk([&](func::CallOp call) {
                             auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
                             return callee && needs.contains(callee) ? WalkResult::interrupt()
                                                                     : WalkResult::advance();
                           })
                         .wasInterrupted();
        if (calls) {
          needs.insert(func);
          changed = true;
        }
      }
    }

    Type streamType = StreamType::get(&getContext());
    for (func::FuncOp func : needs) {
      if (failed(func.insertArgument(0, streamType, {}, func.getLoc())))
        return signalPassFailure();
      if (failed(rewriteOnStream(func, func.getArgument(0))))
        return signalPassFailure();
    }
    // Calls pass their caller's stream on.
    OpBuilder b(&getContext());
    for (func::FuncOp caller : needs) {
      SmallVector<func::CallOp> calls;
      caller.walk([&](func::CallOp call) {
        auto callee = symbols.lookup<func::FuncOp>(call.getCallee());
        if (callee && needs.contains(callee))
          calls.push_back(call);
      });
      for (func::CallOp call : calls) {
        SmallVector<Value> operands{caller.getArgument(0)};
        llvm::append_range(operands, call.getOperands());
        b.setInsertionPoint(call);
        auto replacement = func::CallOp::create(b, call.getLoc(), call.getCalleeAttr(),
                                                call.getResultTypes(), operands);
        call.replaceAllUsesWith(replacement.getResults());
        call.erase();
      }
    }
  }
};

} // namespace
} // namespace imex::gpux
