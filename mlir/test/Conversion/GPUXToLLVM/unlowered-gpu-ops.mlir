// Host-side gpu ops that nothing turned into gpux ops are errors at the op,
// not code that fails later in mlir-translate.
// RUN: imex-opt --convert-gpux-to-llvm --split-input-file --verify-diagnostics %s

module attributes {gpu.container_module} {
  func.func @register(%m: memref<*xf32>) {
    // expected-error @+1 {{'gpu.host_register' op has no lowering onto the gpu* runtime: the gpux lowering supports gpu.alloc, gpu.dealloc, gpu.memcpy, gpu.memset, gpu.launch_func and gpu.wait (and gpu.launch, once outlined)}}
    gpu.host_register %m : memref<*xf32>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @not_outlined(%n: index) {
    // expected-error @+1 {{'gpu.launch' op has no lowering onto the gpu* runtime: outline it first (gpu-kernel-outlining; gpux-lower-to-llvm does)}}
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %n, %gy = %n, %gz = %n)
               threads(%tx, %ty, %tz) in (%sx = %n, %sy = %n, %sz = %n) {
      gpu.terminator
    }
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @no_stream(%m: memref<4xf32>, %v: f32) {
    // expected-error @+1 {{'gpu.memset' op has no lowering onto the gpu* runtime: put it on a stream first (gpux-insert-stream or gpux-stream-from-argument)}}
    gpu.memset %m, %v : memref<4xf32>, f32
    return
  }
}
