// Plain GPU-dialect input the pipeline completes itself: a gpu.launch that
// is not outlined (gpu-kernel-outlining makes its kernel, with the constant
// block size as known_block_size and so as its SPIR-V workgroup size) and
// gpu.memset (gpux.memset, then gpuMemFill), asynchronous and synchronous.
// REQUIRES: runtime
// RUN: imex-opt --gpux-lower-to-llvm %s | %run | FileCheck %s
// The fill (7) plus each work-item's global index.
// CHECK: [7,  8,  9,  10,  11,  12,  13,  14]
// The second buffer filled by a synchronous gpu.memset after an async one.
// CHECK: [-2.5,  -2.5,  -2.5,  -2.5]

module attributes {gpu.container_module} {
  func.func @main() {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c4 = arith.constant 4 : index
    %seven = arith.constant 7 : i32
    %a = gpu.alloc host_shared () : memref<8xi32>
    %t = gpu.wait async
    %f = gpu.memset async [%t] %a, %seven : memref<8xi32>, i32
    gpu.wait [%f]
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %c2, %gy = %c1, %gz = %c1)
               threads(%tx, %ty, %tz) in (%sx = %c4, %sy = %c1, %sz = %c1) {
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %v = memref.load %a[%i] : memref<8xi32>
      %ii = arith.index_cast %i : index to i32
      %w = arith.addi %v, %ii : i32
      memref.store %w, %a[%i] : memref<8xi32>
      gpu.terminator
    }
    %u = memref.cast %a : memref<8xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    %b = gpu.alloc host_shared () : memref<4xf32>
    %x = arith.constant -2.5 : f32
    gpu.memset %b, %x : memref<4xf32>, f32
    %ub = memref.cast %b : memref<4xf32> to memref<*xf32>
    call @printMemrefF32(%ub) : (memref<*xf32>) -> ()
    gpu.dealloc %a : memref<8xi32>
    gpu.dealloc %b : memref<4xf32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
  func.func private @printMemrefF32(memref<*xf32>)
}
