// Sub-groups on CUDA warps: the builtins of cl_khr_subgroups (sizes and
// ids, sub_group_barrier, all/any, broadcast, reduce and scans of add, min
// and max) and of cl_intel_subgroups(_short) (shuffles, broadcast, reduce,
// scans, block reads and writes of global memory), which libclc-15's NVPTX
// library lacks, on the warp's shuffle, vote and barrier instructions.
//
// A sub-group is a warp: 32 work-items in local linear order (CUDA forms
// warps from the linear thread index as OpenCL orders local ids), the last
// one of a work-group whose size is no multiple of 32 holding the rest. The
// driver reports 32 as the one sub-group size. Each operation names the
// warp's lanes it involves by a mask of the sub-group's size, so a partial
// sub-group never waits for lanes that do not exist; a reduction runs down a
// tree to lane 0 and is broadcast from there, a scan runs up from lane 0.
// Work-items of a sub-group call these builtins together, as OpenCL
// requires.
#pragma once

namespace llvm {
class Module;
}

namespace ze_cuda {

// Replaces the calls of those builtins the module makes (on the translator's
// module, SPIR address spaces); returns how many.
unsigned resolveWarpSubGroupBuiltins(llvm::Module &module);

} // namespace ze_cuda
