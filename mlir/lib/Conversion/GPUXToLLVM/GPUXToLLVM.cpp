// convert-gpux-to-llvm: gpux ops -> llvm.call of the gpu* runtime wrappers
// (include/imex_gpu_runtime.h), the rest of the module -> LLVM dialect.
//
// Calls (runtime=level_zero):
//   gpux.create_stream   gpuCreateStream(device or NULL, context or NULL)
//   gpux.create_device   gpuCreateDevice(index or 0)
//   gpux.create_context  gpuCreateContext(device)
//   gpux.destroy_context gpuDestroyContext(context)
//   gpux.destroy_device  gpuDestroyDevice(device)
//   gpux.destroy_stream  gpuStreamDestroy(stream)
//   gpux.alloc           gpuMemAlloc(stream, bytes, 0, host_shared)
//   gpux.dealloc         gpuMemFree(stream, allocated pointer)
//   gpux.memcpy          gpuMemCopy(stream, dst, src, bytes)
//   gpux.memset          gpuMemFill(stream, dst, &value, sizeof value, bytes)
//                        (both + gpuWait when synchronous)
//   gpux.wait            gpuWait(stream) (the async form: only its tokens)
//   gpux.launch_func     gpuLaunchKernel(stream, kernel, grid, block, shared
//                        bytes, ParamDesc[], EventDesc[]) (+ gpuWait when
//                        synchronous); the kernel comes from gpuModuleLoad +
//                        gpuKernelGet issued once per stream, right after the
//                        stream is defined, with the gpu.binary's SPIR-V
//                        (or the gpu.binary attribute of an IMEX-serialized
//                        gpu.module) embedded as a global.
// Async tokens (TokenPlan below): every dependency is honoured. A launch's
// token is its event. The token of any other op is an event recorded after
// it (gpuRecordEvent) when it is used anywhere but by ops on the same stream
// value, and null otherwise: the stream runs in order. Dependencies of ops
// other than launches become a wait on the op's stream first
// (gpuWaitEvents); dependency lists leave out the null tokens and skip, at
// run time, the null values of tokens of unknown origin.
#include "imex/Conversion/GPUXToLLVM/GPUXToLLVM.h"

#include "imex/Dialect/GPUX/IR/GPUXDialect.h"
#include "imex/Dialect/GPUX/Transforms/Passes.h"

#include "mlir/Conversion/ConvertToLLVM/ToLLVMInterface.h"
#include "mlir/Conversion/LLVMCommon/ConversionTarget.h"
#include "mlir/Conversion/LLVMCommon/MemRefBuilder.h"
#include "mlir/Conversion/LLVMCommon/Pattern.h"
#include "mlir/Conversion/LLVMCommon/TypeConverter.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <string>
#include <tuple>

namespace imex {

#define GEN_PASS_DEF_CONVERTGPUXTOLLVM
#include "imex/Conversion/GPUXToLLVM/Passes.h.inc"

namespace {

using namespace mlir;

// The gpu* functions, declared once per module before the conversion runs.
struct Wrappers {
  LLVM::LLVMFuncOp createStream, streamDestroy, memAlloc, memFree, memCopy, moduleLoad,
      kernelGet, launchKernel, wait, recordEvent, waitEvents, memFill, createDevice,
      createContext, destroyContext, destroyDevice;

