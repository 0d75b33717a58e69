// What the translation's loop passes (unroll_hints.hpp, uniform_unswitch.hpp)
// ask of a loop and write on it: the size of its body, named nodes in its
// ID.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Metadata.h>

namespace ze_cuda {

// The instructions of a loop's body, or 0 if it calls something convergent
// (a barrier: every work-item must reach each of its calls, which neither a
// remainder loop nor a copy of the loop chosen per work-item lets them).
unsigned bodySize(const llvm::Loop &loop);

// Whether the loop's ID holds a node whose name (its first operand) starts
// with `prefix`.
bool hasLoopMetadata(const llvm::Loop &loop, llvm::StringRef prefix);

// Gives the loop a new ID of its own (distinct: a copied loop would
// otherwise share its original's) with the present one's nodes and `node`.
void addLoopMetadata(llvm::Loop &loop, llvm::ArrayRef<llvm::Metadata *> node);

} // namespace ze_cuda
