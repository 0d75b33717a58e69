// Kernel argument metadata read from a translated LLVM module.
#pragma once

#include "program_builder.hpp"

#include <vector>

namespace llvm {
class Module;
}

namespace ze_driver {
namespace detail {

// One KernelInfo per SPIR_KERNEL function definition, in module order.
// Argument kinds come from the LLVM signature, which is what the OpenCL
// runtime will expect when the driver sets the arguments: the address space of
// a pointer says global/constant/local; anything else (and a byval struct
// pointer) is passed by value with its DataLayout allocation size.
std::vector<KernelInfo> kernelInfoFromModule(const llvm::Module &module);

} // namespace detail
} // namespace ze_driver
