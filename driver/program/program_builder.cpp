#include "program_builder.hpp"

#include "program_internal.hpp"
#include "spirv_translator.hpp"
#include "translation_cache.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <new>
#include <sstream>

namespace ze_driver {

namespace detail {

namespace {

bool startsWith(const std::string &text, const char *prefix) {
    return text.rfind(prefix, 0) == 0;
}

std::string programBuildLog(cl_program program, cl_device_id device) {
    size_t size = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
            CL_SUCCESS ||
        size == 0)
        return {};
    std::string text(size, '\0');
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, text.data(), nullptr) !=
        CL_SUCCESS)
        return {};
    // The OpenCL string is NUL-terminated; PoCL's log is often blank lines.
    while (!text.empty() &&
           (text.back() == '\0' || std::isspace(static_cast<unsigned char>(text.back()))))
        text.pop_back();
    size_t first = text.find_first_not_of(" \t\r\n");
    return first == std::string::npos ? std::string() : text.substr(first) + "\n";
}

} // namespace

std::string openclBuildOptions(const char *buildFlags, std::string *ignored) {
    std::string options;
    if (!buildFlags)
        return options;
    // The build options the Level Zero specification defines, by their
    // meaning here: optimisation off is OpenCL's; 64-bit buffer offsets and
    // a large register file are what a CPU device always has.
    static const struct {
        const char *flag;
        const char *option; // "" when the device already behaves so
    } kSpecified[] = {{"-ze-opt-disable", "-cl-opt-disable"},
                      {"-ze-opt-level=0", "-cl-opt-disable"},
                      {"-ze-opt-level=O0", "-cl-opt-disable"},
                      {"-ze-opt-level=1", ""},
                      {"-ze-opt-level=O1", ""},
                      {"-ze-opt-level=2", ""},
                      {"-ze-opt-level=O2", ""},
                      {"-ze-opt-greater-than-4GB-buffer-required", ""},
                      {"-ze-opt-large-register-file", ""}};
    std::istringstream tokens(buildFlags);
    std::string token;
    while (tokens >> token) {
        auto specified = std::find_if(std::begin(kSpecified), std::end(kSpecified),
                                      [&](const auto &s) { return token == s.flag; });
        if (specified != std::end(kSpecified)) {
            std::string option = specified->option;
            if (!option.empty() && options.find(option) == std::string::npos)
                options += (options.empty() ? "" : " ") + option;
            continue;
        }
        std::string dropped;
        if (startsWith(token, "-ze-") || startsWith(token, "-cl-intel-") ||
            startsWith(token, "-spir-std=")) {
            dropped = token;
        } else if (token == "-x") {
            // The input language is fixed by the builder; "-x <lang>" from
            // the caller would contradict it.
            std::string language;
            tokens >> language;
            dropped = token + (language.empty() ? "" : " " + language);
        }
        if (!dropped.empty()) {
            if (ignored)
                *ignored += (ignored->empty() ? "" : " ") + dropped;
            continue;
        }
        options += (options.empty() ? "" : " ") + token;
    }
    return options;
}

