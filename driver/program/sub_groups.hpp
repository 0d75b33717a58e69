// Sub-group builtins on a device whose sub-groups are single work-items. The
// driver reports one sub-group size, 1 (PoCL's CPU device has no sub-groups
// of its own and its kernel library defines none of these builtins), so a
// kernel that uses them gets the answers that size implies: each work-item is
// sub-group number <local linear id>, local id 0, and every collective
// operation is over that one work-item.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/ADT/StringRef.h>
#include <llvm/IR/IRBuilder.h>

#include <functional>
#include <optional>

namespace llvm {
class Constant;
class Module;
class Type;
} // namespace llvm

namespace ze_driver {
namespace detail {

// Replaces the calls of the cl_khr_subgroups builtins (sizes and ids,
// sub_group_barrier, all/any, broadcast, reduce and scans) and of
// cl_intel_subgroups(_short)'s (shuffles, broadcast, reduce, scans, block
// reads and writes of global memory) with their single-work-item values.
// Returns the number of calls replaced.
unsigned resolveSubGroupBuiltins(llvm::Module &module);

// The identity of a sub-group scan or reduction `op` ("add", "min", "max")
// on `type`: 0 for add, the type's largest value for min and its smallest for
// max (infinities for floating point); `element` is the parameter's mangled
// type ('i', 'j', 'f', ...), which tells signedness. Shared with the CUDA
// backend's sub-groups on warps.
llvm::Constant *subGroupIdentity(llvm::Type *type, llvm::StringRef op, char element);

// Calls `replacement` for every call of a declared sub-group builtin (a
// mangled name with "sub_group" in it), with its name and parameters'
// mangling, as rewriteCalls does (call_rewrite.hpp). Returns the number of
// calls replaced.
using SubGroupReplacement = std::function<std::optional<llvm::Value *>(
    llvm::CallInst &call, llvm::StringRef name, llvm::StringRef params)>;
unsigned rewriteSubGroupCalls(llvm::Module &module, const SubGroupReplacement &replacement);

// Whether a parameter mangled as `element` is a signed integer.
bool isSignedElement(char element);

// Intel's block read or write of global memory at `call` (its first argument
// the pointer): element k of the work-item's value moves from or to
// pointer[index(k)], index being i64. Returns the value read (nullptr for a
// write), or nothing for the image forms (first argument not a pointer).
std::optional<llvm::Value *> intelBlockAccess(llvm::IRBuilder<> &b, llvm::CallInst &call, bool read,
                                              llvm::function_ref<llvm::Value *(unsigned k)> index);

} // namespace detail
} // namespace ze_driver
