// gpu.host_register: a plain memref.alloc buffer is registered, written by a
// kernel of one gpu.module and updated by a kernel of another, in place, then
// read back on the host without a copy (mgpuMemHostRegisterMemRef: on the
// project's CPU driver the device reaches host allocations already).
// RUN: %lower %s | %run | FileCheck %s
// CHECK: [10,  11,  12,  13,  14,  15,  16,  17,  18,  19,  20,  21,  22]

module attributes {gpu.container_module} {
  gpu.module @first {
    gpu.func @iota(%d: memref<?xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %i = gpu.thread_id x
      %v = arith.index_cast %i : index to i32
      memref.store %v, %d[%i] : memref<?xi32>
      gpu.return
    }
  }
  gpu.module @second {
    gpu.func @add_ten(%d: memref<?xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<>} {
      %i = gpu.thread_id x
      %v = memref.load %d[%i] : memref<?xi32>
      %ten = arith.constant 10 : i32
      %w = arith.addi %v, %ten : i32
      memref.store %w, %d[%i] : memref<?xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %buffer = memref.alloc() : memref<13xi32>
    %d = memref.cast %buffer : memref<13xi32> to memref<?xi32>
    %n = memref.dim %d, %c0 : memref<?xi32>
    %u = memref.cast %d : memref<?xi32> to memref<*xi32>
    gpu.host_register %u : memref<*xi32>
    gpu.launch_func @first::@iota blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) args(%d : memref<?xi32>)
    gpu.launch_func @second::@add_ten blocks in (%c1, %c1, %c1) threads in (%n, %c1, %c1) args(%d : memref<?xi32>)
    gpu.host_unregister %u : memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    memref.dealloc %buffer : memref<13xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
