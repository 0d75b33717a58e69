// Equal calls of functions that touch no memory made one before the
// functions are inlined.
#pragma once

#include <llvm/IR/Module.h>

namespace ze_cuda {

// A function that reads and writes no memory (libclc's math builtins over
// libdevice: exp, log, sqrt of a scalar or a vector) returns the same value
// for the same arguments. Inlined, each call becomes a body of its own with
// branches (libdevice's exp keeps a path for large arguments), which GVN
// merges only in part: the straight code of two equal exps is shared, each
// branchy end stays, and what those ends need stays live from the first to
// the second. AMD's BlackScholesDP (its `phi` of d and of -d, each an exp of
// -x*x/2, over four lanes of doubles) got 156 registers from ptxas so,
// against 82 for NVIDIA's OpenCL. Before the -O3 pipeline, such functions
// of a floating-point result whose bodies branch (or call what branches:
// straight code GVN merges inlined; the work-item functions' switch on the
// dimension folds away) are therefore kept from inlining while the module's
// other functions are inlined into the kernels and the result simplified
// (SROA, InstCombine: (-x)*(-x) is x*x) and its equal calls merged
// (EarlyCSE, GVN); -O3 then inlines the calls left. Only where a function,
// its other callees inlined, would call one such function twice or more: a
// module without two calls that could merge is left as it was.
void mergePureCalls(llvm::Module &module);

} // namespace ze_cuda
