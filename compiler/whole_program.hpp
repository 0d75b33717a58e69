// An OpenCL C program is one translation unit: every function it calls is
// either defined in it or a builtin of the device's library. Two rules follow
// from that, applied to the module clang produced.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace imex_l0::compiler {

// Every function defined here that is not a kernel is the program's own: it
// gets internal linkage, so unused helpers are dropped and the rest need no
// export in the SPIR-V (program-scope variables keep theirs, for
// zeModuleGetGlobalPointer). This also defines C99 `inline` helpers: `inline`
// without `static` gives an inline definition and no external one, which
// clang emits available_externally, calling an external symbol nothing
// defines; OpenCL implementations compile such helpers into the program.
void internalizeHelpers(llvm::Module &module);

// "error: ..." lines, one per function that is called, defined nowhere in the
// module and not a builtin; empty if none. Such a module would only fail
// later, when the device compiler links it.
std::string undefinedFunctions(const llvm::Module &module);

} // namespace imex_l0::compiler
