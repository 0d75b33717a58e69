// An upstream GPU-dialect program that the framework example
// (gpux_user_stream.c) compiles ahead of time with
//   imex-opt --gpux-lower-to-llvm=stream-from-argument=true
//   | mlir-translate-22 --mlir-to-llvmir | llc-22 -filetype=obj -relocation-model=pic
// after which @vector_add takes the caller's stream as its first argument.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%a: memref<1024xf32>, %b: memref<1024xf32>, %c: memref<1024xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [64, 1, 1]>} {
      %g = gpu.block_id x
      %t = gpu.thread_id x
      %n = gpu.block_dim x
      %gn = arith.muli %g, %n : index
      %i = arith.addi %gn, %t : index
      %x = memref.load %a[%i] : memref<1024xf32>
      %y = memref.load %b[%i] : memref<1024xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %c[%i] : memref<1024xf32>
      gpu.return
    }
  }

  // c = a + b, synchronously, on the stream the caller passes.
  func.func @vector_add(%a: memref<1024xf32>, %b: memref<1024xf32>, %c: memref<1024xf32>)
      attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @kernels::@add blocks in (%c16, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%a : memref<1024xf32>, %b : memref<1024xf32>, %c : memref<1024xf32>)
    return
  }

  // The same entry without the launch when %launch is false: what entering
  // the lowered code costs (bench_gpux).
  func.func @maybe_add(%a: memref<1024xf32>, %b: memref<1024xf32>, %c: memref<1024xf32>,
                       %launch: i1) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c16 = arith.constant 16 : index
    %c64 = arith.constant 64 : index
    scf.if %launch {
      gpu.launch_func @kernels::@add blocks in (%c16, %c1, %c1) threads in (%c64, %c1, %c1)
          args(%a : memref<1024xf32>, %b : memref<1024xf32>, %c : memref<1024xf32>)
    }
    return
  }
}
