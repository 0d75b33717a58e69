// The GPUX stream passes.
#ifndef IMEX_GPUX_PASSES
#define IMEX_GPUX_PASSES

include "mlir/Pass/PassBase.td"

def InsertStream : Pass<"gpux-insert-stream", "::mlir::ModuleOp"> {
  let summary = "Gives every function with GPU host ops a stream of its own";
  let description = [{
    In every function that contains gpu.alloc, gpu.dealloc, gpu.memcpy, gpu.memset,
    gpu.launch_func or gpu.wait, creates one stream at entry
    (gpux.create_stream), rewrites those ops to their gpux forms on it, and
    destroys it before every return. Functions without GPU host ops are left
    untouched.
  }];
  let dependentDialects = ["::imex::gpux::GPUXDialect"];
}

def StreamFromArgument : Pass<"gpux-stream-from-argument", "::mlir::ModuleOp"> {
  let summary = "Runs the GPU host ops of each function on a stream it is given";
  let description = [{
    For a framework that owns its queue: every function that contains GPU
    host ops, or calls such a function, gets a leading !gpux.StreamType
    argument and uses it; calls between functions of the module pass it on.
    No stream is created or destroyed. At run time the argument is the
    framework's stream (gpuCreateStreamFromUser over its
    {command list, device, context}).
  }];
  let dependentDialects = ["::imex::gpux::GPUXDialect"];
}

def SetSpirvAbiAttrs : Pass<"set-spirv-abi-attrs", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Gives every kernel without one a spirv.entry_point_abi";
  let description = [{
    Upstream's convert-gpu-to-spirv lowers only kernels that carry a
    spirv.entry_point_abi attribute; plain GPU-dialect input (the GPUX RFC's
    example, gpu-kernel-outlining's output) has none. Each gpu.func marked
    kernel without it gets one: with the workgroup size of its
    known_block_size (what outlining records from a gpu.launch with constant
    block sizes), else without a workgroup size, so that it runs with
    whatever block size each launch gives (OpenCL kernels take any). The
    spelling is IMEX's.
  }];
  let dependentDialects = ["::mlir::spirv::SPIRVDialect"];
}

#endif // IMEX_GPUX_PASSES
