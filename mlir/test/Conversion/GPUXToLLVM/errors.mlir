// What convert-gpux-to-llvm refuses, with its diagnostics.
// RUN: not imex-opt --convert-gpux-to-llvm=runtime=sycl %s 2>&1 | FileCheck %s --check-prefix=SYCL
// RUN: not imex-opt --convert-gpux-to-llvm=runtime=cuda %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not imex-opt --convert-gpux-to-llvm %s 2>&1 | FileCheck %s --check-prefix=UNSERIALIZED

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k() kernel { gpu.return }
  }
  func.func @f() {
    %c1 = arith.constant 1 : index
    // SYCL: error: the SYCL runtime is not available in this build: no SYCL implementation exists for this platform (Debian 12); lower with runtime=level_zero
    %s = gpux.create_stream : () -> !gpux.StreamType
    // UNSERIALIZED: error: 'gpux.launch_func' op kernel module @kernels is not a gpu.binary: serialize it (gpu-module-to-binary with a SPIR-V target) before convert-gpux-to-llvm
    gpux.launch_func %s, @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpux.destroy_stream %s : (!gpux.StreamType) -> ()
    return
  }
}
// UNKNOWN: error: convert-gpux-to-llvm: unknown runtime 'cuda' (level_zero or sycl)
