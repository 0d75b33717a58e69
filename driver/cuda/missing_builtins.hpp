// OpenCL builtins libclc-15's NVPTX library does not define, or defines
// unlike every other implementation, defined on a module translated for NVPTX (its address spaces already NVPTX's: global
// 1, generic 0), before libclc is linked. What neither defines stays a
// call the translation names in its log.
#pragma once

namespace llvm {
class Module;
}

namespace ze_cuda {

// printf(format, ...) as CUDA's vprintf(format, arguments): the arguments
// are stored in a buffer laid out as a struct (each at its natural
// alignment, floats promoted to double as C's variadic calls do), which is
// what vprintf reads. CUDA prints the output when the host next waits for
// the device through CUDA or launches work. OpenCL's vector conversions
// (%v4f) are not CUDA's: such formats print what CUDA makes of them.
void printfAsVprintf(llvm::Module &module);

// The atomic functions libclc-15 lacks, as LLVM atomics: the OpenCL 2.0
// atomic_* functions on generic pointers (atomic_add(volatile int *, int),
// ...; libclc has them only for global and local ones), cl_khr_int64's
// atom_* on 64-bit integers in every address space (what the SPIR-V reader
// makes of 64-bit atomics, OpenCL 2.0's atomic_long included), and
// atomic_add and atomic_sub on float and double (its form of floating-point
// atomic adds and of a floating-point atomic load). The operations: add,
// sub, xchg, min, max, and, or, xor, inc, dec and cmpxchg.
void missingAtomics(llvm::Module &module);

// mul_hi and mad_hi on every integer type and its vectors, as the high half
// of a product twice as wide (and an add), which the NVPTX backend makes a
// mul.hi: libclc-15 has no mad_hi, and its 64-bit mul_hi is four 32-bit
// products and their carries.
void highHalfProducts(llvm::Module &module);

// ctz (OpenCL 2.0) on every integer type and its vectors, as LLVM's cttz:
// the width of the type for zero.
void countTrailingZeros(llvm::Module &module);

// OpenCL 2.0's to_global, to_local, to_private and get_fence on a generic
// pointer, by the PTX test of the address's space (isspacep): the pointer
// in that space, or null; a local address's fence is CLK_LOCAL_MEM_FENCE,
// any other CLK_GLOBAL_MEM_FENCE.
void addressSpaceQueries(llvm::Module &module);

// Builtins taking a generic pointer (fract, modf, frexp, remquo, lgamma_r,
// sincos, vload_half, vstore_half, wait_group_events, ...: what OpenCL C
// 2.0 and 3.0 call, and the SPIR-V reader makes of wait_group_events'
// list): libclc-15's NVPTX library has them only for private, global and
// local pointers. On NVPTX private and generic pointers are the same (the
// generic address space, 0), so a call of the generic overload becomes a
// call of the private one `library` defines, as the same code. Only
// overloads whose last parameter is the one generic pointer. (The OpenCL
// backend takes the global overloads instead, ../program/generic_builtins.hpp:
// its CPU device has one flat address space; here a generic pointer may
// point to local or private memory.)
void genericPointerOverloads(llvm::Module &module, const llvm::Module &library);

// mul24 and mad24 on int and uint (and their vectors) as the full 32-bit
// product: OpenCL leaves operands beyond 24 bits undefined, and PoCL and
// NVIDIA's OpenCL both compute the full product there, where libclc-15
// first cuts the operands to 24 bits; code written against those gets the
// same results here. The multiplication is one instruction either way.
void fullWidthMul24(llvm::Module &module);

// clamp on integers and their vectors as min(max(x, lo), hi), as NVIDIA's
// OpenCL computes it: two min/max instructions. libclc-15's
// `x > hi ? hi : max(x, lo)` is a compare, a max and a select, which ptxas
// does not join, in every clamp of an image kernel's coordinates. The two
// agree wherever lo <= hi, the only case OpenCL defines.
void minMaxClamp(llvm::Module &module);

} // namespace ze_cuda
