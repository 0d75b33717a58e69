// OpenCL C has no recursion, and the device compiler (PoCL's work-group
// functions) cannot run it: a module whose call graph has a cycle would
// crash at its first launch. It is refused at zeModuleCreate instead, with
// the functions of the cycle named.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace ze_driver {
namespace detail {

// "" when no function of the module calls itself, directly or through
// others; else a build-log line naming one cycle.
std::string findRecursion(const llvm::Module &module);

} // namespace detail
} // namespace ze_driver
