// A kernel launched 100 times from an scf.for on one stream: the module is
// loaded once (by the program's constructor) and built once, each launch
// finds the built kernel.
// RUN: %lower %s | %run | FileCheck %s
// RUN: %lower %s | env ZE_OPENCL_TRACE=all %run 2>&1 | FileCheck %s --check-prefix=TRACE
// TRACE: zeModuleCreate -> 0x0
// TRACE: zeKernelCreate -> 0x0
// TRACE-NOT: zeModuleCreate
// TRACE-NOT: zeKernelCreate

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @increment(%d: memref<4xi32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
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
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %d, %zero : memref<4xi32>, i32
    gpu.wait [%t1]
    // A synchronous launch per iteration: a stream is created, launched on,
    // synchronised and destroyed each time.
    scf.for %i = %c0 to %c100 step %c1 {
      gpu.launch_func @kernels::@increment blocks in (%c4, %c1, %c1) threads in (%c1, %c1, %c1)
          args(%d : memref<4xi32>)
    }
    %u = memref.cast %d : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    // CHECK: [100,  100,  100,  100]
    %e0 = gpu.wait async
    %e1 = gpu.dealloc async [%e0] %d : memref<4xi32>
    gpu.wait [%e1]
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
