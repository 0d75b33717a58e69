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

// The OpenCL 2.0 atomic_* functions on generic pointers (atomic_add(volatile
// int *, int), ...), which libclc-15 has only for global and local ones:
// add, sub, xchg, min, max, and, or, xor, inc, dec and cmpxchg on 32- and
// 64-bit integers, and xchg on float, as LLVM atomics.
void genericAddressAtomics(llvm::Module &module);

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