  static Wrappers declare(ModuleOp module) {
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    b.setInsertionPointToStart(module.getBody());
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i64 = IntegerType::get(ctx, 64);
    Type i1 = IntegerType::get(ctx, 1);
    Type none = LLVM::LLVMVoidType::get(ctx);
    auto fn = [&](StringRef name, Type result, ArrayRef<Type> args) {
      if (auto existing = module.lookupSymbol<LLVM::LLVMFuncOp>(name))
        return existing;
      return LLVM::LLVMFuncOp::create(b, module.getLoc(), name,
                                      LLVM::LLVMFunctionType::get(result, args));
    };
    Wrappers w;
    w.createStream = fn("gpuCreateStream", ptr, {ptr, ptr});
    w.streamDestroy = fn("gpuStreamDestroy", none, {ptr});
    w.memAlloc = fn("gpuMemAlloc", ptr, {ptr, i64, i64, i1});
    w.memFree = fn("gpuMemFree", none, {ptr, ptr});
    w.memCopy = fn("gpuMemCopy", none, {ptr, ptr, ptr, i64});
    w.moduleLoad = fn("gpuModuleLoad", ptr, {ptr, ptr, i64});
    w.kernelGet = fn("gpuKernelGet", ptr, {ptr, ptr, ptr});
    w.launchKernel = fn("gpuLaunchKernel", ptr, {ptr, ptr, i64, i64, i64, i64, i64, i64, i64, ptr, ptr});
    w.wait = fn("gpuWait", none, {ptr});
    w.recordEvent = fn("gpuRecordEvent", ptr, {ptr});
    w.waitEvents = fn("gpuWaitEvents", none, {ptr, ptr});
    w.memFill = fn("gpuMemFill", none, {ptr, ptr, ptr, i64, i64});
    w.createDevice = fn("gpuCreateDevice", ptr, {i64});
    w.createContext = fn("gpuCreateContext", ptr, {ptr});
    w.destroyContext = fn("gpuDestroyContext", none, {ptr});
    w.destroyDevice = fn("gpuDestroyDevice", none, {ptr});
    return w;
  }
};

Value call(OpBuilder &b, Location loc, LLVM::LLVMFuncOp fn, ValueRange args) {
  auto op = LLVM::CallOp::create(b, loc, fn, args);
  return op.getNumResults() ? op.getResult() : Value();
}

Value nullPtr(OpBuilder &b, Location loc) {
  return LLVM::ZeroOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()));
}

Value i64Constant(OpBuilder &b, Location loc, int64_t v) {
  return LLVM::ConstantOp::create(b, loc, b.getI64Type(), b.getI64IntegerAttr(v));
}

// A constant global holding `bytes` (the module's SPIR-V, a kernel name).
LLVM::GlobalOp constantBytes(ModuleOp module, StringRef name, StringRef bytes) {
  if (auto existing = module.lookupSymbol<LLVM::GlobalOp>(name))
    return existing;
  OpBuilder b(module.getContext());
  b.setInsertionPointToStart(module.getBody());
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
  return LLVM::GlobalOp::create(b, module.getLoc(), type, /*isConstant=*/true,
                                LLVM::Linkage::Internal, name, b.getStringAttr(bytes),
                                /*alignment=*/8);
}

// The module and kernel handles each launch uses, created before the
// conversion: gpuModuleLoad and gpuKernelGet once per (stream, binary,
// kernel), right after the stream's definition, so loops and repeated
// launches reuse them.
class KernelHandles {
public:
  KernelHandles(ModuleOp module, const Wrappers &w) : module_(module), w_(w) {}

  LogicalResult prepare() {
    WalkResult result = module_.walk([&](gpux::LaunchFuncOp launch) {
      Value kernel = kernelFor(launch);
      if (!kernel)
        return WalkResult::interrupt();
      kernels_[launch] = kernel;
      return WalkResult::advance();
    });
    return failure(result.wasInterrupted());
  }

  Value kernelOf(Operation *launch) const { return kernels_.lookup(launch); }

private:
  // The kernel's SPIR-V: the one object of a gpu.binary (upstream's
  // gpu-module-to-binary), or the gpu.binary string attribute of a gpu.module
  // (IMEX's serialize-spirv). Null after a diagnostic.
  std::optional<std::pair<StringRef, StringRef>> spirvOf(gpux::LaunchFuncOp launch) {
    StringAttr symbol = launch.getKernel().getRootReference();
    if (auto binary = SymbolTable::lookupNearestSymbolFrom<gpu::BinaryOp>(launch, symbol)) {
      auto objects = binary.getObjects();
      if (objects.size() != 1) {
        launch.emitOpError("gpu.binary @")
            << binary.getName() << " holds " << objects.size()
            << " objects; one SPIR-V object is expected";
        return std::nullopt;
      }
      return std::make_pair(binary.getName(),
                            llvm::cast<gpu::ObjectAttr>(objects[0]).getObject().getValue());
    }
    auto gpuModule = SymbolTable::lookupNearestSymbolFrom<gpu::GPUModuleOp>(launch, symbol);
    if (auto serialized = gpuModule ? gpuModule->getAttrOfType<StringAttr>("gpu.binary") : nullptr)
      return std::make_pair(gpuModule.getName(), serialized.getValue());
    launch.emitOpError("kernel module @")
        << launch.getKernelModuleName()
        << " is not a gpu.binary: serialize it (gpu-module-to-binary with a SPIR-V "
           "target) before convert-gpux-to-llvm";
    return std::nullopt;
  }

