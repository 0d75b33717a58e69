// The work-item builtins that read the launch values (launch_values.hpp: the
// global offset, the part of a launch in parts, the launch's group counts),
// and how a kernel comes to read those values as its own parameters.
//
// A kernel's entry stores each value (one of its parameters) in a __local
// variable of its own, every work-item the same value before it reads it,
// where the builtins read it: they may be called from functions that are not
// the kernel, where its parameters are out of reach. Once the builtins are
// inlined into the kernel, LaunchValuesPass reads the parameter instead
// (a constant-bank operand, no shared-memory load after each barrier, and a
// value the passes that look for group-uniform values see as one), and the
// variables nobody reads any more go, with their stores (dropUnreadLaunchValues).
#pragma once

#include <llvm/IR/PassManager.h>

namespace llvm {
class Function;
class Module;
class PassBuilder;
} // namespace llvm

namespace ze_cuda {

// `kernel`'s parameters from `first` on are the launch values: stored at its
// entry for the builtins, and known to LaunchValuesPass.
void storeLaunchValues(llvm::Function &kernel, unsigned first);

// Where the module calls them: get_global_offset and get_global_id (libclc-15's
// NVPTX library has no get_global_offset, and its get_global_id leaves the
// offset out), get_group_id, get_num_groups and get_global_size (libclc's
// read the CUDA grid's ids and counts, which are a part's in a launch in
// parts). Defined before libclc is linked, so that its own are not taken.
void defineLaunchValueBuiltins(llvm::Module &module);

// In a kernel, a load of a launch value becomes the kernel's parameter.
struct LaunchValuesPass : llvm::PassInfoMixin<LaunchValuesPass> {
    llvm::PreservedAnalyses run(llvm::Function &function, llvm::FunctionAnalysisManager &);
};

// Registers LaunchValuesPass after each InstCombine of the pipeline: the
// builtins are inlined by then.
void addLaunchValues(llvm::PassBuilder &builder);

// After the optimization: the variables no function reads go, with the
// kernels' stores of them.
void dropUnreadLaunchValues(llvm::Module &module);

} // namespace ze_cuda
