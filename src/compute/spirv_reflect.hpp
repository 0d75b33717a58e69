// Kernel signatures read straight from a SPIR-V module, without LLVM: the
// library needs them for SPIR-V it did not compile, and loading clang/LLVM
// for that would defeat keeping the compiler optional.
#pragma once

#include "imex_l0_interop.h"

#include <cstddef>
#include <string>
#include <vector>

namespace imex_l0 {

struct SpirvArg {
    imex_l0_arg_kind_t kind = imex_l0_arg_kind_value;
    size_t size = 0; // 8 (or 4) for pointers, 0 for local memory, the value's byte size
};

struct SpirvKernel {
    std::string name;
    std::vector<SpirvArg> args;
};

// Every OpEntryPoint Kernel of the module with its parameters. On malformed
// input returns {} and says why in `problem` (never reads out of bounds).
std::vector<SpirvKernel> reflectSpirv(const void *data, size_t size, std::string &problem);

} // namespace imex_l0