  Value kernelFor(gpux::LaunchFuncOp launch) {
    std::optional<std::pair<StringRef, StringRef>> found = spirvOf(launch);
    if (!found)
      return {};
    auto [binaryName, spirv] = *found;
    Value stream = launch.getGpuxStream();
    Location loc = launch.getLoc();
    OpBuilder b(module_.getContext());

    const void *key = stream.getAsOpaquePointer();
    Value &moduleHandle = modules_[{key, binaryName.str()}];
    if (!moduleHandle) {
      auto blob = constantBytes(module_, ("__gpux_spirv_" + binaryName).str(), spirv);
      Value s = streamPtr(b, stream);
      after(b, stream);
      Value blobPtr = LLVM::AddressOfOp::create(b, loc, blob);
      Value size = i64Constant(b, loc, int64_t(spirv.size()));
      moduleHandle = call(b, loc, w_.moduleLoad, {s, blobPtr, size});
      last_[stream] = moduleHandle.getDefiningOp();
    }
    Value &kernelHandle =
        kernelHandles_[{key, binaryName.str(), launch.getKernelName().str()}];
    if (!kernelHandle) {
      std::string name = launch.getKernelName().str();
      name.push_back('\0');
      auto nameGlobal = constantBytes(
          module_, ("__gpux_name_" + binaryName + "_" + launch.getKernelName()).str(),
          name);
      Value s = streamPtr(b, stream);
      after(b, stream);
      Value namePtr = LLVM::AddressOfOp::create(b, loc, nameGlobal);
      kernelHandle = call(b, loc, w_.kernelGet, {s, moduleHandle, namePtr});
      last_[stream] = kernelHandle.getDefiningOp();
    }
    return kernelHandle;
  }

  // Positions `b` after the handles already made for `stream` (or right
  // after the stream's definition).
  void after(OpBuilder &b, Value stream) {
    if (Operation *last = last_.lookup(stream))
      b.setInsertionPointAfter(last);
    else
      b.setInsertionPointAfterValue(stream);
  }

  // The stream as the runtime's pointer (an unrealized cast the conversion
  // of the stream's definition makes redundant).
  Value streamPtr(OpBuilder &b, Value stream) {
    auto &ptr = ptrs_[stream];
    if (!ptr) {
      after(b, stream);
      ptr = UnrealizedConversionCastOp::create(b, stream.getLoc(),
                                               LLVM::LLVMPointerType::get(b.getContext()),
                                               stream)
                .getResult(0);
      last_[stream] = ptr.getDefiningOp();
    }
    return ptr;
  }

  ModuleOp module_;
  const Wrappers &w_;
  llvm::DenseMap<Value, Value> ptrs_;
  llvm::DenseMap<Value, Operation *> last_;
  // Keyed by the stream's opaque pointer and the binary (and kernel) name.
  std::map<std::pair<const void *, std::string>, Value> modules_;
  std::map<std::tuple<const void *, std::string, std::string>, Value> kernelHandles_;
  llvm::DenseMap<Operation *, Value> kernels_;
};

// The stream operand of a gpux op that runs on one, else null.
Value streamOf(Operation *op) {
  if (auto launch = dyn_cast<gpux::LaunchFuncOp>(op))
    return launch.getGpuxStream();
  if (auto alloc = dyn_cast<gpux::AllocOp>(op))
    return alloc.getGpuxStream();
  if (auto dealloc = dyn_cast<gpux::DeallocOp>(op))
    return dealloc.getGpuxStream();
  if (auto copy = dyn_cast<gpux::MemcpyOp>(op))
    return copy.getGpuxStream();
  if (auto set = dyn_cast<gpux::MemsetOp>(op))
    return set.getGpuxStream();
  if (auto wait = dyn_cast<gpux::WaitOp>(op))
    return wait.getGpuxStream();
  return {};
}

// What each async token is at run time, decided on the gpux IR before the
// conversion changes it. A launch's token is its event. Any other op's token
// is an event recorded after the op when some user is not a gpux op on the
// same stream value (another stream, a branch, a call, a return), else null:
// its only users run after it on its stream anyway.
class TokenPlan {
public:
  enum class Dep { null, event, unknown };

