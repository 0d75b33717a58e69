// Async tokens: every dependency is honoured. A launch's token is its event;
// another op's token is an event recorded after it (gpuRecordEvent) when a
// user is not an op on the same stream, else null; dependencies of ops other
// than launches become gpuWaitEvents on the op's stream; tokens of unknown
// origin are skipped at run time when null, never ending the list.
// RUN: imex-opt --convert-gpux-to-llvm --reconcile-unrealized-casts %s | FileCheck %s

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#spirv.target_env<#spirv.vce<v1.0, [Addresses, Int64, Kernel], []>, #spirv.resource_limits<>>, "SPIRV-BYTES">]

  // CHECK-LABEL: llvm.func @host_wait_on_another_stream
  // CHECK:       %[[T:.*]] = llvm.call @gpuLaunchKernel(%arg0,
  // CHECK:       llvm.store %[[T]]
  // CHECK:       llvm.call @gpuWaitEvents(%arg1, %{{.*}}) : (!llvm.ptr, !llvm.ptr) -> ()
  // CHECK-NEXT:  llvm.call @gpuWait(%arg1)
  func.func @host_wait_on_another_stream(%s1: !gpux.StreamType, %s2: !gpux.StreamType, %a: memref<8xf32>, %x: f32) {
    %c1 = arith.constant 1 : index
    %t = gpux.launch_func async %s1, @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %x : f32)
    gpux.wait [%t] %s2
    return
  }

  // The async wait joins the token into stream 2; its own token is only used
  // on stream 2, so it is null and the launch has no dependency list.
  // (One EventDesc array: the wait's; the allocas are at the entry.)
  // CHECK-LABEL: llvm.func @async_wait_joins
  // CHECK:       llvm.alloca {{.*}} x !llvm.struct<(ptr)>
  // CHECK-NOT:   llvm.alloca {{.*}} x !llvm.struct<(ptr)>
  // CHECK:       llvm.call @gpuLaunchKernel(%arg0,
  // CHECK:       llvm.call @gpuWaitEvents(%arg1,
  // CHECK-NOT:   gpuRecordEvent
  // CHECK:       llvm.call @gpuLaunchKernel(%arg1,
  func.func @async_wait_joins(%s1: !gpux.StreamType, %s2: !gpux.StreamType, %a: memref<8xf32>, %x: f32) {
    %c1 = arith.constant 1 : index
    %t = gpux.launch_func async %s1, @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %x : f32)
    %j = gpux.wait async [%t] %s2
    %u = gpux.launch_func async [%j] %s2, @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %x : f32)
    return
  }

  // A copy's token used on another stream is a recorded event; one used on
  // its own stream is null and left out.
  // CHECK-LABEL: llvm.func @copy_tokens
  // CHECK:       llvm.call @gpuMemCopy(%arg0,
  // CHECK-NEXT:  %[[R:.*]] = llvm.call @gpuRecordEvent(%arg0) : (!llvm.ptr) -> !llvm.ptr
  // CHECK:       llvm.call @gpuMemCopy(%arg0,
  // CHECK-NOT:   gpuRecordEvent
  // CHECK:       llvm.store %[[R]]
  // CHECK:       llvm.call @gpuLaunchKernel(%arg1,
  func.func @copy_tokens(%s1: !gpux.StreamType, %s2: !gpux.StreamType, %a: memref<8xf32>, %b: memref<8xf32>, %x: f32) {
    %c1 = arith.constant 1 : index
    %m = gpux.memcpy async (%s1, %b, %a) : memref<8xf32>, memref<8xf32>
    %n = gpux.memcpy async (%s1, %a, %b) : memref<8xf32>, memref<8xf32>
    %u = gpux.launch_func async [%m] %s2, @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %x : f32)
    gpux.wait [%n] %s1
    return
  }

  // Tokens given as arguments may be null at run time: each advances the
  // index of the list only when it is not, and the list always ends with a
  // null entry after the last real one.
  // CHECK-LABEL: llvm.func @argument_tokens
  // CHECK:       %[[DEPS:.*]] = llvm.alloca {{.*}} x !llvm.struct<(ptr)>
  // CHECK:       llvm.getelementptr %[[DEPS]][%[[I0:.*]], 0]
  // CHECK:       llvm.store %arg1
  // CHECK:       %[[NZ0:.*]] = llvm.icmp "ne" %arg1
  // CHECK:       %[[INC0:.*]] = llvm.zext %[[NZ0]] : i1 to i64
  // CHECK:       %[[I1:.*]] = llvm.add %[[I0]], %[[INC0]]
  // CHECK:       llvm.getelementptr %[[DEPS]][%[[I1]], 0]
  // CHECK:       llvm.store %arg2
  // CHECK:       %[[NZ1:.*]] = llvm.icmp "ne" %arg2
  // CHECK:       %[[INC1:.*]] = llvm.zext %[[NZ1]] : i1 to i64
  // CHECK:       %[[I2:.*]] = llvm.add %[[I1]], %[[INC1]]
  // CHECK:       llvm.getelementptr %[[DEPS]][%[[I2]], 0]
  // CHECK:       llvm.call @gpuLaunchKernel(%arg0, {{.*}}, %[[DEPS]])
  func.func @argument_tokens(%s: !gpux.StreamType, %t0: !gpu.async.token, %t1: !gpu.async.token, %a: memref<8xf32>, %x: f32) {
    %c1 = arith.constant 1 : index
    %u = gpux.launch_func async [%t0, %t1] %s, @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %x : f32)
    return
  }

  // A token that leaves the function is recorded: its user is not an op on
  // the stream.
  // CHECK-LABEL: llvm.func @returned_token
  // CHECK:       llvm.call @gpuMemFree(%arg0,
  // CHECK-NEXT:  %[[R:.*]] = llvm.call @gpuRecordEvent(%arg0)
  // CHECK:       llvm.return %[[R]]
  func.func @returned_token(%s: !gpux.StreamType, %a: memref<8xf32>) -> !gpu.async.token {
    %t = gpux.dealloc async (%s, %a) : memref<8xf32>
    return %t : !gpu.async.token
  }
}
