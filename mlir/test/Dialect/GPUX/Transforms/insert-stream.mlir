// gpux-insert-stream: one stream per function with GPU host ops, created at
// entry, destroyed before every return; other functions untouched.
// RUN: imex-opt --gpux-insert-stream %s | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8xf32>) kernel { gpu.return }
  }

  // CHECK-LABEL: func.func @straight_line
  // CHECK-NEXT:    %[[S:.*]] = gpux.create_stream
  // CHECK:         %[[A:.*]] = gpux.alloc (%[[S]]) : memref<8xf32>
  // CHECK:         gpux.launch_func %[[S]], @kernels::@k {{.*}} args(%[[A]] : memref<8xf32>)
  // CHECK:         gpux.wait %[[S]]
  // CHECK:         gpux.dealloc (%[[S]], %[[A]])
  // CHECK-NEXT:    gpux.destroy_stream %[[S]]
  // CHECK-NEXT:    return
  func.func @straight_line() {
    %c1 = arith.constant 1 : index
    %a = gpu.alloc () : memref<8xf32>
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>)
    gpu.wait
    gpu.dealloc %a : memref<8xf32>
    return
  }

  // Early return: every exit destroys the stream.
  // CHECK-LABEL: func.func @early_return
  // CHECK:         %[[S:.*]] = gpux.create_stream
  // CHECK:         cf.cond_br
  // CHECK:       ^bb1:
  // CHECK-NEXT:    gpux.destroy_stream %[[S]]
  // CHECK-NEXT:    return
  // CHECK:       ^bb2:
  // CHECK:         gpux.dealloc (%[[S]], %{{.*}})
  // CHECK-NEXT:    gpux.destroy_stream %[[S]]
  // CHECK-NEXT:    return
  func.func @early_return(%cond: i1) {
    %a = gpu.alloc () : memref<8xf32>
    cf.cond_br %cond, ^bb1, ^bb2
  ^bb1:
    return
  ^bb2:
    gpu.dealloc %a : memref<8xf32>
    return
  }

  // Nested regions use the function's stream.
  // CHECK-LABEL: func.func @nested
  // CHECK:         %[[S:.*]] = gpux.create_stream
  // CHECK:         scf.for
  // CHECK:           scf.if
  // CHECK:             gpux.launch_func %[[S]], @kernels::@k
  // CHECK:         gpux.destroy_stream %[[S]]
  func.func @nested(%a: memref<8xf32>, %n: index, %cond: i1) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    scf.for %i = %c0 to %n step %c1 {
      scf.if %cond {
        gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>)
      }
    }
    return
  }

  // Async tokens and dependencies are kept.
  // CHECK-LABEL: func.func @async
  // CHECK:         %[[S:.*]] = gpux.create_stream
  // CHECK:         %[[T0:.*]] = gpux.wait async %[[S]]
  // CHECK:         %[[A:.*]], %[[T1:.*]] = gpux.alloc async [%[[T0]]] (%[[S]]) : memref<8xf32>
  // CHECK:         %[[T2:.*]] = gpux.memcpy async [%[[T1]]] (%[[S]], %[[A]], %{{.*}})
  // CHECK:         %[[T3:.*]] = gpux.launch_func async [%[[T2]]] %[[S]], @kernels::@k
  // CHECK:         gpux.wait [%[[T3]]] %[[S]]
  func.func @async(%host: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    %a, %t1 = gpu.alloc async [%t0] () : memref<8xf32>
    %t2 = gpu.memcpy async [%t1] %a, %host : memref<8xf32>, memref<8xf32>
    %t3 = gpu.launch_func async [%t2] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>)
    gpu.wait [%t3]
    return
  }

  // CHECK-LABEL: func.func @host_only
  // CHECK-NOT:     gpux
  // CHECK:         return
  func.func @host_only(%x: f32) -> f32 {
    %y = arith.addf %x, %x : f32
    return %y : f32
  }
}
