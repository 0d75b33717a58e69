// The OpenCL backend's modules (../core/backend.hpp): a module is an OpenCL
// program, built by the program library (../program/program_builder.hpp)
// from SPIR-V or from this backend's native binary.
#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"
#include "module.hpp"
#include "options.hpp"

namespace ze_driver {

ModuleNative::~ModuleNative() {
    if (program != nullptr)
        clReleaseProgram(program);
}

ze_result_t backend::buildModule(Module &module, ze_module_format_t format,
                                 const SpirvProgram &inputs, const std::string &buildFlags,
                                 std::string *log) {
    std::string flags = buildFlags;
    if (!options().buildOptions.empty())
        flags += " " + options().buildOptions;
    cl_context context = module.context()->native().cl;
    cl_device_id device = module.device()->native().id;
    ProgramBuildResult built =
        format == ZE_MODULE_FORMAT_IL_SPIRV
            ? buildFromSpirv(context, device, inputs, flags.c_str())
            : buildFromNative(context, device, inputs[0].spirv, inputs[0].size, flags.c_str());
    module.native().program = built.program; // released with the module, built or not
    *log = std::move(built.log);
    if (built.result == ZE_RESULT_SUCCESS)
        module.setKernels(std::move(built.kernels));
    return built.result;
}

std::vector<uint8_t> backend::nativeBinary(const Module &module) {
    return serializeNative(module.native().program, module.device()->native().id,
                           module.kernels());
}

// PoCL 3.1's CPU device gives every kernel of a program a copy of its own of
// each program-scope variable (../README.md, "What is not"): no one address
// is the variable.
ze_result_t backend::globalPointer(Module &, const char *, size_t *, void **) {
    return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
}

} // namespace ze_driver
