// Loads of part of a vector kept as one vector load, as NVIDIA's compilers
// keep them. A kernel that reads x, y and z of a float4 (an n-body or
// molecular-dynamics step reading positions whose w it ignores) loads the
// whole float4 in the SPIR-V; LLVM's VectorCombine splits such a load into
// one scalar load per element used (its cost model on NVPTX counts scalar
// loads as cheaper), and the backend's load-store vectorizer can only join
// the three back into a two-element and a one-element load. On the GPU that
// is two memory instructions where one did it: for a gather (SHOC's
// compute_lj_force reads its neighbours' positions through an index list)
// two transactions per element, the kernel 1.06x the time of NVIDIA's
// OpenCL build of it, which loads the float4 whole.
//
// The pass, run at the end of the optimisation pipeline, finds scalar loads
// of elements of one 16-byte-aligned vector of four 8-, 16- or 32-bit
// elements in a block, with no write to memory between them, whose elements
// the load-store vectorizer could not join into one load (three of four, or
// two that are not an aligned pair), and loads the vector once instead. The
// vector is aligned to its size, so the load cannot reach past the memory
// page of the elements it replaces.
#pragma once

#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>

namespace ze_cuda {

struct VectorLoadPass : llvm::PassInfoMixin<VectorLoadPass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &analyses);
};

// Registers VectorLoadPass at the end of the optimisation pipeline
// (PassBuilder's optimizer-last point) on `builder`, before the pipeline is
// built.
void addVectorLoads(llvm::PassBuilder &builder);

} // namespace ze_cuda
