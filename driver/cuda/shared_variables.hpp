// A kernel's own __local variables beyond what CUDA lets a kernel declare:
// ptxas refuses a function with more than 48 KiB of static shared memory
// ("uses too much shared data"), while a block may have up to the device's
// opt-in limit (227 KiB on an H100) as dynamic shared memory. When the
// variables a kernel uses come to more than that, the translation places
// those only it uses at the start of the launch's dynamic shared memory instead
// (the kernel's __local arguments follow them) and records their size in a
// global of the module (sharedVariablesName), which the driver reads when it
// creates the kernel and adds to each launch's dynamic shared memory
// (queue.cpp). Kernels whose variables fit keep them static, as before:
// their code does not change.
#pragma once

#include "ptx_translator.hpp"

#include <llvm/IR/Module.h>

#include <cstdint>

namespace ze_cuda {

// The most static shared memory ptxas accepts for one function.
constexpr uint64_t kStaticSharedLimit = 48 * 1024;

// The launch's dynamic shared memory (declared in `module` at the first
// call): __local arguments are offsets into it.
constexpr const char *kDynamicShared = "__ze_cuda_dynamic_shared";
llvm::GlobalVariable &dynamicSharedMemory(llvm::Module &module);

// For a kernel (SPIR conventions, before its parameters are rewritten): if
// the __local variables it uses come to more than kStaticSharedLimit,
// replaces each that only it uses with its place in the dynamic shared
// memory and adds the global sharedVariablesName names (ptx_translator.hpp).
// Returns the bytes placed, a multiple of 16 (0: none), where the kernel's
// __local arguments begin.
uint64_t placeSharedVariables(llvm::Function &kernel);

} // namespace ze_cuda
