// Comparisons stay where the optimiser left them, as on a target with many
// condition registers, which PTX is (predicates are virtual registers).
//
// LLVM 15's NVPTX backend does not say so, and its code generator then
// treats a predicate as scarce: CodeGenPrepare copies every comparison into
// each block that uses its result (so that no predicate stays live across
// blocks), and the DAG combiner turns a select of an `and`/`or` of two
// conditions into two selects. A comparison LICM had moved out of a loop
// goes back into the loop's body and is made on every trip. Rodinia's
// pathfinder tests `tx` against two bounds of its work-group in a loop of
// barriers: its two comparisons ran on every trip, where NVIDIA's OpenCL
// makes them once and keeps their `or` in one predicate (the kernel ran
// 1.07x NVIDIA's time with as many SASS instructions).
#pragma once

#include <llvm/Target/TargetMachine.h>

namespace ze_cuda {

// Marks the NVPTX target lowering of `function`'s subtarget (in NVPTX, the
// machine's only one) as having many condition registers. Call before the
// machine runs any function through its code generator.
void keepComparisonsInPlace(llvm::TargetMachine &machine, const llvm::Function &function);

} // namespace ze_cuda
