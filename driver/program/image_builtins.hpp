// write_imagei on 3D and 2D-array images (int4 coordinates, int4 color) as
// PoCL's kernel library can run it. PoCL 3.1 defines that builtin under a
// wrongly mangled name (substitution S_ where the Itanium ABI says S0_), and
// its body calls an implementation under the same wrong name, which the
// library never defines: both the correctly mangled call (what the
// translator emits) and the library's own wrapper fail to link, and PoCL
// aborts the process when the kernel is first run. The implementation the
// library does define is _cl_write_imagei with the right mangling, taking the
// image as a flat pointer.
#pragma once

namespace llvm {
class Module;
}

namespace ze_driver {
namespace detail {

// Turns every call of those builtins into a call of the implementation, the
// image pointer cast to the flat address space as the library's wrappers do.
// Returns the number of calls rewritten.
unsigned resolveImageBuiltins(llvm::Module &module);

} // namespace detail
} // namespace ze_driver
