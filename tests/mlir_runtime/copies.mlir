// host_shared and device allocations, gpu.memcpy both ways, gpu.memset of
// 32- and 16-bit patterns, gpu.dealloc right behind the work that uses the
// memory (the runtime defers the free).
// RUN: %lower %s | %run | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @twice(%d: memref<8xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %i = gpu.block_id x
      %v = memref.load %d[%i] : memref<8xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %d[%i] : memref<8xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %seven = arith.constant 7.5 : f32
    %minus = arith.constant -1234 : i16
    %src = gpu.alloc host_shared () : memref<8xf32>
    %dst = gpu.alloc host_shared () : memref<8xf32>
    %filled = gpu.alloc host_shared () : memref<8xf32>
    %shorts = gpu.alloc host_shared () : memref<8xi16>
    %wide = gpu.alloc host_shared () : memref<8xi32>
    scf.for %i = %c0 to %c8 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %src[%i] : memref<8xf32>
    }
    %t0 = gpu.wait async
    %dev, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
    %t2 = gpu.memcpy async [%t1] %dev, %src : memref<8xf32>, memref<8xf32>
    %t3 = gpu.launch_func async [%t2] @kernels::@twice blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1)
        args(%dev : memref<8xf32>)
    %t4 = gpu.memcpy async [%t3] %dst, %dev : memref<8xf32>, memref<8xf32>
    %t5 = gpu.dealloc async [%t4] %dev : memref<8xf32>
    %t6 = gpu.memset async [%t5] %filled, %seven : memref<8xf32>, f32
    %t7 = gpu.memset async [%t6] %shorts, %minus : memref<8xi16>, i16
    gpu.wait [%t7]
    scf.for %i = %c0 to %c8 step %c1 {
      %s = memref.load %shorts[%i] : memref<8xi16>
      %w = arith.extsi %s : i16 to i32
      memref.store %w, %wide[%i] : memref<8xi32>
    }

    %du = memref.cast %dst : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%du) : (memref<*xf32>) -> ()
    // CHECK: [0,  2,  4,  6,  8,  10,  12,  14]
    %fu = memref.cast %filled : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%fu) : (memref<*xf32>) -> ()
    // CHECK: [7.5,  7.5,  7.5,  7.5,  7.5,  7.5,  7.5,  7.5]
    %wu = memref.cast %wide : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%wu) : (memref<*xi32>) -> ()
    // CHECK: [-1234,  -1234,  -1234,  -1234,  -1234,  -1234,  -1234,  -1234]

    %d0 = gpu.wait async
    %d1 = gpu.dealloc async [%d0] %src : memref<8xf32>
    %d2 = gpu.dealloc async [%d1] %dst : memref<8xf32>
    %d3 = gpu.dealloc async [%d2] %filled : memref<8xf32>
    %d4 = gpu.dealloc async [%d3] %shorts : memref<8xi16>
    %d5 = gpu.dealloc async [%d4] %wide : memref<8xi32>
    gpu.wait [%d5]
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI32(memref<*xi32>)
}