  explicit TokenPlan(ModuleOp module) {
    module.walk([&](gpu::AsyncOpInterface op) {
      Value token = op.getAsyncToken();
      if (!token || !isa<gpux::GPUXDialect>(op->getDialect()) || isa<gpux::LaunchFuncOp>(op))
        return;
      Value stream = streamOf(op);
      if (llvm::any_of(token.getUsers(), [&](Operation *user) { return streamOf(user) != stream; }))
        recorded_.insert(op);
    });
  }

  // Whether the token of `op`, not a launch, is an event recorded after it.
  bool recorded(Operation *op) const { return recorded_.contains(op); }

  // A dependency as the run time sees it: null (left out), an event, or a
  // value of unknown origin (an argument, a block argument, a call's
  // result) that may be null and is then skipped at run time.
  Dep classify(Value token) const {
    Operation *def = token.getDefiningOp();
    if (!def || !isa<gpux::GPUXDialect>(def->getDialect()))
      return Dep::unknown;
    return isa<gpux::LaunchFuncOp>(def) || recorded(def) ? Dep::event : Dep::null;
  }

private:
  llvm::DenseSet<Operation *> recorded_;
};

// Allocates `count` elements of `elementType` on the stack, in the entry
// block of the function around `at`: a launch inside a loop reuses the same
// slots instead of growing the stack on every iteration.
Value stackArray(OpBuilder &b, Operation *at, Type elementType, int64_t count) {
  OpBuilder::InsertionGuard guard(b);
  auto function = at->getParentOfType<FunctionOpInterface>();
  b.setInsertionPointToStart(&function.getFunctionBody().front());
  Location loc = at->getLoc();
  return LLVM::AllocaOp::create(b, loc, LLVM::LLVMPointerType::get(b.getContext()), elementType,
                                i64Constant(b, loc, count));
}

template <typename Op> class WrapperPattern : public ConvertOpToLLVMPattern<Op> {
public:
  WrapperPattern(const LLVMTypeConverter &converter, const Wrappers &w, const TokenPlan &plan)
      : ConvertOpToLLVMPattern<Op>(converter), w_(w), plan_(plan) {}

protected:
  // The EventDesc {void *event}[] array of what `op` depends on, ending with
  // {NULL}, or a null Value when nothing is to be waited for. Events come
  // first; then each token of unknown origin advances the index only when it
  // is not null at run time, so a null entry never ends the list early.
  Value eventDescs(OpBuilder &b, Op op, ValueRange converted) const {
    SmallVector<Value> events, maybeNull;
    for (auto [original, value] : llvm::zip(op.getAsyncDependencies(), converted)) {
      TokenPlan::Dep dep = plan_.classify(original);
      if (dep == TokenPlan::Dep::event)
        events.push_back(value);
      else if (dep == TokenPlan::Dep::unknown)
        maybeNull.push_back(value);
    }
    if (events.empty() && maybeNull.empty())
      return {};
    Location loc = op.getLoc();
    MLIRContext *ctx = b.getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    auto eventDesc = LLVM::LLVMStructType::getLiteral(ctx, {ptr});
    Value array =
        stackArray(b, op, eventDesc, int64_t(events.size() + maybeNull.size() + 1));
    auto store = [&](Value event, LLVM::GEPArg index) {
      Value entry = LLVM::GEPOp::create(b, loc, ptr, eventDesc, array,
                                        ArrayRef<LLVM::GEPArg>{index, 0});
      LLVM::StoreOp::create(b, loc, event, entry);
    };
    for (auto [i, event] : llvm::enumerate(events))
      store(event, int32_t(i));
    Value next = i64Constant(b, loc, int64_t(events.size()));
    for (Value value : maybeNull) {
      store(value, next);
      Value isEvent = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, value, nullPtr(b, loc));
      next = LLVM::AddOp::create(b, loc, next,
                                 LLVM::ZExtOp::create(b, loc, b.getI64Type(), isEvent));
    }
    store(nullPtr(b, loc), next);
    return array;
  }

  // An op other than a launch waits for its dependencies on its stream.
  void waitForDeps(OpBuilder &b, Op op, Value stream, ValueRange converted) const {
    if (Value deps = eventDescs(b, op, converted))
      call(b, op.getLoc(), w_.waitEvents, {stream, deps});
  }

  // An op without an async token returns once its work is done (the GPU
  // dialect's AsyncOpInterface): the host waits for the stream.
  void waitIfSynchronous(OpBuilder &b, Op op, Value stream) const {
    if (!op.getAsyncToken())
      call(b, op.getLoc(), w_.wait, {stream});
  }

  // Replaces `op` by `values` and, when it is async, its token: an event
  // recorded on `stream` now, or null (TokenPlan).
  void replaceWithToken(ConversionPatternRewriter &rewriter, Op op, SmallVector<Value> values,
                        Value stream) const {
    if (op.getAsyncToken())
      values.push_back(plan_.recorded(op) ? call(rewriter, op.getLoc(), w_.recordEvent, {stream})
                                          : nullPtr(rewriter, op.getLoc()));
    rewriter.replaceOp(op, values);
  }

  const Wrappers &w_;
  const TokenPlan &plan_;
};

