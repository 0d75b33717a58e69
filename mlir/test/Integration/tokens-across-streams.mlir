// Async tokens across two streams: a slow kernel on stream 1 stores into %a;
// a copy kernel on stream 2 depends on it through each token form and copies
// %a into its own result. A dropped dependency lets the copy run first and
// read the stale -1 (the slow kernel spins for about 0.1 s on a CPU device;
// the copy takes microseconds).
// REQUIRES: runtime
// RUN: imex-opt --gpux-lower-to-llvm %s | %run | FileCheck %s
// gpux.wait [%t] %s2: the host waits for %t before the copy is queued.
// CHECK: [1]
// %j = gpux.wait async [%t] %s2, then launch async [%j] %s2.
// CHECK: [2]
// async [%targ, %t] with %targ null at run time (a caller passing NULL):
// the null entry must not end the list before %t.
// CHECK: [3]
// The token of a copy on stream 1 (no event of its own) used on stream 2.
// CHECK: [4]
// A token of stream 1 used after stream 1's own wait recycled its event.
// CHECK: [5]

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // d[0] = v after `spins` rounds of dependent float arithmetic, which no
    // optimiser folds (the sentinel branch keeps them: x stays positive).
    gpu.func @slow_store(%d: memref<1xf32>, %v: f32, %spins: index) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %seed = arith.constant 0.5 : f32
      %mul = arith.constant 0.999999 : f32
      %add = arith.constant 0.25 : f32
      %x = scf.for %i = %c0 to %spins step %c1 iter_args(%acc = %seed) -> (f32) {
        %m = arith.mulf %acc, %mul : f32
        %n = arith.addf %m, %add : f32
        scf.yield %n : f32
      }
      %zero = arith.constant 0.0 : f32
      %hit = arith.cmpf olt, %x, %zero : f32
      %bad = arith.constant -2.0 : f32
      %out = arith.select %hit, %bad, %v : f32
      memref.store %out, %d[%c0] : memref<1xf32>
      gpu.return
    }
    // dst[0] = src[0]
    gpu.func @copy(%dst: memref<1xf32>, %src: memref<1xf32>) kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [1, 1, 1]>} {
      %c0 = arith.constant 0 : index
      %v = memref.load %src[%c0] : memref<1xf32>
      memref.store %v, %dst[%c0] : memref<1xf32>
      gpu.return
    }
  }

  // Stream 2's copy after both tokens; %first may be null.
  func.func @copy_after(%s2: !gpux.StreamType, %first: !gpu.async.token, %second: !gpu.async.token,
                        %dst: memref<1xf32>, %src: memref<1xf32>) {
    %c1 = arith.constant 1 : index
    %t = gpux.launch_func async [%first, %second] %s2, @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%dst : memref<1xf32>, %src : memref<1xf32>)
    gpux.wait [%t] %s2
    return
  }

  func.func @print(%m: memref<1xf32>) {
    %u = memref.cast %m : memref<1xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %spins = arith.constant 1000000 : index
    %stale = arith.constant -1.0 : f32
    %s1 = gpux.create_stream : () -> !gpux.StreamType
    %s2 = gpux.create_stream : () -> !gpux.StreamType
    %a = gpux.alloc host_shared (%s1) : memref<1xf32>
    %b = gpux.alloc host_shared (%s1) : memref<1xf32>
    %out = gpux.alloc host_shared (%s2) : memref<1xf32>

    // 1: a synchronous wait with a dependency on the other stream.
    memref.store %stale, %a[%c0] : memref<1xf32>
    %v1 = arith.constant 1.0 : f32
    %t1 = gpux.launch_func async %s1, @kernels::@slow_store blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1xf32>, %v1 : f32, %spins : index)
    gpux.wait [%t1] %s2
    gpux.launch_func %s2, @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<1xf32>, %a : memref<1xf32>)
    call @print(%out) : (memref<1xf32>) -> ()
    gpux.wait %s1

    // 2: an asynchronous wait joins the token into stream 2.
    memref.store %stale, %a[%c0] : memref<1xf32>
    %v2 = arith.constant 2.0 : f32
    %t2 = gpux.launch_func async %s1, @kernels::@slow_store blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1xf32>, %v2 : f32, %spins : index)
    %j2 = gpux.wait async [%t2] %s2
    %c2 = gpux.launch_func async [%j2] %s2, @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<1xf32>, %a : memref<1xf32>)
    gpux.wait [%c2] %s2
    call @print(%out) : (memref<1xf32>) -> ()
    gpux.wait %s1

    // 3: a null token before the real one in a dependency list.
    memref.store %stale, %a[%c0] : memref<1xf32>
    %v3 = arith.constant 3.0 : f32
    %t3 = gpux.launch_func async %s1, @kernels::@slow_store blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1xf32>, %v3 : f32, %spins : index)
    %zero = llvm.mlir.zero : !llvm.ptr
    %null = builtin.unrealized_conversion_cast %zero : !llvm.ptr to !gpu.async.token
    call @copy_after(%s2, %null, %t3, %out, %a) : (!gpux.StreamType, !gpu.async.token, !gpu.async.token, memref<1xf32>, memref<1xf32>) -> ()
    call @print(%out) : (memref<1xf32>) -> ()
    gpux.wait %s1

    // 4: the token of a copy crosses streams.
    memref.store %stale, %a[%c0] : memref<1xf32>
    memref.store %stale, %b[%c0] : memref<1xf32>
    %v4 = arith.constant 4.0 : f32
    %t4 = gpux.launch_func async %s1, @kernels::@slow_store blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1xf32>, %v4 : f32, %spins : index)
    %m4 = gpux.memcpy async [%t4] (%s1, %b, %a) : memref<1xf32>, memref<1xf32>
    %c4 = gpux.launch_func async [%m4] %s2, @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<1xf32>, %b : memref<1xf32>)
    gpux.wait [%c4] %s2
    call @print(%out) : (memref<1xf32>) -> ()

    // 5: stream 1 waited (recycling its events) before stream 2 uses %t5.
    %v5 = arith.constant 5.0 : f32
    %t5 = gpux.launch_func async %s1, @kernels::@slow_store blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<1xf32>, %v5 : f32, %c1 : index)
    gpux.wait %s1
    %c5 = gpux.launch_func async [%t5] %s2, @kernels::@copy blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%out : memref<1xf32>, %a : memref<1xf32>)
    gpux.wait [%c5] %s2
    call @print(%out) : (memref<1xf32>) -> ()

    gpux.dealloc (%s1, %a) : memref<1xf32>
    gpux.dealloc (%s1, %b) : memref<1xf32>
    gpux.dealloc (%s2, %out) : memref<1xf32>
    gpux.wait %s1
    gpux.wait %s2
    gpux.destroy_stream %s1 : (!gpux.StreamType) -> ()
    gpux.destroy_stream %s2 : (!gpux.StreamType) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
