// OpenCL's math builtins from libdevice, the math library NVIDIA's compilers
// use (nvvm/libdevice/libdevice.10.bc of the CUDA toolkit), where it is
// installed: exp, exp2, exp10, expm1, log, log2, log10, log1p, the
// trigonometric, inverse and hyperbolic functions, pow, cbrt, erf, erfc,
// tgamma, lgamma, hypot, sinpi, cospi, rsqrt and sincos, on float and double
// and their vectors. libdevice's routines use the GPU's fast instructions with
// the corrections that keep them within CUDA's documented error, which is
// within OpenCL's for each of these (exp 2 ulp against OpenCL's 3, pow 9
// against 16, rsqrt 2 against 2, ...); libclc-15's are generic software
// routines, several times slower on the GPU. Without libdevice the
// translation takes libclc's, as before: nothing fails.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace ze_cuda {

// Where libdevice is: ZE_CUDA_LIBDEVICE, else the CUDA toolkit's file found
// when the driver was built; "" when neither names a readable file.
std::string libdevicePath();

// Defines each of the builtins above that the module declares as a call of
// libdevice's function (lane by lane for vectors), before libclc is linked.
// `fast` (-cl-unsafe-math-optimizations): float exp, exp10, log, log2,
// log10, sin, cos, sincos, tan and pow take libdevice's approximate __nv_fast_*
// functions, as NVIDIA's fast math does. Returns how many.
unsigned defineFromLibdevice(llvm::Module &module, bool fast);

// Links the libdevice functions the module calls, compiled to flush
// single-precision denormals or not; false with the reason in `log` when the
// library does not load.
bool linkLibdevice(llvm::Module &module, const std::string &path, bool flushDenormals,
                   std::string *log);

} // namespace ze_cuda