struct CreateStreamLowering : WrapperPattern<gpux::CreateStreamOp> {
  using WrapperPattern::WrapperPattern;
  LogicalResult matchAndRewrite(gpux::CreateStreamOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value device = adaptor.getGpuDevice() ? adaptor.getGpuDevice() : nullPtr(rewriter, loc);
    Value context = adaptor.getGpuContext() ? adaptor.getGpuContext() : nullPtr(rewriter, loc);
    rewriter.replaceOp(op, call(rewriter, loc, w_.createStream, {device, context}));
    return success();
  }
};

struct CreateDeviceLowering : WrapperPattern<gpux::CreateDeviceOp> {
  using WrapperPattern::WrapperPattern;
  LogicalResult matchAndRewrite(gpux::CreateDeviceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value index = adaptor.getIndex() ? adaptor.getIndex() : i64Constant(rewriter, loc, 0);
    rewriter.replaceOp(op, call(rewriter, loc, w_.createDevice, {index}));
    return success();
  }
};

struct CreateContextLowering : WrapperPattern<gpux::CreateContextOp> {
  using WrapperPattern::WrapperPattern;
  LogicalResult matchAndRewrite(gpux::CreateContextOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op,
                       call(rewriter, op.getLoc(), w_.createContext, {adaptor.getGpuDevice()}));
    return success();
  }
};

struct DestroyContextLowering : WrapperPattern<gpux::DestroyContextOp> {
  using WrapperPattern::WrapperPattern;
  LogicalResult matchAndRewrite(gpux::DestroyContextOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    call(rewriter, op.getLoc(), w_.destroyContext, {adaptor.getGpuContext()});
    rewriter.eraseOp(op);
    return success();
  }
};

struct DestroyDeviceLowering : WrapperPattern<gpux::DestroyDeviceOp> {
  using WrapperPattern::WrapperPattern;
  LogicalResult matchAndRewrite(gpux::DestroyDeviceOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    call(rewriter, op.getLoc(), w_.destroyDevice, {adaptor.getDevice()});
    rewriter.eraseOp(op);
    return success();
  }
};

struct DestroyStreamLowering : WrapperPattern<gpux::DestroyStreamOp> {
  using WrapperPattern::WrapperPattern;
  LogicalResult matchAndRewrite(gpux::DestroyStreamOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    call(rewriter, op.getLoc(), w_.streamDestroy, {adaptor.getGpuxStream()});
    rewriter.eraseOp(op);
    return success();
  }
};

struct AllocLowering : WrapperPattern<gpux::AllocOp> {
  using WrapperPattern::WrapperPattern;
  LogicalResult matchAndRewrite(gpux::AllocOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = llvm::cast<MemRefType>(op.getMemref().getType());
    if (!isConvertibleAndHasIdentityMaps(type))
      return rewriter.notifyMatchFailure(op, "needs an identity-layout memref");
    Location loc = op.getLoc();
    SmallVector<Value> sizes, strides;
    Value bytes;
    getMemRefDescriptorSizes(loc, type, adaptor.getDynamicSizes(), rewriter, sizes, strides,
                             bytes);
    Value stream = adaptor.getGpuxStream();
    waitForDeps(rewriter, op, stream, adaptor.getAsyncDependencies());
    Value shared = LLVM::ConstantOp::create(rewriter, loc, rewriter.getI1Type(),
                                            rewriter.getBoolAttr(op.getHostShared()));
    Value ptr = call(rewriter, loc, w_.memAlloc,
                     {stream, bytes, i64Constant(rewriter, loc, 0), shared});
    Value descriptor = createMemRefDescriptor(loc, type, ptr, ptr, sizes, strides, rewriter);
    replaceWithToken(rewriter, op, {descriptor}, stream);
    return success();
  }
};

