// The GPUX RFC's example as the RFC writes it, before the pass: upstream GPU
// dialect host code with two input buffers (2.2 and 1.1) and a kernel with
// no SPIR-V attribute (set-spirv-abi-attrs gives it its entry-point ABI),
// through imex-opt's pipeline, run by mlir-runner-22 with
// libimex_l0_interop.so on the project's driver.
// REQUIRES: runtime
// RUN: imex-opt --gpux-lower-to-llvm %s | %run | FileCheck %s
// CHECK: [3.3,  3.3,  3.3,  3.3,  3.3,  3.3,  3.3,  3.3]

module attributes {gpu.container_module} {
  func.func @main() attributes {llvm.emit_c_interface} {
    %c8 = arith.constant 8 : index
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : index
    %cst = arith.constant 2.200000e+00 : f32
    %cst_0 = arith.constant 1.100000e+00 : f32
    %0 = gpu.alloc host_shared () : memref<8xf32>
    %1 = gpu.alloc host_shared () : memref<8xf32>
    %2 = gpu.alloc host_shared () : memref<8xf32>
    scf.for %i = %c0 to %c8 step %c1 {
      memref.store %cst, %0[%i] : memref<8xf32>
      memref.store %cst_0, %1[%i] : memref<8xf32>
    }
    gpu.launch_func  @main_kernel::@main_kernel blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%0 : memref<8xf32>, %1 : memref<8xf32>, %2 : memref<8xf32>)
    %3 = memref.cast %2 : memref<8xf32> to memref<*xf32>
    call @printMemrefF32(%3) : (memref<*xf32>) -> ()
    gpu.dealloc %0 : memref<8xf32>
    gpu.dealloc %1 : memref<8xf32>
    gpu.dealloc %2 : memref<8xf32>
    return
  }
  gpu.module @main_kernel {
    gpu.func @main_kernel(%arg0: memref<8xf32>, %arg1: memref<8xf32>, %arg2: memref<8xf32>) kernel {
      %0 = gpu.block_id  x
      %1 = memref.load %arg0[%0] : memref<8xf32>
      %2 = memref.load %arg1[%0] : memref<8xf32>
      %3 = arith.addf %1, %2 : f32
      memref.store %3, %arg2[%0] : memref<8xf32>
      gpu.return
    }
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
