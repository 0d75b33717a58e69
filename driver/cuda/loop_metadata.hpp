// Loop metadata the translation's loop passes read and write
// (unroll_hints.hpp, uniform_unswitch.hpp): named nodes in a loop's ID.
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Metadata.h>

namespace ze_cuda {

// Whether the loop's ID holds a node whose name (its first operand) starts
// with `prefix`.
bool hasLoopMetadata(const llvm::Loop &loop, llvm::StringRef prefix);

// Gives the loop a new ID of its own (distinct: a copied loop would
// otherwise share its original's) with the present one's nodes and `node`.
void addLoopMetadata(llvm::Loop &loop, llvm::ArrayRef<llvm::Metadata *> node);

} // namespace ze_cuda
