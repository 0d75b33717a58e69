// Pieces shared by the files of the program builder; not part of its contract.
#pragma once

#include "program_builder.hpp"

#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace ze_driver {
namespace detail {

// Releases a program on every path that does not hand it to the caller.
using ProgramPtr = std::unique_ptr<std::remove_pointer_t<cl_program>, cl_int (*)(cl_program)>;
inline ProgramPtr holdProgram(cl_program program) {
    return ProgramPtr(program, &clReleaseProgram);
}

// Splits buildFlags into the options handed to clBuildProgram. The flags the
// Level Zero specification defines (-ze-opt-disable, -ze-opt-level=N,
// -ze-opt-greater-than-4GB-buffer-required, -ze-opt-large-register-file)
// become their OpenCL equivalent or nothing, silently. Other flags meant for
// Intel's compiler (-ze-*, -cl-intel-*) have no OpenCL meaning, and the SPIR
// options are ours to set, so those are dropped; dropped flags are listed in
// `ignored` for the build log.
std::string openclBuildOptions(const char *buildFlags, std::string *ignored);

// clCreateProgramWithBinary + clBuildProgram for one device. On failure the
// result carries `failure` and a log with the OpenCL error and PoCL's build
// log; on success the program and PoCL's (warning) log.
ProgramBuildResult buildOpenclProgram(cl_context context, cl_device_id device,
                                      const std::vector<uint8_t> &binary,
                                      const std::string &options, ze_result_t failure);

// "CL_BUILD_PROGRAM_FAILURE (-11)" and the like, for logs.
std::string clErrorName(cl_int error);

} // namespace detail
} // namespace ze_driver
