// Programs lowered in the call forms of IMEX's convert-gpux-to-llvm run on
// this runtime: Inputs/imex-abi.sed rewrites this lowering's gpuMemAlloc
// (isShared i1 -> i32, alignment 0 -> 64) and gpuLaunchKernel (shared-memory
// size i64 -> i32) calls into IMEX's, which the ABI lines check took place;
// the runs print what the programs print in this lowering's forms. The
// programs: device and host-shared memory, copies, two kernels joined by a
// token (two-kernels-async.mlir); every token form across two streams
// (tokens-across-streams.mlir); a program that names its device and context
// (device-and-context.mlir).
// REQUIRES: runtime
// RUN: imex-opt --gpux-lower-to-llvm %S/two-kernels-async.mlir | sed -E -f %S/Inputs/imex-abi.sed > %t.async.mlir
// RUN: FileCheck %s --check-prefix=ABI < %t.async.mlir
// RUN: %run < %t.async.mlir | FileCheck %s --check-prefix=ASYNC
// RUN: imex-opt --gpux-lower-to-llvm %S/tokens-across-streams.mlir | sed -E -f %S/Inputs/imex-abi.sed > %t.tokens.mlir
// RUN: FileCheck %s --check-prefix=ABI < %t.tokens.mlir
// RUN: %run < %t.tokens.mlir | FileCheck %s --check-prefix=TOKENS
// RUN: imex-opt --gpux-lower-to-llvm %S/device-and-context.mlir | sed -E -f %S/Inputs/imex-abi.sed > %t.device.mlir
// RUN: FileCheck %s --check-prefix=ABI-ALLOC < %t.device.mlir
// RUN: %run < %t.device.mlir | FileCheck %s --check-prefix=DEVICE

// ABI: llvm.func @gpuMemAlloc(!llvm.ptr, i64, i64, i32) -> !llvm.ptr
// ABI: llvm.func @gpuLaunchKernel(!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i32, !llvm.ptr, !llvm.ptr) -> !llvm.ptr
// ABI-NOT: (!llvm.ptr, i64, i64, i1) -> !llvm.ptr
// ABI-NOT: i64, i64, i64, i64, i64, i64, i64, !llvm.ptr, !llvm.ptr) -> !llvm.ptr
// ABI: llvm.mlir.constant(64 : i64) : i64
// ABI: llvm.call @gpuMemAlloc({{.*}}) : (!llvm.ptr, i64, i64, i32) -> !llvm.ptr
// ABI: llvm.trunc {{.*}} : i64 to i32
// ABI: llvm.call @gpuLaunchKernel({{.*}}) : (!llvm.ptr, !llvm.ptr, i64, i64, i64, i64, i64, i64, i32, !llvm.ptr, !llvm.ptr) -> !llvm.ptr
// ABI-ALLOC: llvm.func @gpuMemAlloc(!llvm.ptr, i64, i64, i32) -> !llvm.ptr
// ABI-ALLOC-NOT: (!llvm.ptr, i64, i64, i1) -> !llvm.ptr
// ABI-ALLOC: llvm.call @gpuMemAlloc({{.*}}) : (!llvm.ptr, i64, i64, i32) -> !llvm.ptr
// ABI-ALLOC: llvm.call @gpuLaunchKernel({{.*}}, i32, !llvm.ptr, !llvm.ptr) -> !llvm.ptr

// ASYNC: [1,  3,  5,  7,  9,  11,  13,  15]
// TOKENS: [1]
// TOKENS: [2]
// TOKENS: [3]
// TOKENS: [4]
// TOKENS: [5]
// DEVICE: [5,  6,  7,  8]
