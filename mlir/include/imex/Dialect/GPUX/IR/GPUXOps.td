// The GPUX dialect: the upstream GPU dialect's host-side ops with the stream
// as an explicit SSA value (!gpux.StreamType), so that a framework's own
// stream can be threaded through MLIR-generated code.
#ifndef IMEX_GPUX_OPS
#define IMEX_GPUX_OPS

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/GPU/IR/GPUBase.td"

def GPUX_Dialect : Dialect {
  let name = "gpux";
  let cppNamespace = "::imex::gpux";
  let summary = "The upstream GPU dialect's host ops with explicit streams";
  let dependentDialects = ["::mlir::gpu::GPUDialect", "::mlir::memref::MemRefDialect"];
  let useDefaultTypePrinterParser = 1;
}

class GPUX_Op<string mnemonic, list<Trait> traits = []> : Op<GPUX_Dialect, mnemonic, traits>;

// RFC spelling: !gpux.StreamType. An opaque stream: at run time a pointer to
// a gpu* runtime stream (a temporary one, or one wrapping the framework's
// {command list, device, context}).
def GPUX_StreamType : TypeDef<GPUX_Dialect, "Stream"> {
  let mnemonic = "StreamType";
  let summary = "a stream of the gpu* runtime";
}

def GPUX_CreateStreamOp : GPUX_Op<"create_stream"> {
  let summary = "Creates a temporary stream (default device and context)";
  let results = (outs GPUX_StreamType:$result);
  let assemblyFormat = "attr-dict `:` functional-type(operands, results)";
}

def GPUX_DestroyStreamOp : GPUX_Op<"destroy_stream"> {
  let summary = "Destroys a stream made by gpux.create_stream";
  let arguments = (ins GPUX_StreamType:$gpux_stream);
  let assemblyFormat = "$gpux_stream attr-dict `:` functional-type(operands, results)";
}

def GPUX_AllocOp : GPUX_Op<"alloc", [GPU_AsyncOpInterface, AttrSizedOperandSegments]> {
  let summary = "gpu.alloc on an explicit stream";
  let arguments = (ins Variadic<GPU_AsyncToken>:$asyncDependencies,
                   GPUX_StreamType:$gpux_stream,
                   Variadic<Index>:$dynamicSizes,
                   Variadic<Index>:$symbolOperands,
                   UnitAttr:$hostShared);
  let results = (outs Res<AnyMemRef, "", [MemAlloc]>:$memref,
                 Optional<GPU_AsyncToken>:$asyncToken);
  let assemblyFormat = [{
    custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)
    `` (`host_shared` $hostShared^ ` `)? `(` $gpux_stream (`,` $dynamicSizes^)? `)`
    (`[` $symbolOperands^ `]`)? attr-dict `:` type($memref)
  }];
  let hasVerifier = 1;
}

def GPUX_DeallocOp : GPUX_Op<"dealloc", [GPU_AsyncOpInterface]> {
  let summary = "gpu.dealloc on an explicit stream";
  let arguments = (ins Variadic<GPU_AsyncToken>:$asyncDependencies,
                   GPUX_StreamType:$gpux_stream,
                   Arg<AnyMemRef, "", [MemFree]>:$memref);
  let results = (outs Optional<GPU_AsyncToken>:$asyncToken);
  let assemblyFormat = [{
    custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)
    `(` $gpux_stream `,` $memref `)` attr-dict `:` type($memref)
  }];
}

def GPUX_MemcpyOp : GPUX_Op<"memcpy", [GPU_AsyncOpInterface]> {
  let summary = "gpu.memcpy on an explicit stream";
  let arguments = (ins Variadic<GPU_AsyncToken>:$asyncDependencies,
                   GPUX_StreamType:$gpux_stream,
                   Arg<AnyMemRef, "", [MemWrite]>:$dst,
                   Arg<AnyMemRef, "", [MemRead]>:$src);
  let results = (outs Optional<GPU_AsyncToken>:$asyncToken);
  let assemblyFormat = [{
    custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)
    `(` $gpux_stream `,` $dst `,` $src `)` attr-dict `:` type($dst) `,` type($src)
  }];
  let hasVerifier = 1;
}

def GPUX_MemsetOp : GPUX_Op<"memset", [GPU_AsyncOpInterface]> {
  let summary = "gpu.memset on an explicit stream";
  let arguments = (ins Variadic<GPU_AsyncToken>:$asyncDependencies,
                   GPUX_StreamType:$gpux_stream,
                   Arg<AnyMemRef, "", [MemWrite]>:$dst,
                   AnyType:$value);
  let results = (outs Optional<GPU_AsyncToken>:$asyncToken);
  let assemblyFormat = [{
    custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)
    `(` $gpux_stream `,` $dst `,` $value `)` attr-dict `:` type($dst) `,` type($value)
  }];
  let hasVerifier = 1;
}

def GPUX_WaitOp : GPUX_Op<"wait", [GPU_AsyncOpInterface]> {
  let summary = "gpu.wait on an explicit stream";
  let arguments = (ins Variadic<GPU_AsyncToken>:$asyncDependencies,
                   GPUX_StreamType:$gpux_stream);
  let results = (outs Optional<GPU_AsyncToken>:$asyncToken);
  let assemblyFormat = [{
    custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)
    `` $gpux_stream attr-dict
  }];
}

def GPUX_LaunchFuncOp : GPUX_Op<"launch_func", [GPU_AsyncOpInterface, AttrSizedOperandSegments,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "gpu.launch_func on an explicit stream";
  let arguments = (ins Variadic<GPU_AsyncToken>:$asyncDependencies,
                   GPUX_StreamType:$gpux_stream,
                   SymbolRefAttr:$kernel,
                   Index:$gridSizeX, Index:$gridSizeY, Index:$gridSizeZ,
                   Index:$blockSizeX, Index:$blockSizeY, Index:$blockSizeZ,
                   Optional<I32>:$dynamicSharedMemorySize,
                   Variadic<AnyType>:$kernelOperands);
  let results = (outs Optional<GPU_AsyncToken>:$asyncToken);
  let assemblyFormat = [{
    custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)
    `` $gpux_stream `,` $kernel
    `blocks` `in` ` ` `(` $gridSizeX `,` $gridSizeY `,` $gridSizeZ `)`
    `threads` `in` ` ` `(` $blockSizeX `,` $blockSizeY `,` $blockSizeZ `)`
    (`dynamic_shared_memory_size` $dynamicSharedMemorySize^)?
    custom<LaunchArgs>($kernelOperands, type($kernelOperands)) attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The module and function names of the kernel.
    ::llvm::StringRef getKernelModuleName() { return getKernel().getRootReference(); }
    ::llvm::StringRef getKernelName() { return getKernel().getLeafReference(); }
  }];
}

#endif // IMEX_GPUX_OPS
