// Compiled ahead of time (mlir-opt-22, mlir-translate-22, llc-22) into
// mlir_runtime_aot, whose C host (aot_host.c) binds its own stream and calls
// @add_one through its C interface.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add_one(%d: memref<64xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %n = gpu.block_dim x
      %bn = arith.muli %b, %n : index
      %i = arith.addi %bn, %t : index
      %v = memref.load %d[%i] : memref<64xi32>
      %one = arith.constant 1 : i32
      %w = arith.addi %v, %one : i32
      memref.store %w, %d[%i] : memref<64xi32>
      gpu.return
    }
  }

  // data[i] += 1, on whatever stream mgpuStreamCreate returns.
  func.func @add_one(%data: memref<64xi32>) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@add_one blocks in (%c8, %c1, %c1) threads in (%c8, %c1, %c1)
        args(%data : memref<64xi32>)
    gpu.wait [%t1]
    return
  }
}
