// Loop unrolling as NVIDIA's compilers do it, where LLVM's -O3 pipeline on
// NVPTX does less (each measured: bench_cuda_vs_opencl, benchmarks/README.md):
//  - runtime unrolling of small loops: an innermost loop whose trip count is
//    known only when it starts (it counts to a bound; a loop that leaves on
//    a condition of its data is left alone, as NVIDIA's OpenCL leaves it),
//    with a small body and no unroll directive of its own, is unrolled four
//    times (with a remainder loop), twice where its body is up to twice as
//    large; NVIDIA's OpenCL unrolls them so (an n-body step's loop over the
//    bodies by four, GEGL's motion blur by two), which saves the loop's own
//    instructions and lets the GPU overlap the iterations' loads;
//  - four copies of a short search through memory: a small innermost loop
//    with a counted exit and exits on values it loads (Parboil's
//    splitRearrange walking back while the keys equal its own, a particle
//    filter's scan of a sorted table), each copy with its load and test, as
//    NVIDIA's OpenCL unrolls splitRearrange;
//  - eight copies of a loop of a constant trip count over 16 that eight
//    divide (a body of at most 600 instructions), as NVIDIA's OpenCL makes
//    of clpeak's chains of multiply-adds, where LLVM's partial unrolling
//    stops at about 75 instructions; shorter loops, and loops small enough
//    for LLVM's whole unrolling (64 iterations of one multiply-add), are
//    left to it;
//  - whole unrolling of loops that index a private array: a loop of at most
//    32 iterations whose accesses to a private array change with the
//    iteration (an FFT's twiddle loop over its eight points) is unrolled
//    whole, whatever its size, so that every access gets a constant index
//    and the array lives in registers instead of local memory.
#pragma once

#include <llvm/Passes/PassBuilder.h>

namespace ze_cuda {

// Marks such loops (llvm.loop.unroll.count 4 or 8, llvm.loop.unroll.full) late
// in the loop pipeline (after the loops are simplified and rotated, before
// LLVM's unrolling, which then unrolls them), and, after each InstCombine,
// drops the convergent mark inlining leaves on calls of intrinsics that are
// not convergent (a loop that floors would otherwise count as one holding a
// barrier, which neither this pass nor LLVM unrolls with a remainder):
// registered on `builder` before the pipeline is built.
void addUnrollHints(llvm::PassBuilder &builder);

} // namespace ze_cuda
