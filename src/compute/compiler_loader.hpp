// Finds and loads libimex_l0_compiler.so the first time OpenCL C is compiled,
// so that processes that only launch SPIR-V never load clang or LLVM.
#pragma once

#include "compiler/compiler_api.h"

namespace imex_l0 {

// Loads the compiler on first call (thread-safe); throws imex_l0_unimplemented
// with dlopen's reason when it cannot be loaded. The library stays loaded
// until the process exits: LLVM does not support being unloaded.
const imex_l0_compiler_api_t &compilerApi();
// The compiler if an earlier call loaded it, else NULL; never loads it.
const imex_l0_compiler_api_t *loadedCompilerApi();

} // namespace imex_l0
