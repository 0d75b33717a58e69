// Runtime unrolling of small loops, as NVIDIA's compilers do: an innermost
// loop whose trip count is known only when it runs, with a small body and no
// unroll directive of its own, is unrolled four times (with a remainder
// loop). LLVM 15's -O2 leaves such loops alone on NVPTX; NVIDIA's OpenCL
// unrolls them by four (an n-body step's loop over the bodies, measured:
// bench_cuda_vs_opencl), which saves the loop's own instructions and lets
// the GPU overlap the iterations' loads.
#pragma once

#include <llvm/Passes/PassBuilder.h>

namespace ze_cuda {

// Marks such loops with llvm.loop.unroll.count 4 late in the loop pipeline
// (after the loops are simplified and rotated, before LLVM's unrolling,
// which then unrolls them): registered on `builder` before the pipeline is
// built.
void unrollSmallLoopsAtRunTime(llvm::PassBuilder &builder);

} // namespace ze_cuda
