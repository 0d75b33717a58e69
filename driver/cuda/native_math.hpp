// OpenCL's native_* math builtins, and the half_* ones whose accuracy the
// GPU's approximate instructions meet, on those instructions (ex2.approx,
// lg2.approx, sin.approx, cos.approx, sqrt.approx, rsqrt.approx,
// div.approx): what NVIDIA's own OpenCL compiler makes of them. libclc-15
// defines the native_* builtins as LLVM's generic math intrinsics
// (llvm.exp.f32, llvm.sin.f32), which LLVM 15's NVPTX backend cannot lower:
// it ends the process ("Undefined external symbol expf", "Cannot select").
//
// native_* has implementation-defined accuracy. half_* must be within 8192
// ulp: the exponentials (ex2.approx, 2 ulp, after a multiplication), sqrt,
// rsqrt, recip and divide meet that everywhere and take the instructions;
// half_log* (lg2.approx's error is absolute near 1) and half_sin/cos/tan
// (sin.approx's error grows past 100 pi, half_* reaches 2^16) are the
// precise log*, sin, cos and tan (libdevice's where it is installed: libclc's
// generic software took 1.7x NVIDIA's time), and half_powr libclc's powr;
// with -cl-unsafe-math-optimizations (or -cl-fast-relaxed-math) they take
// the approximate instructions too, as NVIDIA's OpenCL compiles them then.
#pragma once

namespace llvm {
class Module;
}

namespace ze_cuda {

// Defines every such builtin the module declares, on float and its vectors,
// before libclc and libdevice are linked (so libclc's are not taken). With
// `approximateSqrt`, float sqrt takes sqrt.approx too (within 1 ulp where
// OpenCL allows 3): as NVIDIA's OpenCL compiles sqrt unless the build asks
// for -cl-fp32-correctly-rounded-divide-sqrt (LLVM 15's NVPTX backend would
// make sqrt.rn, a sequence with a slow path, whatever the options). With
// `unsafe`, every half_* takes the approximate instructions. Returns how
// many.
unsigned defineNativeMath(llvm::Module &module, bool approximateSqrt, bool unsafe);

} // namespace ze_cuda
