// Fuzz target: the driver's zeModuleCreate on arbitrary bytes, through the
// system loader (ZE_ENABLE_ALT_DRIVERS selects the project's driver, as in
// every test).
//
// The first input byte picks the format (bit 0 clear: SPIR-V, set: the
// driver's native binary), the rest is the module. Random bytes almost never
// carry the native binary's payload checksum, so when bit 1 is set the target
// writes the right one into the native header (FNV-1a 64 of the payload, at
// byte 24; driver/program/native_binary.cpp), which lets the fuzzer reach the
// payload reader.
//
// The driver must answer with a module, or with MODULE_BUILD_FAILURE /
// INVALID_NATIVE_BINARY and no module; the build log it hands out is a
// NUL-terminated string. A module that builds must list its kernels, create
// each of them, and give a native binary that builds again. Anything else, a
// crash, an exit, a leak or a sanitizer report is a finding.
#include <level_zero/ze_api.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "fuzz_check.hpp"

namespace {

ze_context_handle_t context;
ze_device_handle_t device;

constexpr size_t kNativeHeaderBytes = 32;
constexpr size_t kNativeChecksumOffset = 24;

void sealNativeChecksum(std::vector<uint8_t> &binary) {
    if (binary.size() < kNativeHeaderBytes)
        return;
    uint64_t hash = 0xcbf29ce484222325ull;
    for (size_t i = kNativeHeaderBytes; i < binary.size(); ++i) {
        hash ^= binary[i];
        hash *= 0x100000001b3ull;
    }
    std::memcpy(&binary[kNativeChecksumOffset], &hash, sizeof hash);
}

void checkZe(ze_result_t result, const char *call) {
    FUZZ_CHECK(result == ZE_RESULT_SUCCESS, "%s returned 0x%x", call, unsigned(result));
}

void readAndDestroyLog(ze_module_build_log_handle_t log) {
    if (log == nullptr)
        return;
    size_t size = 0;
    checkZe(zeModuleBuildLogGetString(log, &size, nullptr), "zeModuleBuildLogGetString");
    std::string text(size, '\x7f');
    checkZe(zeModuleBuildLogGetString(log, &size, text.data()), "zeModuleBuildLogGetString");
    FUZZ_CHECK(size > 0 && text[size - 1] == '\0', "the build log is not NUL-terminated");
    checkZe(zeModuleBuildLogDestroy(log), "zeModuleBuildLogDestroy");
}

ze_result_t createModule(ze_module_format_t format, const void *bytes, size_t size,
                         ze_module_handle_t *module) {
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = format;
    desc.inputSize = size;
    desc.pInputModule = static_cast<const uint8_t *>(bytes);
    desc.pBuildFlags = "";
    ze_module_build_log_handle_t log = nullptr;
    *module = nullptr;
    ze_result_t result = zeModuleCreate(context, device, &desc, module, &log);
    readAndDestroyLog(log);
    return result;
}

void useModule(ze_module_handle_t module) {
    uint32_t count = 0;
    checkZe(zeModuleGetKernelNames(module, &count, nullptr), "zeModuleGetKernelNames");
    std::vector<const char *> names(count);
    checkZe(zeModuleGetKernelNames(module, &count, names.data()), "zeModuleGetKernelNames");
    for (const char *name : names) {
        ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC};
        desc.pKernelName = name;
        ze_kernel_handle_t kernel = nullptr;
        checkZe(zeKernelCreate(module, &desc, &kernel), name);
        ze_kernel_properties_t properties = {ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
        checkZe(zeKernelGetProperties(kernel, &properties), "zeKernelGetProperties");
        checkZe(zeKernelDestroy(kernel), "zeKernelDestroy");
    }
}

void checkNativeRoundTrip(ze_module_handle_t module) {
    size_t size = 0;
    checkZe(zeModuleGetNativeBinary(module, &size, nullptr), "zeModuleGetNativeBinary");
    std::vector<uint8_t> binary(size);
    checkZe(zeModuleGetNativeBinary(module, &size, binary.data()), "zeModuleGetNativeBinary");
    ze_module_handle_t again = nullptr;
    checkZe(createModule(ZE_MODULE_FORMAT_NATIVE, binary.data(), binary.size(), &again),
            "zeModuleCreate from the module's own native binary");
    checkZe(zeModuleDestroy(again), "zeModuleDestroy");
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    checkZe(zeInit(0), "zeInit");
    uint32_t count = 1;
    ze_driver_handle_t driver = nullptr;
    checkZe(zeDriverGet(&count, &driver), "zeDriverGet");
    count = 1;
    checkZe(zeDeviceGet(driver, &count, &device), "zeDeviceGet");
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    checkZe(zeContextCreate(driver, &desc, &context), "zeContextCreate");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2)
        return 0; // a module has at least one byte; zero bytes is INVALID_SIZE by contract
    ze_module_format_t format = (data[0] & 1) ? ZE_MODULE_FORMAT_NATIVE : ZE_MODULE_FORMAT_IL_SPIRV;
    std::vector<uint8_t> input(data + 1, data + size);
    if (format == ZE_MODULE_FORMAT_NATIVE && (data[0] & 2))
        sealNativeChecksum(input);
    ze_module_handle_t module = nullptr;
    ze_result_t result = createModule(format, input.data(), input.size(), &module);
    if (result != ZE_RESULT_SUCCESS) {
        ze_result_t expected = format == ZE_MODULE_FORMAT_NATIVE
                                   ? ZE_RESULT_ERROR_INVALID_NATIVE_BINARY
                                   : ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
        FUZZ_CHECK(result == expected, "zeModuleCreate returned 0x%x", unsigned(result));
        FUZZ_CHECK(module == nullptr, "a failed zeModuleCreate handed out a module");
        return 0;
    }
    useModule(module);
    checkNativeRoundTrip(module);
    checkZe(zeModuleDestroy(module), "zeModuleDestroy");
    return 0;
}
