// Every gpux op prints what it parses: round trip, and the printed form parses again.
// RUN: imex-opt %s | imex-opt | FileCheck %s
// The printer puts one space between tokens (none doubled after an async list):
// RUN: imex-opt %s | FileCheck %s --check-prefix=SPACES --strict-whitespace
// SPACES-NOT: {{[^ ]  +[^ ]}}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<?xf32>, %s: f32) kernel {
      gpu.return
    }
  }

  // CHECK-LABEL: func.func @all_ops
  func.func @all_ops(%n: index, %x: f32) {
    %c1 = arith.constant 1 : index
    %shared = arith.constant 64 : i32
    // CHECK: %[[S:.*]] = gpux.create_stream : () -> !gpux.StreamType
    %s = gpux.create_stream : () -> !gpux.StreamType
    // CHECK: %[[A:.*]] = gpux.alloc (%[[S]], %{{.*}}) : memref<?xf32>
    %a = gpux.alloc (%s, %n) : memref<?xf32>
    // CHECK: gpux.alloc host_shared (%[[S]]) : memref<8xf32>
    %h = gpux.alloc host_shared (%s) : memref<8xf32>
    // CHECK: %[[B:.*]], %[[T0:.*]] = gpux.alloc async (%[[S]], %{{.*}}) : memref<?xf32>
    %b, %t0 = gpux.alloc async (%s, %n) : memref<?xf32>
    // CHECK: %[[T1:.*]] = gpux.memcpy async [%[[T0]]] (%[[S]], %[[B]], %[[A]]) : memref<?xf32>, memref<?xf32>
    %t1 = gpux.memcpy async [%t0] (%s, %b, %a) : memref<?xf32>, memref<?xf32>
    // CHECK: %[[T2:.*]] = gpux.launch_func async [%[[T1]]] %[[S]], @kernels::@k blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) args(%[[B]] : memref<?xf32>, %{{.*}} : f32)
    %t2 = gpux.launch_func async [%t1] %s, @kernels::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%b : memref<?xf32>, %x : f32)
    // CHECK: gpux.launch_func %[[S]], @kernels::@k {{.*}} dynamic_shared_memory_size %{{.*}} args(
    gpux.launch_func %s, @kernels::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %shared args(%a : memref<?xf32>, %x : f32)
    // CHECK: %[[T3:.*]] = gpux.wait async [%[[T2]]] %[[S]]
    %t3 = gpux.wait async [%t2] %s
    // CHECK: gpux.dealloc async [%[[T3]]] (%[[S]], %[[B]]) : memref<?xf32>
    %t4 = gpux.dealloc async [%t3] (%s, %b) : memref<?xf32>
    // CHECK: gpux.wait %[[S]]
    gpux.wait %s
    // CHECK: gpux.dealloc (%[[S]], %[[A]]) : memref<?xf32>
    gpux.dealloc (%s, %a) : memref<?xf32>
    gpux.dealloc (%s, %h) : memref<8xf32>
    // CHECK: gpux.destroy_stream %[[S]] : (!gpux.StreamType) -> ()
    gpux.destroy_stream %s : (!gpux.StreamType) -> ()
    return
  }
}
