// Turns a Level Zero module input (SPIR-V, or the driver's own native binary)
// into a built OpenCL program plus the argument metadata the driver needs to
// set kernel arguments. Independent of the driver's object model: it only
// talks OpenCL and LLVM, so it can be tested on its own.
#pragma once

#include <CL/cl.h>
#include <level_zero/ze_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ze_driver {

enum class ArgKind {
    GlobalPointer,   // address space 1: a USM pointer, set with clSetKernelArgSVMPointer
    ConstantPointer, // address space 2: likewise
    LocalPointer,    // address space 3: the argument value is a local memory size
    Value,           // by value (scalars, vectors, structs passed byval)
    Image,           // an image type: the value is a ze_image_handle_t
    Sampler,         // sampler_t: the value is a ze_sampler_handle_t
};

struct KernelArgInfo {
    ArgKind kind = ArgKind::Value;
    size_t size =
        0; // bytes the caller passes: 8 for pointers and handles, 0 for local, sizeof(T) for values
    std::string typeName; // the OpenCL C type name when the module records it, else ""
};

struct KernelInfo {
    std::string name;
    std::vector<KernelArgInfo> args;
    uint32_t requiredGroupSize[3] = {0, 0, 0}; // reqd_work_group_size, zeros when absent
    // The kernel's attributes as OpenCL C source, space-separated, e.g.
    // "reqd_work_group_size(8,1,1) work_group_size_hint(4,1,1)"; "" if none.
    std::string attributes;
};

struct SpecConstant {
    uint32_t id = 0;
    uint64_t value = 0; // little-endian bytes of the constant, zero-extended
    size_t size = 0;
};

// One SPIR-V module of a program: its bytes (the caller's, not copied) and
// the specialization constants applied to it. A program of several modules
// (ZE_experimental_module_program) is linked by SPIR-V's Import and Export
// linkage; a module on its own is a program of one.
struct SpirvInput {
    const uint8_t *spirv = nullptr;
    size_t size = 0;
    std::vector<SpecConstant> specConstants;
};
using SpirvProgram = std::vector<SpirvInput>;

struct ProgramBuildResult {
    ze_result_t result =
        ZE_RESULT_ERROR_UNKNOWN;     // ZE_RESULT_SUCCESS or ZE_RESULT_ERROR_MODULE_BUILD_FAILURE /
                                     // INVALID_NATIVE_BINARY / ...
    cl_program program = nullptr;    // on success: owned by the caller (clReleaseProgram)
    std::vector<KernelInfo> kernels; // every kernel of the program, in module order
    std::string log;                 // translator or OpenCL build log; also warnings on success
};

// Test hook for the translator's crash containment (ZE_OPENCL_FAULT=
// translator:crash): the next SPIR-V translation raises SIGSEGV inside the
// translator's contained call, and that build fails with a log.
void crashNextTranslation();

// SPIR-V -> (LLVMSPIRVLib readSpirv, modules linked) SPIR 1.2 bitcode ->
// clCreateProgramWithBinary + clBuildProgram("-x spir -spir-std=1.2" + the
// OpenCL options in buildFlags). Build flags meant for Intel's compiler
// (-ze-*) are accepted and ignored. Thread-safe.
ProgramBuildResult buildFromSpirv(cl_context context, cl_device_id device,
                                  const SpirvProgram &program, const char *buildFlags);
inline ProgramBuildResult buildFromSpirv(cl_context context, cl_device_id device,
                                         const uint8_t *spirv, size_t size, const char *buildFlags,
                                         const std::vector<SpecConstant> &specConstants) {
    return buildFromSpirv(context, device, {{spirv, size, specConstants}}, buildFlags);
}

// The driver's native binary: a backend's program binary plus the kernel
// metadata, in a versioned, checksummed container (native_binary.cpp), made
// for the device `signature` names. unpackNative refuses a truncated,
// corrupted or foreign blob, or one made for another signature, with the
// reason.
struct NativeContents {
    std::vector<uint8_t> binary;
    std::vector<KernelInfo> kernels;
};
std::vector<uint8_t> packNative(const std::string &signature, const std::vector<uint8_t> &binary,
                                const std::vector<KernelInfo> &kernels);
bool unpackNative(const uint8_t *data, size_t size, const std::string &signature,
                  NativeContents *out, std::string *reason);

// The OpenCL backend's native binary: the OpenCL program binary.
std::vector<uint8_t> serializeNative(cl_program program, cl_device_id device,
                                     const std::vector<KernelInfo> &kernels);
// Rebuilds a program from serializeNative's output; a truncated or foreign
// blob is ZE_RESULT_ERROR_INVALID_NATIVE_BINARY with a log saying why.
ProgramBuildResult buildFromNative(cl_context context, cl_device_id device, const uint8_t *data,
                                   size_t size, const char *buildFlags);

} // namespace ze_driver
