// OpenCL builtins whose libclc-15 definitions are correct but slow on NVPTX,
// defined on a module translated for NVPTX (its address spaces already
// NVPTX's), before libclc is linked, as the GPU's own instructions or
// branch-free code, as NVIDIA's OpenCL compiles them. Measured with
// benchmarks/kernels/math/builtins.cl against NVIDIA's OpenCL (H200):
// vstore_half 11.8x its time, a shuffle with a mask known only at run time
// 6.6x, rotate 1.9x, saturating conversions 1.8x, normalize and length
// under -cl-fast-relaxed-math 1.6x (benchmarks/README.md).
#pragma once

namespace llvm {
class Module;
}

namespace ze_cuda {

// vstore_half, vstore_halfn and vstorea_halfn of float and double, by
// default and with _rte (round to nearest even: both what the conversion
// instruction does, cvt.rn.f16): libclc rounds in integer arithmetic, some
// 40 instructions and branches a value. The other rounding modes stay
// libclc's.
void halfStores(llvm::Module &module);

// shuffle and shuffle2 as a tree of selects per result element on the
// mask's bits: libclc switches on each mask element and reads the vector
// back from stack memory by index. A constant mask folds to the elements.
void selectShuffles(llvm::Module &module);

// rotate on every integer type and its vectors as a funnel shift (shf.l on
// 32 bits; a 64-bit one as two of its halves): libclc branches on the
// amount's sign.
void funnelRotates(llvm::Module &module);

// convert_<integer>_sat[_rte|_rtz|_rtn|_rtp] of float and double (and their
// vectors) as PTX's saturating conversion (cvt.rni.sat.u8.f32: out-of-range
// values clamped, as OpenCL's _sat wants; NaN 0, by a select where the
// instruction does not give it): libclc rounds, compares and selects. PTX
// only, so an inline assembly instruction per element, as NVIDIA's OpenCL
// writes it.
void saturatingConversions(llvm::Module &module);

// fast_length, fast_normalize and fast_distance of float vectors as OpenCL
// defines them, the square root or reciprocal square root of the sum of
// squares on sqrt.approx or rsqrt.approx (half_sqrt, half_rsqrt; a zero
// vector normalized is itself), and with `unsafe` math (as NVIDIA's OpenCL
// under -cl-fast-relaxed-math) length, normalize and distance of float
// vectors so too: libclc scales the vector against overflow and underflow
// first, and branches.
void shortGeometry(llvm::Module &module, bool unsafe);

// clamp and smoothstep of float and double (and their vectors) with fmax
// then fmin (PTX's max and min), and a clamp of floats to [0, 1] (bounds
// constant once inlined, as smoothstep's own) as PTX's saturation
// (cvt.sat.f32.f32), as NVIDIA's OpenCL makes it: libclc compares and
// selects around a NaN-propagating max.
void floatClamps(llvm::Module &module);

// sign of float and double (and their vectors) as selects: 1 or -1 by the
// comparisons, the argument itself for a zero, 0 for NaN; libclc branches.
void selectSigns(llvm::Module &module);

// fdim of float and double (and their vectors) as NVIDIA's OpenCL makes it:
// x <= y ? +0 : x - y (a NaN fails the comparison and propagates through
// the difference), three instructions where libclc tests for NaN and takes
// a maximum, four.
void selectFdims(llvm::Module &module);

// fmod and remainder of float and double (and their vectors, element by
// element) with a fast path where the quotient |x / y| is an integer below
// 2^20 (2^40 for doubles) and |y| a normal number away from overflow: the
// quotient truncated from x * (1 / y) (a constant where y is; at most one
// off), corrected by the sign of the remainder fma(-q, |y|, |x|), and the
// remainder computed again with the corrected quotient, exact then (the
// true remainder is representable); remainder rounds the quotient to the
// nearest even integer on that remainder (r - |y| is exact for r above
// |y| / 2). Other arguments (NaN, infinities, large quotients, tiny or huge
// divisors) go to libclc's double implementation (__clc_fmod,
// __clc_remainder), floats converted (exact, and the result a float): it
// divides bit by bit, 1.35x the time of NVIDIA's OpenCL, whose compiler has
// such a fast path, and libclc's float one flushes subnormals to zero
// (fmod(7, 3 * 2^-149) was 0, not 2^-148).
void quotientRemainders(llvm::Module &module);

// remquo of float (and its vectors, through a pointer of any address
// space) as libclc's remquo of double on the converted arguments (exact,
// the remainder a float and the quotient the same integer): libclc's float
// remquo flushes subnormal arguments to zero, as its fmod did.
void wideRemquos(llvm::Module &module);

// copysign of float and double (and their vectors) on the bits: the sign of
// y or'ed into |x| (two instructions; one of a constant x). The NVPTX
// backend expands llvm.copysign as a test of y's sign bit and a select
// between x and its negation.
void bitCopySigns(llvm::Module &module);

// ldexp of float (and its vectors, with a vector or a scalar exponent) as a
// multiplication by 2^n, correctly rounded: for n in [-126, 127] by the
// float 2^n, otherwise in double (every float times 2^n for |n| <= 400 is
// exact there; the conversion back rounds once). libclc-15's NVPTX build
// declares float subnormals unsupported and its ldexp flushes subnormal
// arguments and results to zero, where OpenCL keeps them (its bit
// arithmetic, some 25 instructions, was also 1.16x the time of NVIDIA's
// OpenCL on the exponent builtins).
void exactLdexps(llvm::Module &module);

// With `unsafe` math (-cl-unsafe-math-optimizations, -cl-fast-relaxed-math)
// asin, acos, atan and atan2 of float (and their vectors) as short
// polynomials, as NVIDIA's OpenCL makes them then: asin on [0, 1/2] as
// a + a^3 P(a^2), beyond as pi/2 - 2 asin(sqrt((1 - a) / 2)) (acos from the
// same); atan on [0, tan(pi/8)] as t + t^3 Q(t^2), reduced to it by 1/t
// and (t - 1) / (t + 1); atan2 by min / max of the magnitudes and the
// quadrant. P and Q (degree 4) are fitted to the functions in relative
// error; with correctly rounded steps the results are within 2.6 ulp
// (asin), 1.4 (acos), 2.6 (atan) and 2.9 (atan2) of the true values, the
// approximate square root and division add about one. libdevice's precise
// routines, which the translation takes otherwise, were 1.36x the time of
// NVIDIA's fast build.
void relaxedInverseTrig(llvm::Module &module, bool unsafe);

} // namespace ze_cuda
