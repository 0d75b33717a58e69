// The program's own functions are inlined into its kernels whatever their
// size, as NVIDIA's OpenCL compiles a program.
#pragma once

#include <llvm/IR/Module.h>

#include <set>
#include <string>

namespace ze_cuda {

// LLVM's inliner weighs a callee's size against its calls: a helper of
// several hundred instructions called from two kernels stays a call. On a
// GPU a call costs more than its instructions: the arguments and the result
// pass through the parameter space, and a private array whose address the
// callee takes lives in local memory (a stack frame) instead of registers.
// AMD's AES kernels passed their `galoisCoeff[4]` to a `mixColumns` of 16
// unrolled Galois multiplications so, every round, and ran 1.09x NVIDIA's
// time; Rodinia's dwt2d kept 96 bytes of stack.
//
// The functions the program defines (named in `program`, taken from the
// module as read: not the builtins linked later) are therefore marked
// alwaysinline, but for those marked noinline and those in a cycle of calls
// (OpenCL C has no recursion; a module may still hold it). The builtins keep
// LLVM's weighing: the library's image reads and writes, software where
// NVIDIA's are one texture instruction, inlined into every call of an
// unrolled loop made AMD's MatrixMulImage 18 times the PTX and ptxas 16
// times slower. Run after the call merging (pure_calls.hpp), whose held
// functions must stay calls until their equal calls are merged.
std::set<std::string> programFunctions(const llvm::Module &module);
void inlineProgramFunctions(llvm::Module &module, const std::set<std::string> &program);

} // namespace ze_cuda
