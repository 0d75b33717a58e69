// Single-precision division at OpenCL's accuracy, as NVIDIA's OpenCL
// compiles it. OpenCL lets x / y and 1 / x be 2.5 ulp off unless the build
// asks for -cl-fp32-correctly-rounded-divide-sqrt; LLVM's NVPTX backend
// knows only IEEE division (div.rn.f32, a long sequence) and, under unsafe
// math, the approximate one (div.approx.f32, wrong for large divisors).
// PTX has what OpenCL allows in between: div.full.f32 (2 ulp over the whole
// range) and rcp.approx.f32 (1 ulp), which NVIDIA's OpenCL uses (measured on
// an H100/H200: the MD force step of a public benchmark 1.12x, a bilateral
// filter 1.21x NVIDIA's time with div.rn; benchmarks/README.md).
#pragma once

namespace llvm {
class Module;
}

namespace ze_cuda {

struct MathOptions;

// Marks the module's own float divisions (before the libraries are linked:
// libdevice's and libclc's algorithms keep their exact division), unless the
// options ask for correctly rounded ones or for unsafe math (where LLVM's
// approximate division is what is asked).
void markOpenClDivisions(llvm::Module &module, const MathOptions &options);

// Once the module is optimized: each marked division becomes div.full.f32,
// or rcp.approx.f32 where it divides 1 (.ftz with -cl-denorms-are-zero).
void lowerOpenClDivisions(llvm::Module &module, const MathOptions &options);

} // namespace ze_cuda
