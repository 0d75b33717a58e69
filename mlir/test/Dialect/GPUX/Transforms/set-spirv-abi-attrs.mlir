// set-spirv-abi-attrs: every kernel without a spirv.entry_point_abi gets one,
// with its known block size as the workgroup size when it has one; other
// functions and kernels that have one are left alone.
// RUN: imex-opt --pass-pipeline='builtin.module(gpu.module(set-spirv-abi-attrs))' %s | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @plain
    // CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<>
    gpu.func @plain() kernel { gpu.return }
    // CHECK-LABEL: gpu.func @known
    // CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [4, 2, 1]>
    gpu.func @known() kernel attributes {known_block_size = array<i32: 4, 2, 1>} { gpu.return }
    // CHECK-LABEL: gpu.func @given
    // CHECK-SAME: spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>
    gpu.func @given() kernel attributes {spirv.entry_point_abi = #spirv.entry_point_abi<workgroup_size = [8, 1, 1]>} { gpu.return }
    // CHECK-LABEL: gpu.func @helper
    // CHECK-NOT: spirv.entry_point_abi
    gpu.func @helper() { gpu.return }
  }
}
