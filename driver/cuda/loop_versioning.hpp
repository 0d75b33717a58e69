// Loops that update memory at one address every iteration through a pointer
// the compiler cannot tell apart from the loop's other pointers run as two
// versions, chosen by a check of the pointers' ranges before the loop: one as
// written, and one where the updated word lives in a register and is stored
// once after the loop. OpenCL C kernels take their buffers as plain pointers,
// so PolyBench's gesummv (`tmp[i] += a[i * n + j] * x[j]; y[i] += b[i * n +
// j] * x[j];`) otherwise loads and stores tmp[i] and y[i] again every
// iteration, each load waiting on the store before it, and reloads x[j]
// after the store to tmp[i]. NVIDIA's OpenCL keeps those loads and stores.
//
// The versioning is LLVM's (LoopVersioningLICMPass: the range checks, and
// no-alias marks on the versioned loop's accesses, which the pipeline's
// later invariant code motion turns into a register). It runs only on an
// innermost loop that stores to a loop-invariant address in a block every
// iteration runs: there the motion can take the store out of the loop. A
// loop whose stores are conditional (SHOC's MD5 search storing what it found)
// would gain nothing and double its code; one that calls something
// convergent stays one loop, since each work-item picks its version. The
// range checks compare addresses, so aliasing buffers of any kind, also two
// arguments that are the same buffer, take the loop as written. It runs late
// in the simplification loop pipeline, before the unrolling
// (unroll_hints.hpp), so that the unrolled copies of an iteration share the
// register.
#pragma once

#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>

namespace ze_cuda {

struct LoopVersioningPass : llvm::PassInfoMixin<LoopVersioningPass> {
    llvm::PreservedAnalyses run(llvm::Loop &loop, llvm::LoopAnalysisManager &analyses,
                                llvm::LoopStandardAnalysisResults &results,
                                llvm::LPMUpdater &updater);
};

// Registers LoopVersioningPass at the late loop optimisations point of the
// simplification pipeline on `builder`, before the pipeline is built and
// before addUnrollHints (callbacks of one point run in the order they were
// registered).
void addLoopVersioning(llvm::PassBuilder &builder);

} // namespace ze_cuda
