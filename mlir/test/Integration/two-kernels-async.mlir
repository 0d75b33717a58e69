// Two kernels, the second depending on the first through an async token: the
// dependency reaches gpuLaunchKernel as an EventDesc entry. Device memory,
// copies both ways, a scalar argument.
// REQUIRES: runtime
// RUN: imex-opt --gpux-lower-to-llvm %s | %run | FileCheck %s
// CHECK: [1,  3,  5,  7,  9,  11,  13,  15]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // d[i] = i
    gpu.func @iota(%d: memref<8xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %i = gpu.block_id x
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %d[%i] : memref<8xf32>
      gpu.return
    }
    // d[i] = d[i] * a + 1
    gpu.func @scale(%d: memref<8xf32>, %a: f32) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %i = gpu.block_id x
      %v = memref.load %d[%i] : memref<8xf32>
      %m = arith.mulf %v, %a : f32
      %one = arith.constant 1.0 : f32
      %r = arith.addf %m, %one : f32
      memref.store %r, %d[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %two = arith.constant 2.0 : f32
    %out = gpu.alloc host_shared () : memref<8xf32>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
    %t2 = gpu.launch_func async [%t1] @kernels::@iota blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<8xf32>)
    %t3 = gpu.launch_func async [%t2] @kernels::@scale blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<8xf32>, %two : f32)
    %t4 = gpu.memcpy async [%t3] %out, %d : memref<8xf32>, memref<8xf32>
    %t5 = gpu.dealloc async [%t4] %d : memref<8xf32>
    gpu.wait [%t5]
    %u = memref.cast %out : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    gpu.dealloc %out : memref<8xf32>
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
