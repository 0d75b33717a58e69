// The runner utilities' scalar printers (printF32, printI64, printNewline)
// are called by their own names: the pipeline asks for C-interface wrappers
// only where a function says llvm.emit_c_interface, so external declarations
// do not turn into calls of _mlir_ciface_printF32, which no library defines.
// REQUIRES: runtime
// RUN: imex-opt --gpux-lower-to-llvm %s | %run | FileCheck %s
// CHECK: 2.5
// CHECK-NEXT: 42

module attributes {gpu.container_module} {
  func.func @main() {
    %x = arith.constant 2.5 : f32
    %n = arith.constant 42 : i64
    call @printF32(%x) : (f32) -> ()
    call @printNewline() : () -> ()
    call @printI64(%n) : (i64) -> ()
    call @printNewline() : () -> ()
    return
  }
  func.func private @printF32(f32)
  func.func private @printI64(i64)
  func.func private @printNewline()
}
