// gpux-insert-stream: a stream per function, created at entry and destroyed
// before every return.
#include "imex/Dialect/GPUX/Transforms/Passes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace imex::gpux {

#define GEN_PASS_DEF_INSERTSTREAM
#include "imex/Dialect/GPUX/Transforms/Passes.h.inc"

namespace {

struct InsertStream : impl::InsertStreamBase<InsertStream> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !hasGpuHostOps(func))
        continue;
      OpBuilder b(func.getContext());
      b.setInsertionPointToStart(&func.front());
      Value stream = CreateStreamOp::create(b, func.getLoc());
      if (failed(rewriteOnStream(func, stream)))
        return signalPassFailure();
      // func.return only ends a function's own blocks (early returns are
      // other blocks of its body), so these are all of its exits.
      func.walk([&](func::ReturnOp ret) {
        b.setInsertionPoint(ret);
        DestroyStreamOp::create(b, ret.getLoc(), stream);
      });
    }
  }
};

} // namespace
} // namespace imex::gpux
