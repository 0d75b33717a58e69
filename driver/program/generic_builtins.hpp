// Builtin calls on generic (OpenCL C 2.0 unqualified) pointers. PoCL's kernel
// library defines the pointer-taking builtins (sincos, fract, vload3, atomic_add,
// ...) for the named address spaces only, so a translated module that calls a
// generic overload fails to link in clBuildProgram. The CPU device has one flat
// address space, so such a call can become a call of the global overload on the
// same pointer.
#pragma once

namespace llvm {
class Module;
}

namespace ze_driver {
namespace detail {

// Rewrites every call of an undefined builtin whose mangled name has generic
// pointer parameters (U3AS4) into a call of the global overload (U3AS1, the
// same length, so Itanium substitutions keep their meaning), with the pointer
// arguments address-space cast. Returns the number of calls rewritten.
unsigned resolveGenericBuiltins(llvm::Module &module);

} // namespace detail
} // namespace ze_driver
