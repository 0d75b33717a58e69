// 100 launches from an scf.for: the module is loaded and the kernel taken once
// (at the function's entry, on its stream), so the driver builds one module.
// REQUIRES: runtime
// RUN: imex-opt --gpux-lower-to-llvm %s | %run | FileCheck %s
// RUN: imex-opt --gpux-lower-to-llvm %s | env ZE_OPENCL_TRACE=all %run 2>&1 | FileCheck %s --check-prefix=TRACE
// RUN: imex-opt --gpux-lower-to-llvm %s | FileCheck %s --check-prefix=IR
// CHECK: [100,  100,  100,  100]
// The launch's stack slots are in the entry block, not in the loop body.
// IR-LABEL: llvm.func @main
// IR: llvm.alloca {{.*}} x !llvm.ptr
// IR: llvm.alloca {{.*}} x !llvm.struct<(ptr, i64)>
// IR: llvm.cond_br
// IR: llvm.call @gpuLaunchKernel
// TRACE: zeModuleCreate -> 0x0
// TRACE-NOT: zeModuleCreate
// TRACE: [100,  100,  100,  100]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @increment(%d: memref<4xi32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %i = gpu.block_id x
      %v = memref.load %d[%i] : memref<4xi32>
      %one = arith.constant 1 : i32
      %w = arith.addi %v, %one : i32
      memref.store %w, %d[%i] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c100 = arith.constant 100 : index
    %zero = arith.constant 0 : i32
    %d = gpu.alloc host_shared () : memref<4xi32>
    scf.for %i = %c0 to %c4 step %c1 {
      memref.store %zero, %d[%i] : memref<4xi32>
    }
    scf.for %i = %c0 to %c100 step %c1 {
      gpu.launch_func @kernels::@increment blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1) args(%d : memref<4xi32>)
    }
    %u = memref.cast %d : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpu.dealloc %d : memref<4xi32>
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
