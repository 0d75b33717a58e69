// SPIR-V in, PTX out: the program half of the CUDA backend (libze_cuda.so's
// zeModuleCreate). The chain, on Debian's LLVM 15 and libclc-15 alone:
//   readSpirvModule (validation, LLVMSPIRVLib; shared with the OpenCL
//     backend), reloaded with opaque pointers (libclc is built with them)
//   -> SPIR address spaces to NVPTX's (constant 2 -> global 1, generic
//      4 -> 0; global 1 and local 3 stay; private 0 is generic 0 on NVPTX,
//      where the backend moves allocas to local memory itself)
//   -> spir_kernel -> ptx_kernel; __local pointer arguments become byte
//      offsets into the launch's dynamic shared memory (a CUDA kernel cannot
//      take a shared-memory pointer from the host; a kernel's own __local
//      variables over ptxas's 48 KiB go there too, shared_variables.hpp);
//      32-bit parameters after the arguments take the launch values
//      (launch_values.hpp: the global offset, a launch in parts), which the
//      work-item builtins read (launch_value_builtins.hpp)
//   -> the builtins libclc-15 lacks or cannot give NVPTX defined here:
//      printf, atomics on generic pointers, the linear work-item ids, the
//      work-group functions, native_* and half_* math (native_math.hpp)
//   -> libclc's nvptx64--nvidiacl.bc linked for the OpenCL builtins
//   -> LLVM's -O3 pipeline (unroll_hints.hpp) and OpenCL's division
//      (opencl_division.hpp) -> NVPTX code generation (sm_80, PTX 7.5: the
//      newest LLVM 15 knows; the CUDA driver JIT-compiles it for newer GPUs).
// Everything after the SPIR-V reader runs contained (contained.hpp): an LLVM
// fatal error or a crash there fails the build, the log naming LLVM's
// message and each kernel that fails alone, and the process goes on.
#pragma once

#include "math_options.hpp"
#include "program_builder.hpp"

#include <string>
#include <vector>

namespace ze_cuda {

struct PtxModule {
    std::string ptx;
    std::vector<ze_driver::KernelInfo> kernels; // every kernel, in module order
};

// What the PTX of a translation is made for: its target and the kernels'
// parameter convention. A native binary (zeModuleGetNativeBinary) carries it
// and is only taken back by a driver whose translation says the same.
const char *ptxSignature();

// Where libclc's NVPTX library is (the libclc-15 package's file); a
// translation without it fails with a log saying so.
const char *libclcPath();

// Returns ZE_RESULT_SUCCESS, ZE_RESULT_ERROR_INVALID_ARGUMENT (not SPIR-V) or
// ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, with the reason in `log`: invalid or
// untranslatable SPIR-V, a builtin libclc does not define, or what the NVPTX
// backend refuses. Thread-safe.
// `math`: the build flags' floating-point options (math_options.hpp).
// A program of several modules is linked first (../program/spirv_linker.hpp).
ze_result_t translateSpirvToPtx(const ze_driver::SpirvProgram &program, PtxModule *out,
                                std::string *log, const MathOptions &math = {});
inline ze_result_t translateSpirvToPtx(const uint8_t *spirv, size_t size,
                                       const std::vector<ze_driver::SpecConstant> &specConstants,
                                       PtxModule *out, std::string *log,
                                       const MathOptions &math = {}) {
    return translateSpirvToPtx({{spirv, size, specConstants}}, out, log, math);
}

// The 32-bit global of a translated module holding the bytes of `kernel`'s
// __local variables that the translation placed at the start of the dynamic
// shared memory (shared_variables.hpp); absent where it placed none.
std::string sharedVariablesName(const std::string &kernel);

// For the tests of the containment: from now on, code generation for a
// module that calls `builtin` (a mangled name; "" stops it) ends in an LLVM
// fatal error of the kind that calls exit().
void fatalErrorOnBuiltin(const std::string &builtin);

} // namespace ze_cuda
