// convert-gpux-to-llvm{runtime=level_zero}: calls of the gpu* wrappers.
// RUN: imex-opt --convert-gpux-to-llvm --reconcile-unrealized-casts %s | FileCheck %s
// RUN: imex-opt --convert-gpux-to-llvm=runtime=level_zero --reconcile-unrealized-casts %s | FileCheck %s

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Addresses, Int64, Kernel], []>, #spirv.resource_limits<>>, "SPIRV-BYTES">]

  // The SPIR-V becomes a constant global, and kernel names strings.
  // CHECK-DAG: llvm.mlir.global internal constant @__gpux_spirv_kernels("SPIRV-BYTES")
  // CHECK-DAG: llvm.mlir.global internal constant @__gpux_name_kernels_k("k\00")
  // CHECK-DAG: llvm.func @gpuLaunchKernel(!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr) -> !llvm.ptr

  // CHECK-LABEL: llvm.func @twice
  // The module is loaded once per stream, right after the stream exists, and
  // the kernel taken once: both launches use them.
  // CHECK:       %[[S:.*]] = llvm.call @gpuCreateStream(%{{.*}}, %{{.*}})
  // CHECK:       %[[M:.*]] = llvm.call @gpuModuleLoad(%[[S]], %{{.*}}, %{{.*}})
  // CHECK:       %[[K:.*]] = llvm.call @gpuKernelGet(%[[S]], %[[M]], %{{.*}})
  // CHECK-NOT:   gpuModuleLoad
  // CHECK:       llvm.call @gpuMemAlloc(%[[S]], %{{.*}}, %{{.*}}, %{{.*}}) : (!llvm.ptr, i64, i64, i1) -> !llvm.ptr
  // CHECK:       %[[E:.*]] = llvm.call @gpuLaunchKernel(%[[S]], %[[K]], {{.*}}) : {{.*}} -> !llvm.ptr
  // An async dependency on a launch becomes an EventDesc entry.
  // CHECK:       llvm.store %[[E]]
  // CHECK:       llvm.call @gpuLaunchKernel(%[[S]], %[[K]], {{.*}})
  // CHECK-NEXT:  llvm.call @gpuWait(%[[S]])
  // A synchronous copy returns once it is done.
  // CHECK:       llvm.call @gpuMemCopy(%[[S]], {{.*}}) : (!llvm.ptr, !llvm.ptr, !llvm.ptr, i64) -> ()
  // CHECK-NEXT:  llvm.call @gpuWait(%[[S]])
  // CHECK:       llvm.call @gpuMemFree(%[[S]], %{{.*}})
  // CHECK:       llvm.call @gpuWait(%[[S]])
  // CHECK:       llvm.call @gpuStreamDestroy(%[[S]])
  // CHECK-NOT:   gpu.binary
  func.func @twice(%host: memref<8xf32>, %x: f32) {
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %s = gpux.create_stream : () -> !gpux.StreamType
    %a = gpux.alloc (%s) : memref<8xf32>
    %t = gpux.launch_func async %s, @kernels::@k blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %x : f32)
    gpux.launch_func [%t] %s, @kernels::@k blocks in (%c8, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %x : f32)
    gpux.memcpy (%s, %host, %a) : memref<8xf32>, memref<8xf32>
    gpux.dealloc (%s, %a) : memref<8xf32>
    gpux.wait %s
    gpux.destroy_stream %s : (!gpux.StreamType) -> ()
    return
  }

  // A stream given as an argument is a pointer; the module is loaded at entry.
  // CHECK-LABEL: llvm.func @given(%arg0: !llvm.ptr
  // CHECK:       llvm.mlir.addressof @__gpux_spirv_kernels
  // CHECK:       llvm.call @gpuModuleLoad(%arg0,
  // CHECK-NOT:   gpuCreateStream
  func.func @given(%s: !gpux.StreamType, %a: memref<8xf32>, %x: f32) {
    %c1 = arith.constant 1 : index
    gpux.launch_func %s, @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %x : f32)
    return
  }
}
