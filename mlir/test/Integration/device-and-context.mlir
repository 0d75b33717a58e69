// A program that names its device and makes its own context (IMEX's
// create_device / create_context ops): device 0 of the first driver, a new
// context on it, a stream on both; destroyed in reverse order.
// REQUIRES: runtime
// RUN: imex-opt --gpux-lower-to-llvm %s | %run | FileCheck %s
// RUN: imex-opt %s | imex-opt | FileCheck %s --check-prefix=ROUNDTRIP
// CHECK: [5,  6,  7,  8]
// ROUNDTRIP: %[[D:.*]] = gpux.create_device(%{{.*}}) : !gpux.DeviceType
// ROUNDTRIP: %[[C:.*]] = gpux.create_context %[[D]] : (!gpux.DeviceType) -> !gpux.ContextType
// ROUNDTRIP: gpux.create_stream %[[D]], %[[C]] : (!gpux.DeviceType, !gpux.ContextType) -> !gpux.StreamType
// ROUNDTRIP: gpux.create_stream %[[D]] : (!gpux.DeviceType) -> !gpux.StreamType
// ROUNDTRIP: gpux.destroy_context %[[C]] : (!gpux.ContextType) -> ()
// ROUNDTRIP: gpux.destroy_device %[[D]] : (!gpux.DeviceType) -> ()

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @plus_five(%d: memref<4xi32>) kernel {
      %i = gpu.thread_id x
      %ii = arith.index_cast %i : index to i32
      %five = arith.constant 5 : i32
      %v = arith.addi %ii, %five : i32
      memref.store %v, %d[%i] : memref<4xi32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %device = gpux.create_device(%c0) : !gpux.DeviceType
    %context = gpux.create_context %device : (!gpux.DeviceType) -> !gpux.ContextType
    %s = gpux.create_stream %device, %context : (!gpux.DeviceType, !gpux.ContextType) -> !gpux.StreamType
    %own = gpux.create_stream %device : (!gpux.DeviceType) -> !gpux.StreamType
    %d = gpux.alloc host_shared (%s) : memref<4xi32>
    gpux.launch_func %s, @kernels::@plus_five blocks in (%c1, %c1, %c1) threads in (%c4, %c1, %c1) args(%d : memref<4xi32>)
    %u = memref.cast %d : memref<4xi32> to memref<*xi32>
    call @printMemrefI32(%u) : (memref<*xi32>) -> ()
    gpux.dealloc (%s, %d) : memref<4xi32>
    gpux.wait %s
    gpux.destroy_stream %own : (!gpux.StreamType) -> ()
    gpux.destroy_stream %s : (!gpux.StreamType) -> ()
    gpux.destroy_context %context : (!gpux.ContextType) -> ()
    gpux.destroy_device %device : (!gpux.DeviceType) -> ()
    return
  }
  func.func private @printMemrefI32(memref<*xi32>)
}
