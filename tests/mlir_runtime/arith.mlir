// f32 and i64 arithmetic on 1-D, 2-D and 3-D memrefs, scalar kernel
// arguments of 4 (f32) and 8 (i64) bytes, through MLIR's own lowering and
// libimex_l0_mlir_runtime.so.
// RUN: %lower %s | %run | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // y = a * x + y
    gpu.func @axpy(%x: memref<16xf32>, %y: memref<16xf32>, %a: f32) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %b = gpu.block_id x
      %t = gpu.thread_id x
      %n = gpu.block_dim x
      %bn = arith.muli %b, %n : index
      %i = arith.addi %bn, %t : index
      %xi = memref.load %x[%i] : memref<16xf32>
      %yi = memref.load %y[%i] : memref<16xf32>
      %p = arith.mulf %a, %xi : f32
      %s = arith.addf %p, %yi : f32
      memref.store %s, %y[%i] : memref<16xf32>
      gpu.return
    }
    // m[i][j] = i * 10 + j + k, with k = 2^40 (needs all 8 bytes)
    gpu.func @iota2d(%m: memref<4x5xi64>, %k: i64) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [5, 1, 1]>} {
      %i = gpu.block_id x
      %j = gpu.thread_id x
      %i64 = arith.index_cast %i : index to i64
      %j64 = arith.index_cast %j : index to i64
      %c10 = arith.constant 10 : i64
      %a = arith.muli %i64, %c10 : i64
      %b = arith.addi %a, %j64 : i64
      %c = arith.addi %b, %k : i64
      memref.store %c, %m[%i, %j] : memref<4x5xi64>
      gpu.return
    }
    // t[i][j][k] = (i * 100 + j * 10 + k) * 0.5
    gpu.func @half3d(%t: memref<2x3x4xf32>) kernel
        attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 1, 1]>} {
      %i = gpu.block_id x
      %j = gpu.block_id y
      %k = gpu.thread_id x
      %c100 = arith.constant 100 : index
      %c10 = arith.constant 10 : index
      %a = arith.muli %i, %c100 : index
      %b = arith.muli %j, %c10 : index
      %ab = arith.addi %a, %b : index
      %v = arith.addi %ab, %k : index
      %vi = arith.index_cast %v : index to i32
      %vf = arith.sitofp %vi : i32 to f32
      %h = arith.constant 0.5 : f32
      %r = arith.mulf %vf, %h : f32
      memref.store %r, %t[%i, %j, %k] : memref<2x3x4xf32>
      gpu.return
    }
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c16 = arith.constant 16 : index
    %one = arith.constant 1.0 : f32
    %a = arith.constant 2.0 : f32
    %k = arith.constant 1099511627776 : i64
    %x = gpu.alloc host_shared () : memref<16xf32>
    %y = gpu.alloc host_shared () : memref<16xf32>
    %m = gpu.alloc host_shared () : memref<4x5xi64>
    %t = gpu.alloc host_shared () : memref<2x3x4xf32>
    scf.for %i = %c0 to %c16 step %c1 {
      %ii = arith.index_cast %i : index to i32
      %f = arith.sitofp %ii : i32 to f32
      memref.store %f, %x[%i] : memref<16xf32>
      memref.store %one, %y[%i] : memref<16xf32>
    }
    %s0 = gpu.wait async
    %s1 = gpu.launch_func async [%s0] @kernels::@axpy blocks in (%c4, %c1, %c1) threads in (%c4, %c1, %c1)
        args(%x : memref<16xf32>, %y : memref<16xf32>, %a : f32)
    %s2 = gpu.launch_func async [%s1] @kernels::@iota2d blocks in (%c4, %c1, %c1) threads in (%c5, %c1, %c1)
        args(%m : memref<4x5xi64>, %k : i64)
    %s3 = gpu.launch_func async [%s2] @kernels::@half3d blocks in (%c2, %c3, %c1) threads in (%c4, %c1, %c1)
        args(%t : memref<2x3x4xf32>)
    gpu.wait [%s3]

    %yu = memref.cast %y : memref<16xf32> to memref<*xf32>
    call @printMemrefF32(%yu) : (memref<*xf32>) -> ()
    // CHECK: [1,  3,  5,  7,  9,  11,  13,  15,  17,  19,  21,  23,  25,  27,  29,  31]
    %mu = memref.cast %m : memref<4x5xi64> to memref<*xi64>
    call @printMemrefI64(%mu) : (memref<*xi64>) -> ()
    // CHECK:      {{\[\[}}1099511627776,   1099511627777,   1099511627778,   1099511627779,   1099511627780],
    // CHECK-NEXT:  [1099511627786,   1099511627787,   1099511627788,   1099511627789,   1099511627790],
    // CHECK-NEXT:  [1099511627796,   1099511627797,   1099511627798,   1099511627799,   1099511627800],
    // CHECK-NEXT:  [1099511627806,   1099511627807,   1099511627808,   1099511627809,   1099511627810]]
    %tu = memref.cast %t : memref<2x3x4xf32> to memref<*xf32>
    call @printMemrefF32(%tu) : (memref<*xf32>) -> ()
    // CHECK:      {{\[\[\[}}0,    0.5,    1,    1.5],
    // CHECK-NEXT:   [5,    5.5,    6,    6.5],
    // CHECK-NEXT:   [10,    10.5,    11,    11.5]],
    // CHECK-NEXT:  {{\[\[}}50,    50.5,    51,    51.5],
    // CHECK-NEXT:   [55,    55.5,    56,    56.5],
    // CHECK-NEXT:   [60,    60.5,    61,    61.5]]]

    %d0 = gpu.wait async
    %d1 = gpu.dealloc async [%d0] %x : memref<16xf32>
    %d2 = gpu.dealloc async [%d1] %y : memref<16xf32>
    %d3 = gpu.dealloc async [%d2] %m : memref<4x5xi64>
    %d4 = gpu.dealloc async [%d3] %t : memref<2x3x4xf32>
    gpu.wait [%d4]
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
  func.func private @printMemrefI64(memref<*xi64>)
}