struct DeallocLowering : WrapperPattern<gpux::DeallocOp> {
  using WrapperPattern::WrapperPattern;
  LogicalResult matchAndRewrite(gpux::DeallocOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value stream = adaptor.getGpuxStream();
    // The free is deferred behind the stream's queued work, this wait included.
    waitForDeps(rewriter, op, stream, adaptor.getAsyncDependencies());
    Value ptr = MemRefDescriptor(adaptor.getMemref()).allocatedPtr(rewriter, loc);
    call(rewriter, loc, w_.memFree, {stream, ptr});
    replaceWithToken(rewriter, op, {}, stream);
    return success();
  }
};

struct MemcpyLowering : WrapperPattern<gpux::MemcpyOp> {
  using WrapperPattern::WrapperPattern;
  LogicalResult matchAndRewrite(gpux::MemcpyOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = llvm::cast<MemRefType>(op.getSrc().getType());
    if (!isConvertibleAndHasIdentityMaps(type) ||
        !isConvertibleAndHasIdentityMaps(llvm::cast<MemRefType>(op.getDst().getType())))
      return rewriter.notifyMatchFailure(op, "needs identity-layout memrefs");
    Location loc = op.getLoc();
    MemRefDescriptor src(adaptor.getSrc()), dst(adaptor.getDst());
    Value bytes = getSizeInBytes(loc, type.getElementType(), rewriter);
    for (unsigned d = 0; d < unsigned(type.getRank()); ++d)
      bytes = LLVM::MulOp::create(rewriter, loc, bytes, src.size(rewriter, loc, d));
    const LLVMTypeConverter &converter = *getTypeConverter();
    Value stream = adaptor.getGpuxStream();
    waitForDeps(rewriter, op, stream, adaptor.getAsyncDependencies());
    call(rewriter, loc, w_.memCopy,
         {stream, dst.bufferPtr(rewriter, loc, converter, type),
          src.bufferPtr(rewriter, loc, converter, type), bytes});
    waitIfSynchronous(rewriter, op, stream);
    replaceWithToken(rewriter, op, {}, stream);
    return success();
  }
};

struct MemsetLowering : WrapperPattern<gpux::MemsetOp> {
  using WrapperPattern::WrapperPattern;
  LogicalResult matchAndRewrite(gpux::MemsetOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    auto type = llvm::cast<MemRefType>(op.getDst().getType());
    if (!isConvertibleAndHasIdentityMaps(type))
      return rewriter.notifyMatchFailure(op, "needs an identity-layout memref");
    Location loc = op.getLoc();
    MemRefDescriptor dst(adaptor.getDst());
    Value bytes = getSizeInBytes(loc, type.getElementType(), rewriter);
    Value elementBytes = bytes;
    for (unsigned d = 0; d < unsigned(type.getRank()); ++d)
      bytes = LLVM::MulOp::create(rewriter, loc, bytes, dst.size(rewriter, loc, d));
    // The value is the fill's pattern, read from a stack slot.
    Value value = adaptor.getValue();
    Value slot = stackArray(rewriter, op, value.getType(), 1);
    LLVM::StoreOp::create(rewriter, loc, value, slot);
    Value stream = adaptor.getGpuxStream();
    waitForDeps(rewriter, op, stream, adaptor.getAsyncDependencies());
    call(rewriter, loc, w_.memFill,
         {stream, dst.bufferPtr(rewriter, loc, *getTypeConverter(), type), slot, elementBytes,
          bytes});
    waitIfSynchronous(rewriter, op, stream);
    replaceWithToken(rewriter, op, {}, stream);
    return success();
  }
};

struct WaitLowering : WrapperPattern<gpux::WaitOp> {
  using WrapperPattern::WrapperPattern;
  LogicalResult matchAndRewrite(gpux::WaitOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    // The stream waits for the dependencies; the synchronous form then waits
    // on the host for everything on the stream, them included.
    Value stream = adaptor.getGpuxStream();
    waitForDeps(rewriter, op, stream, adaptor.getAsyncDependencies());
    if (!op.getAsyncToken())
      call(rewriter, op.getLoc(), w_.wait, {stream});
    replaceWithToken(rewriter, op, {}, stream);
    return success();
  }
};

struct LaunchLowering : WrapperPattern<gpux::LaunchFuncOp> {
  LaunchLowering(const LLVMTypeConverter &converter, const Wrappers &w, const TokenPlan &plan,
                 const KernelHandles &handles)
      : WrapperPattern(converter, w, plan), handles_(handles) {}

