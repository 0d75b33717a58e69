// Two async chains on two streams joined by events (mgpuEventCreate,
// mgpuEventRecord, mgpuStreamWaitEvent), a device allocation, 32- and 16-bit
// fills and a copy, then the result printed after the last wait.
// RUN: %lower %s | %run | FileCheck %s
// CHECK: [3.3,  3.3,  3.3,  3.3,  3.3,  3.3,  3.3,  3.3]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @add(%a: memref<8xf32>, %b: memref<8xf32>, %c: memref<8xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %i = gpu.block_id x
      %x = memref.load %a[%i] : memref<8xf32>
      %y = memref.load %b[%i] : memref<8xf32>
      %z = arith.addf %x, %y : f32
      memref.store %z, %c[%i] : memref<8xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %f1 = arith.constant 1.1 : f32
    %f2 = arith.constant 2.2 : f32
    %i16 = arith.constant 7 : i16
    %a = gpu.alloc host_shared () : memref<8xf32>
    %b = gpu.alloc host_shared () : memref<8xf32>
    %c = gpu.alloc host_shared () : memref<8xf32>
    %h = gpu.alloc host_shared () : memref<8xi16>
    %t0 = gpu.wait async
    %d, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
    %t2 = gpu.memset async [%t1] %a, %f1 : memref<8xf32>, f32
    %s0 = gpu.wait async
    %t3 = gpu.memset async [%s0] %b, %f2 : memref<8xf32>, f32
    %t4 = gpu.memset async [%t3] %h, %i16 : memref<8xi16>, i16
    %j = gpu.wait async [%t2, %t4]
    %t5 = gpu.launch_func async [%j] @kernels::@add blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %b : memref<8xf32>, %d : memref<8xf32>)
    %t6 = gpu.memcpy async [%t5] %c, %d : memref<8xf32>, memref<8xf32>
    %t7 = gpu.dealloc async [%t6] %d : memref<8xf32>
    gpu.wait [%t7]
    %u = memref.cast %c : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    %e0 = gpu.wait async
    %e1 = gpu.dealloc async [%e0] %a : memref<8xf32>
    %e2 = gpu.dealloc async [%e1] %b : memref<8xf32>
    %e3 = gpu.dealloc async [%e2] %c : memref<8xf32>
    %e4 = gpu.dealloc async [%e3] %h : memref<8xi16>
    gpu.wait [%e4]
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
