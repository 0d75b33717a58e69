// IMEX's test/Conversion/GPUToGPUX/gpux-memcpy.mlir.
// Adapted: the CHECK lines match the ops' printed form (README.md).
// RUN: imex-opt --convert-gpu-to-gpux %s | FileCheck %s


func.func @memcpy(%dst : memref<3x7xf32>, %src : memref<3x7xf32, 1>) {
    // CHECK-LABEL: func @memcpy
    // CHECK: %[[STREAM:.*]] = gpux.create_stream : () -> !gpux.StreamType
    // CHECK: gpux.memcpy (%[[STREAM]], {{.*}}, {{.*}}) : memref<3x7xf32>, memref<3x7xf32, 1>
    gpu.memcpy %dst, %src : memref<3x7xf32>, memref<3x7xf32, 1>
    // CHECK: gpux.destroy_stream %[[STREAM]] : (!gpux.StreamType) -> ()
    return
  }
