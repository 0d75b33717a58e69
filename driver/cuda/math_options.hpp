// OpenCL's floating-point build options, as the PTX translation honours
// them (zeModuleCreate's build flags, or the options the library's compiler
// was given, which it passes on):
//   -cl-mad-enable                a * b + c may be one fused multiply-add;
//   -cl-no-signed-zeros           the sign of a zero may be ignored;
//   -cl-finite-math-only          no argument or result is a NaN or infinity;
//   -cl-unsafe-math-optimizations the three above, reassociation,
//                                 reciprocals, and approximate division,
//                                 square roots and math builtins (libdevice's
//                                 __nv_fast_* functions);
//   -cl-denorms-are-zero          single-precision denormals are flushed to
//                                 zero (the .ftz instructions);
//   -cl-fp32-correctly-rounded-divide-sqrt   single-precision division
//                                 and square root correctly rounded (by
//                                 default they are as accurate as OpenCL
//                                 asks: opencl_division.hpp, native_math.hpp);
//   -cl-fast-relaxed-math         -cl-finite-math-only,
//                                 -cl-unsafe-math-optimizations and, as
//                                 NVIDIA's OpenCL and nvcc's --use_fast_math
//                                 do, -cl-denorms-are-zero.
// Without them the translation keeps IEEE semantics but for single-precision
// division and square root, and OpenCL's default contraction (only what the
// source wrote as one expression is fused).
#pragma once

#include <string>

namespace llvm {
class Module;
class TargetOptions;
} // namespace llvm

namespace ze_cuda {

struct MathOptions {
    bool contract = false;      // -cl-mad-enable
    bool noSignedZeros = false; // -cl-no-signed-zeros
    bool finite = false;        // -cl-finite-math-only
    bool unsafe = false;        // -cl-unsafe-math-optimizations
    bool flushDenormals = false; // -cl-denorms-are-zero
    bool correctlyRoundedDivide = false; // -cl-fp32-correctly-rounded-divide-sqrt (and sqrt)
};

// The options a build-flag string asks for (other flags are ignored).
MathOptions parseMathOptions(const std::string &flags);

// The fast-math flags on the floating-point instructions of the module's
// own functions (before the libraries are linked: their algorithms keep
// their own arithmetic).
void addFastMathFlags(llvm::Module &module, const MathOptions &options);

// The function attributes the NVPTX backend reads (denormal mode, unsafe,
// finite, no signed zeros), on every function once the libraries are
// linked: inlining keeps an attribute only where caller and callee agree.
void setMathAttributes(llvm::Module &module, const MathOptions &options);

// The code generator's side of the same options.
void setTargetMathOptions(llvm::TargetOptions &target, const MathOptions &options);

} // namespace ze_cuda