  LogicalResult matchAndRewrite(gpux::LaunchFuncOp op, OpAdaptor adaptor,
                                ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Type ptr = LLVM::LLVMPointerType::get(ctx);
    Type i64 = rewriter.getI64Type();
    const LLVMTypeConverter &converter = *getTypeConverter();

    // ParamDesc {void *data, size_t size}[n + 1], each data a stack slot
    // holding the argument: a memref's buffer pointer or the scalar.
    auto paramDesc = LLVM::LLVMStructType::getLiteral(ctx, {ptr, i64});
    size_t n = op.getKernelOperands().size();
    bool shared = bool(op.getDynamicSharedMemorySize());
    size_t slots = n + (shared ? 1 : 0);
    Value params = stackArray(rewriter, op, paramDesc, int64_t(slots + 1));
    auto setParam = [&](size_t i, Value data, Value size) {
      Value entry = LLVM::GEPOp::create(rewriter, loc, ptr, paramDesc, params,
                                        ArrayRef<LLVM::GEPArg>{int32_t(i)});
      Value dataField = LLVM::GEPOp::create(rewriter, loc, ptr, paramDesc, entry,
                                            ArrayRef<LLVM::GEPArg>{0, 0});
      Value sizeField = LLVM::GEPOp::create(rewriter, loc, ptr, paramDesc, entry,
                                            ArrayRef<LLVM::GEPArg>{0, 1});
      LLVM::StoreOp::create(rewriter, loc, data, dataField);
      LLVM::StoreOp::create(rewriter, loc, size, sizeField);
    };
    for (auto [i, original, converted] :
         llvm::enumerate(op.getKernelOperands(), adaptor.getKernelOperands())) {
      Value value = converted;
      if (auto memref = llvm::dyn_cast<MemRefType>(original.getType()))
        value = MemRefDescriptor(converted).bufferPtr(rewriter, loc, converter, memref);
      Value slot = stackArray(rewriter, op, value.getType(), 1);
      LLVM::StoreOp::create(rewriter, loc, value, slot);
      setParam(i, slot, getSizeInBytes(loc, value.getType(), rewriter));
    }
    if (shared) // the local-memory argument's place; its size is sharedMemBytes
      setParam(n, nullPtr(rewriter, loc), i64Constant(rewriter, loc, 1));
    setParam(slots, nullPtr(rewriter, loc), i64Constant(rewriter, loc, 0));

    Value deps = eventDescs(rewriter, op, adaptor.getAsyncDependencies());
    if (!deps)
      deps = nullPtr(rewriter, loc);

    Value sharedBytes = i64Constant(rewriter, loc, 0);
    if (shared)
      sharedBytes = LLVM::ZExtOp::create(rewriter, loc, i64, adaptor.getDynamicSharedMemorySize());
    // index operands are i64 after the conversion, as size_t is.
    Value event = call(rewriter, loc, w_.launchKernel,
                       {adaptor.getGpuxStream(), handles_.kernelOf(op), adaptor.getGridSizeX(),
                        adaptor.getGridSizeY(), adaptor.getGridSizeZ(), adaptor.getBlockSizeX(),
                        adaptor.getBlockSizeY(), adaptor.getBlockSizeZ(), sharedBytes, params,
                        deps});
    if (!op.getAsyncToken()) {
      // A synchronous launch returns once the kernel has run.
      call(rewriter, loc, w_.wait, {adaptor.getGpuxStream()});
      rewriter.eraseOp(op);
      return success();
    }
    rewriter.replaceOp(op, event);
    return success();
  }

private:
  const KernelHandles &handles_;
};

// Host-side gpu dialect ops have no lowering here: the stream passes turn
// the ones they know into gpux ops, and anything left (a gpu.launch that was
// not outlined, gpu.host_register, ...) would survive the conversion and
// fail later, far from its cause. Each is an error at the op instead.
LogicalResult checkNoHostGpuOps(ModuleOp module) {
  bool found = false;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<gpu::GPUModuleOp, gpu::BinaryOp>(op))
      return WalkResult::skip();
    if (!isa<gpu::GPUDialect>(op->getDialect()))
      return WalkResult::advance();
    InFlightDiagnostic diag = op->emitOpError("has no lowering onto the gpu* runtime: ");
    if (isa<gpu::LaunchOp>(op))
      diag << "outline it first (gpu-kernel-outlining; gpux-lower-to-llvm does)";
    else if (isa<gpu::AllocOp, gpu::DeallocOp, gpu::MemcpyOp, gpu::MemsetOp, gpu::LaunchFuncOp,
                 gpu::WaitOp>(op))
      diag << "put it on a stream first (gpux-insert-stream or gpux-stream-from-argument)";
    else
      diag << "the gpux lowering supports gpu.alloc, gpu.dealloc, gpu.memcpy, gpu.memset, "
              "gpu.launch_func and gpu.wait (and gpu.launch, once outlined)";
    found = true;
    return WalkResult::skip(); // its body's ops are not errors of their own
  });
  return failure(found);
}

