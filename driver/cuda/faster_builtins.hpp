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

// copysign of float and double (and their vectors) on the bits: the sign of
// y or'ed into |x| (two instructions; one of a constant x). The NVPTX
// backend expands llvm.copysign as a test of y's sign bit and a select
// between x and its negation.
void bitCopySigns(llvm::Module &module);

} // namespace ze_cuda
