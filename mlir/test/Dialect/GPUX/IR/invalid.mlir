// The verifiers' messages.
// RUN: imex-opt %s -split-input-file -verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8xf32>) kernel { gpu.return }
  }
  func.func @wrong_count(%s: !gpux.StreamType, %a: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{kernel @kernels::@k takes 1 argument(s) but 2 were given}}
    gpux.launch_func %s, @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>, %a : memref<8xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: memref<8xf32>) kernel { gpu.return }
  }
  func.func @wrong_type(%s: !gpux.StreamType, %a: memref<8xi32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{argument 0 has type 'memref<8xi32>' but kernel @kernels::@k expects 'memref<8xf32>'}}
    gpux.launch_func %s, @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xi32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @helper(%a: memref<8xf32>) { gpu.return }
  }
  func.func @not_a_kernel(%s: !gpux.StreamType, %a: memref<8xf32>) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{function @kernels::@helper is not a kernel}}
    gpux.launch_func %s, @kernels::@helper blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<8xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @no_module(%s: !gpux.StreamType) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{kernel module @nowhere is not defined}}
    gpux.launch_func %s, @nowhere::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @missing_kernel(%s: !gpux.StreamType) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{kernel @kernels::@other is not a gpu.func of gpu.module @kernels}}
    gpux.launch_func %s, @kernels::@other blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

func.func @stream_operand_type(%s: index) {
  // expected-error @+1 {{'gpux.destroy_stream' op operand #0 must be a stream of the gpu* runtime, but got 'index'}}
  "gpux.destroy_stream"(%s) : (index) -> ()
  return
}

// -----

func.func @dealloc_of_a_non_memref(%s: !gpux.StreamType, %x: f32) {
  // expected-error @+1 {{operand #1 must be memref of any type values, but got 'f32'}}
  "gpux.dealloc"(%s, %x) : (!gpux.StreamType, f32) -> ()
  return
}

// -----

func.func @alloc_sizes(%s: !gpux.StreamType) {
  // expected-error @+1 {{has 0 dynamic size operand(s) but 'memref<?xf32>' has 1 dynamic dimension(s)}}
  %a = gpux.alloc (%s) : memref<?xf32>
  return
}

// -----

func.func @memcpy_types(%s: !gpux.StreamType, %a: memref<8xf32>, %b: memref<8xi32>) {
  // expected-error @+1 {{copies 'i32' elements into 'f32' elements}}
  gpux.memcpy (%s, %a, %b) : memref<8xf32>, memref<8xi32>
  return
}

// -----

func.func @malformed(%s: !gpux.StreamType) {
  // expected-error @+1 {{expected '('}}
  gpux.dealloc %s : memref<8xf32>
  return
}
