// Inverse trigonometry of float for unsafe math, defined on a module
// translated for NVPTX before libclc and libdevice are linked.
#pragma once

namespace llvm {
class Module;
}

namespace ze_cuda {

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