std::string clErrorName(cl_int error) {
    // The errors clCreateProgramWithBinary and clBuildProgram can return.
    static const struct {
        cl_int code;
        const char *name;
    } names[] = {
        {CL_SUCCESS, "CL_SUCCESS"},
        {CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY"},
        {CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES"},
        {CL_BUILD_PROGRAM_FAILURE, "CL_BUILD_PROGRAM_FAILURE"},
        {CL_INVALID_BINARY, "CL_INVALID_BINARY"},
        {CL_INVALID_BUILD_OPTIONS, "CL_INVALID_BUILD_OPTIONS"},
        {CL_INVALID_CONTEXT, "CL_INVALID_CONTEXT"},
        {CL_INVALID_DEVICE, "CL_INVALID_DEVICE"},
        {CL_INVALID_PROGRAM, "CL_INVALID_PROGRAM"},
        {CL_INVALID_VALUE, "CL_INVALID_VALUE"},
        {CL_COMPILER_NOT_AVAILABLE, "CL_COMPILER_NOT_AVAILABLE"},
        {CL_INVALID_OPERATION, "CL_INVALID_OPERATION"},
    };
    std::string text = "OpenCL error";
    for (const auto &entry : names)
        if (entry.code == error)
            text = entry.name;
    return text + " (" + std::to_string(error) + ")";
}

ProgramBuildResult buildOpenclProgram(cl_context context, cl_device_id device,
                                      const std::vector<uint8_t> &binary,
                                      const std::string &options, ze_result_t failure) {
    ProgramBuildResult built;
    const unsigned char *bytes = binary.data();
    size_t size = binary.size();
    cl_int binaryStatus = CL_SUCCESS;
    cl_int error = CL_SUCCESS;
    ProgramPtr program = holdProgram(
        clCreateProgramWithBinary(context, 1, &device, &size, &bytes, &binaryStatus, &error));
    if (error != CL_SUCCESS || !program) {
        built.result =
            error == CL_OUT_OF_HOST_MEMORY ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : failure;
        built.log = "clCreateProgramWithBinary failed: " + clErrorName(error) + " (binary status " +
                    clErrorName(binaryStatus) + ")\n";
        return built;
    }
    error = clBuildProgram(program.get(), 1, &device, options.c_str(), nullptr, nullptr);
    std::string log = programBuildLog(program.get(), device);
    if (error != CL_SUCCESS) {
        built.result =
            error == CL_OUT_OF_HOST_MEMORY ? ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY : failure;
        built.log = "clBuildProgram with options \"" + options +
                    "\" failed: " + clErrorName(error) + "\n" + log;
        return built;
    }
    built.result = ZE_RESULT_SUCCESS;
    built.log = std::move(log);
    built.program = program.release();
    return built;
}

} // namespace detail

ProgramBuildResult buildFromSpirv(cl_context context, cl_device_id device,
                                  const SpirvProgram &program, const char *buildFlags) {
    ProgramBuildResult result;
    try {
        if (!context || !device) {
            result.result = ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
            result.log = "no OpenCL context or device\n";
            return result;
        }
        // Not SPIR-V at all (or no bytes) is told before the bytes are read.
        result.result = detail::checkSpirvHeaders(program, &result.log);
        if (result.result != ZE_RESULT_SUCCESS)
            return result;
        std::string key = detail::translationKey(program);
        std::shared_ptr<const detail::CachedTranslation> translation = detail::findTranslation(key);
        if (translation == nullptr) {
            auto fresh = std::make_shared<detail::CachedTranslation>();
            result.result = detail::translateSpirv(program, &fresh->module, &fresh->log);
            result.log += fresh->log;
            if (result.result != ZE_RESULT_SUCCESS)
                return result;
            detail::keepTranslation(std::move(key), fresh);
            translation = std::move(fresh);
        } else {
            result.log += translation->log;
        }
        const detail::TranslatedModule &module = translation->module;

        std::string ignored;
        std::string options = detail::openclBuildOptions(buildFlags, &ignored);
        if (!ignored.empty())
            result.log += "ignored build flags: " + ignored + "\n";
        // The translator produces SPIR 1.2 (cl_khr_spir): these two options
        // tell the OpenCL implementation so.
        options = "-x spir -spir-std=1.2" + (options.empty() ? "" : " " + options);

        ProgramBuildResult built = detail::buildOpenclProgram(
            context, device, module.bitcode, options, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
        detail::ProgramPtr program = detail::holdProgram(built.program);
        built.program = nullptr;
        built.log = result.log + built.log;
        if (built.result == ZE_RESULT_SUCCESS)
            built.kernels = module.kernels;
        built.program = program.release();
        return built;
    } catch (const std::bad_alloc &) {
        result.result = ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY;
        result.log += "out of host memory while building the module\n";
    } catch (const std::exception &e) {
        result.result = ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
        result.log += std::string("module build failed: ") + e.what() + "\n";
    }
    return result;
}

} // namespace ze_driver
