// gpux-stream-from-argument: functions with GPU host ops, and their callers in
// the module, take the stream as a leading argument; calls pass it on; no
// stream is created or destroyed.
// RUN: imex-opt --gpux-stream-from-argument %s | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8xf32>) kernel { gpu.return }
  }

  // CHECK-LABEL: func.func @launch(%{{.*}}: !gpux.StreamType, %{{.*}}: memref<8xf32>)
  // CHECK-NOT:     gpux.create_stream
  // CHECK:         gpux.launch_func %arg0, @kernels::@k
  // CHECK-NOT:     gpux.destroy_stream
  // CHECK:         return
  func.func @launch(%a: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>)
    return
  }

  // A caller of a function that needs a stream gets one and passes it on.
  // CHECK-LABEL: func.func @caller(%{{.*}}: !gpux.StreamType, %{{.*}}: memref<8xf32>)
  // CHECK:         call @launch(%arg0, %arg1) : (!gpux.StreamType, memref<8xf32>) -> ()
  // CHECK:         call @host_only()
  func.func @caller(%a: memref<8xf32>) {
    call @launch(%a) : (memref<8xf32>) -> ()
    call @host_only() : () -> ()
    return
  }

  // CHECK-LABEL: func.func @host_only()
  // CHECK-NOT:     gpux
  func.func @host_only() {
    return
  }
}