struct ConvertGPUXToLLVM : impl::ConvertGPUXToLLVMBase<ConvertGPUXToLLVM> {
  using ConvertGPUXToLLVMBase::ConvertGPUXToLLVMBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (runtime == "sycl") {
      // Report at the first gpux op: there is nothing to lower otherwise.
      module.walk([&](Operation *op) {
        if (!isa<gpux::GPUXDialect>(op->getDialect()))
          return WalkResult::advance();
        op->emitError("the SYCL runtime is not available in this build: no SYCL "
                      "implementation exists for this platform (Debian 12); lower with "
                      "runtime=level_zero");
        signalPassFailure();
        return WalkResult::interrupt();
      });
      return;
    }
    if (runtime != "level_zero") {
      module.emitError("convert-gpux-to-llvm: unknown runtime '")
          << runtime << "' (level_zero or sycl)";
      return signalPassFailure();
    }

    if (failed(checkNoHostGpuOps(module)))
      return signalPassFailure();
    bool any = false;
    module.walk([&](Operation *op) {
      any = any || isa<gpux::GPUXDialect>(op->getDialect());
    });
    Wrappers w;
    if (any)
      w = Wrappers::declare(module);
    KernelHandles handles(module, w);
    if (failed(handles.prepare()))
      return signalPassFailure();

    MLIRContext *ctx = &getContext();
    LLVMTypeConverter converter(ctx);
    converter.addConversion(
        [ctx](gpux::StreamType) -> Type { return LLVM::LLVMPointerType::get(ctx); });
    converter.addConversion(
        [ctx](gpux::DeviceType) -> Type { return LLVM::LLVMPointerType::get(ctx); });
    converter.addConversion(
        [ctx](gpux::ContextType) -> Type { return LLVM::LLVMPointerType::get(ctx); });
    converter.addConversion(
        [ctx](gpu::AsyncTokenType) -> Type { return LLVM::LLVMPointerType::get(ctx); });
    LLVMConversionTarget target(*ctx);
    target.addIllegalDialect<gpux::GPUXDialect>();
    target.addLegalOp<UnrealizedConversionCastOp, gpu::GPUModuleOp, gpu::BinaryOp>();
    target.markOpRecursivelyLegal<gpu::GPUModuleOp>();
    RewritePatternSet patterns(ctx);
    populateConversionTargetFromOperation(module, target, converter, patterns);
    TokenPlan plan(module);
    patterns.add<CreateStreamLowering, DestroyStreamLowering, CreateDeviceLowering,
                 CreateContextLowering, DestroyContextLowering, DestroyDeviceLowering,
                 AllocLowering, DeallocLowering, MemcpyLowering, MemsetLowering, WaitLowering>(
        converter, w, plan);
    patterns.add<LaunchLowering>(converter, w, plan, handles);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      return signalPassFailure();

    // The SPIR-V now lives in globals: binaries no launch refers to go, and
    // so do IMEX-serialized gpu.modules (their gpu.binary attribute was it).
    for (auto binary : llvm::make_early_inc_range(module.getOps<gpu::BinaryOp>()))
      if (SymbolTable::symbolKnownUseEmpty(binary, module))
        binary.erase();
    for (auto gpuModule : llvm::make_early_inc_range(module.getOps<gpu::GPUModuleOp>()))
      if (gpuModule->hasAttr("gpu.binary") && SymbolTable::symbolKnownUseEmpty(gpuModule, module))
        gpuModule.erase();
  }
};

} // namespace

std::unique_ptr<mlir::Pass> createConvertGPUXToLLVMPass(Runtime runtime) {
  ConvertGPUXToLLVMOptions options;
  options.runtime = runtime == Runtime::sycl ? "sycl" : "level_zero";
  return std::make_unique<ConvertGPUXToLLVM>(options);
}

} // namespace imex
