// IMEX's test/Dialect/GPUX/IR/GPUXOps.mlir.
// Adapted: @kernel_1 takes the two memrefs it is launched with (the verifier
// here checks a launch against the kernel's signature); the CHECK lines
// also match each op in its printed form, and the output parses again.
// RUN: imex-opt %s | FileCheck %s
// RUN: imex-opt %s | imex-opt | FileCheck %s


// CHECK-LABEL: @test_create_stream
// CHECK: gpux.create_stream : () -> !gpux.StreamType
func.func @test_create_stream() -> !gpux.StreamType{
    %3 = "gpux.create_stream"() : () -> !gpux.StreamType
    return %3 : !gpux.StreamType
}

// CHECK-LABEL: @test_destroy_stream
// CHECK: gpux.destroy_stream %{{.*}} : (!gpux.StreamType) -> ()
func.func @test_destroy_stream() {
    %0 = "gpux.create_stream"() : () -> !gpux.StreamType
    "gpux.destroy_stream"(%0) : (!gpux.StreamType) -> ()
    return
}

// CHECK-LABEL: @test_gpux_alloc
// CHECK: gpux.alloc (%{{.*}}) : memref<13xf32, 1>
func.func @test_gpux_alloc() {
    %0 = "gpux.create_stream"() : () -> !gpux.StreamType
    %1 = "gpux.alloc"(%0) {operandSegmentSizes = array<i32: 0, 1, 0, 0>} : (!gpux.StreamType) -> memref<13xf32, 1>
    return
}

// CHECK-LABEL: @test_gpux_dealloc
// CHECK: gpux.dealloc (%{{.*}}, %{{.*}}) : memref<13xf32, 1>
func.func @test_gpux_dealloc() {
    %0 = "gpux.create_stream"() : () -> !gpux.StreamType
    %1 = "gpux.alloc"(%0) {operandSegmentSizes = array<i32: 0, 1, 0, 0>} : (!gpux.StreamType) -> memref<13xf32, 1>
    "gpux.dealloc"(%0, %1) : (!gpux.StreamType, memref<13xf32, 1>) -> ()
    return
}

// CHECK-LABEL: @test_gpux_wait
// CHECK: gpux.wait %{{.*}}
func.func @test_gpux_wait() {
    %0 = "gpux.create_stream"() : () -> !gpux.StreamType
    %1 = "gpux.alloc"(%0) {operandSegmentSizes = array<i32: 0, 1, 0, 0>} : (!gpux.StreamType) -> memref<13xf32, 1>
    "gpux.wait"(%0) : (!gpux.StreamType) -> ()
    return
}

gpu.module @kernels {
    gpu.func @kernel_1(%a: memref<13xf32, 1>, %b: memref<13xf32, 1>) kernel {
      gpu.return
    }
  }

// CHECK-LABEL: @test_gpux_launch_func
// CHECK: gpux.launch_func %{{.*}}, @kernels::@kernel_1 blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%{{.*}} : memref<13xf32, 1>, %{{.*}} : memref<13xf32, 1>)
func.func @test_gpux_launch_func() {
    %0 = "gpux.create_stream"() : () -> !gpux.StreamType
    %cst = arith.constant 8 : index
    %1 = "gpux.alloc"(%0) {operandSegmentSizes = array<i32: 0, 1, 0, 0>} : (!gpux.StreamType) -> memref<13xf32, 1>
    %2 = "gpux.alloc"(%0) {operandSegmentSizes = array<i32: 0, 1, 0, 0>} : (!gpux.StreamType) -> memref<13xf32, 1>
    "gpux.launch_func"(%0, %cst, %cst, %cst, %cst, %cst, %cst, %1, %2) {kernel = @kernels::@kernel_1, operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 1, 1, 1, 0, 2>}
                     : (!gpux.StreamType, index, index, index, index, index, index, memref<13xf32, 1>, memref<13xf32, 1>) -> ()
return
}


// CHECK-LABEL: @test_gpux_memcpy
// CHECK: gpux.memcpy
func.func @test_gpux_memcpy(%dst : memref<3x7xf32>, %src : memref<3x7xf32, 1>) {
    %0 = "gpux.create_stream"() : () -> !gpux.StreamType
    "gpux.memcpy"(%0, %dst, %src) : (!gpux.StreamType, memref<3x7xf32>, memref<3x7xf32, 1>) -> ()
    return
}

// CHECK-LABEL: gpux.memset
func.func @test_gpux_memset(%dst : memref<3x7xf32>, %value : f32) {
    %0 = "gpux.create_stream"() : () -> !gpux.StreamType
    "gpux.memset"(%0, %dst, %value) : (!gpux.StreamType, memref<3x7xf32>, f32) -> ()
    return
}
