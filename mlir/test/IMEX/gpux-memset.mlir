// IMEX's test/Conversion/GPUToGPUX/gpux-memset.mlir.
// Adapted: the CHECK lines match the ops' printed form (README.md).
// RUN: imex-opt --convert-gpu-to-gpux %s | FileCheck %s


func.func @memset(%dst : memref<3x7xf32>, %value : f32) {
    // CHECK-LABEL: func @memset
    // CHECK: %[[STREAM:.*]] = gpux.create_stream : () -> !gpux.StreamType
    // CHECK: gpux.memset (%[[STREAM]], {{.*}}, {{.*}}) : memref<3x7xf32>, f32
    gpu.memset %dst, %value : memref<3x7xf32>, f32
    // CHECK: gpux.destroy_stream %[[STREAM]] : (!gpux.StreamType) -> ()
    return
  }
