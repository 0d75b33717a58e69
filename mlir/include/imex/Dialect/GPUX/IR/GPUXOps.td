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

// IMEX's device and context types: at run time a ze_device_handle_t and a
// ze_context_handle_t, so a program can run on a device and context it names.
def GPUX_DeviceType : TypeDef<GPUX_Dialect, "Device"> {
  let mnemonic = "DeviceType";
  let summary = "a Level Zero device (ze_device_handle_t)";
}

def GPUX_ContextType : TypeDef<GPUX_Dialect, "Context"> {
  let summary = "a Level Zero context (ze_context_handle_t)";
  let mnemonic = "ContextType";
}

def GPUX_CreateDeviceOp : GPUX_Op<"create_device"> {
  let summary = "The device of the given number (default 0) of the first driver";
  let description = [{
    IMEX's op takes a device operand it returns again; here the operand is the
    device's number, which is what a program that names a device knows.
    Devices are not created: the result is the driver's handle (gpuCreateDevice).
  }];
  let arguments = (ins Optional<Index>:$index);
  let results = (outs GPUX_DeviceType:$device);
  let assemblyFormat = "(`(` $index^ `)`)? attr-dict `:` type($device)";
}

def GPUX_CreateContextOp : GPUX_Op<"create_context"> {
  let summary = "A new context on the device's driver (destroy_context destroys it)";
  let arguments = (ins GPUX_DeviceType:$gpu_device);
  let results = (outs GPUX_ContextType:$gpu_context);
  let assemblyFormat = "$gpu_device attr-dict `:` functional-type(operands, results)";
}

def GPUX_DestroyContextOp : GPUX_Op<"destroy_context"> {
  let summary = "Destroys a context made by create_context (its streams first)";
  let arguments = (ins GPUX_ContextType:$gpu_context);
  let assemblyFormat = "$gpu_context attr-dict `:` functional-type(operands, results)";
}

def GPUX_DestroyDeviceOp : GPUX_Op<"destroy_device"> {
  let summary = "Ends the program's use of a device (Level Zero destroys none)";
  let arguments = (ins GPUX_DeviceType:$device);
  let assemblyFormat = "$device attr-dict `:` functional-type(operands, results)";
}

def GPUX_CreateStreamOp : GPUX_Op<"create_stream", [AttrSizedOperandSegments]> {
  let summary = "Creates a stream: temporary, or on a device (and a context)";
  let description = [{
    Without operands, a temporary stream on the default device and context;
    with a device, a stream on it in a context the runtime creates; with a
    device and a context, on them (gpuCreateStream(device, context)).
  }];
  let arguments = (ins Optional<GPUX_DeviceType>:$gpu_device,
                   Optional<GPUX_ContextType>:$gpu_context);
  let results = (outs GPUX_StreamType:$result);
  let assemblyFormat = [{
    ($gpu_device^ (`,` $gpu_context^)?)? attr-dict `:` functional-type(operands, results)
  }];
  let builders = [OpBuilder<(ins), [{
    build($_builder, $_state, StreamType::get($_builder.getContext()), Value(), Value());
  }]>];
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
