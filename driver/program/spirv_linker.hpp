// The modules of a program of several SPIR-V modules
// (ZE_experimental_module_program) become one LLVM module: each module's
// Import declarations are bound to the Export definitions of the others, as
// SPIR-V's linkage says, before any device compiler sees the program.
#pragma once

#include <level_zero/ze_api.h>

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class Module;
}

namespace ze_driver {
namespace detail {

// Links `others` (translated in `into`'s context) into `into`, in order.
// Returns ZE_RESULT_SUCCESS, or ZE_RESULT_ERROR_MODULE_BUILD_FAILURE with
// LLVM's linker message in `log` (a symbol two modules export, say). An
// import that no module exports stays a declaration: the device compiler's
// link step reports it by name, as it does for a module of its own.
ze_result_t linkSpirvModules(llvm::Module &into, std::vector<std::unique_ptr<llvm::Module>> others,
                             std::string *log);

} // namespace detail
} // namespace ze_driver
