// The floating-point builtins whose results are exact (fmod, remainder,
// remquo) or correctly rounded (ldexp): libclc-15's NVPTX build declares
// float subnormals unsupported, and its float functions flush subnormal
// arguments (and ldexp's results) to zero, where OpenCL keeps them; its
// fmod and remainder are also slow. Defined on a module translated for
// NVPTX before libclc is linked, as faster_builtins.hpp's are: builtin by
// builtin, since libclc's bitcode has its "subnormals unsupported" answer
// folded into each function, with no query left to answer otherwise.
#pragma once

namespace llvm {
class Module;
}

namespace ze_cuda {

// fmod and remainder of float and double (and their vectors, element by
// element) with a fast path where the quotient |x / y| is an integer below
// 2^20 (2^40 for doubles) and |y| a normal number away from overflow: the
// quotient truncated from x * (1 / y) (a constant where y is; at most one
// off), corrected by the sign of the remainder fma(-q, |y|, |x|), and the
// remainder computed again with the corrected quotient, exact then (the
// true remainder is representable); remainder rounds the quotient to the
// nearest even integer on that remainder (r - |y| is exact for r above
// |y| / 2). Other arguments (NaN, infinities, large quotients, tiny or huge
// divisors): for floats in double, where every float is normal, |x|
// reduced by even multiples of |y| 39 bits of quotient a step (the parity
// remainder needs is kept) and then as above; for doubles libclc's
// __clc_fmod and __clc_remainder, which divide bit by bit. libclc's were
// 1.35x the time of NVIDIA's OpenCL, whose compiler has such a fast path,
// and its float ones flush subnormals to zero (fmod(7, 3 * 2^-149) was 0,
// not 2^-148).
void quotientRemainders(llvm::Module &module);

// remquo of float (and its vectors, through a pointer of any address
// space) as libclc's remquo of double on the converted arguments (exact,
// the remainder a float and the quotient the same integer): libclc's float
// remquo flushes subnormal arguments to zero.
void wideRemquos(llvm::Module &module);

// ldexp of float (and its vectors, with a vector or a scalar exponent) as a
// multiplication by 2^n, correctly rounded: for n in [-126, 127] by the
// float 2^n, otherwise in double (every float times 2^n for |n| <= 400 is
// exact there; the conversion back rounds once). libclc-15's NVPTX build
// declares float subnormals unsupported and its ldexp flushes subnormal
// arguments and results to zero, where OpenCL keeps them (its bit
// arithmetic, some 25 instructions, was also 1.16x the time of NVIDIA's
// OpenCL on the exponent builtins).
void exactLdexps(llvm::Module &module);

} // namespace ze_cuda
