// An OpenCL C program is one translation unit: every function it calls is
// either defined in it or a builtin of the device's library. Two rules follow
// from that, applied to the module clang produced.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace imex_l0::compiler {

// C99 `inline` without `static` gives an inline definition and no external
// one, so clang emits the body as available_externally and calls an external
// symbol nothing defines. OpenCL implementations compile such helpers into
// the program; so does this: each becomes an internal definition.
void defineInlineFunctions(llvm::Module &module);

// "error: ..." lines, one per function that is called, defined nowhere in the
// module and not a builtin; empty if none. Such a module would only fail
// later, when the device compiler links it.
std::string undefinedFunctions(const llvm::Module &module);

} // namespace imex_l0::compiler
