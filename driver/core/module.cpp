// Modules, module build logs and their DDI tables. Building is the backend's
// job (backend::buildModule); this file maps it onto L0.
#include "module.hpp"

#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"

#include "program/spirv_words.hpp"

#include <level_zero/ze_ddi.h>

#include <cstring>
#include <map>
#include <memory>

namespace ze_driver {

Module::Module(Context *context, Device *device)
    : Object(kTag), context_(context), device_(device) {}

Module::~Module() = default;

const KernelInfo *Module::findKernel(const char *name) const {
    for (const KernelInfo &k : kernels_)
        if (k.name == name)
            return &k;
    return nullptr;
}

namespace {

// The byte size of every specialization constant the SPIR-V module declares,
// by SpecId: L0 passes a pointer to each value but not its size, and reading
// more than the value's type would read past the caller's variable.
std::map<uint32_t, size_t> specConstantSizes(const uint8_t *spirv, size_t size) {
    std::map<uint32_t, size_t> sizes;
    if (size % 4 != 0 || size < 20)
        return sizes;
    std::vector<uint32_t> words(size / 4);
    std::memcpy(words.data(), spirv, words.size() * 4);
    std::map<uint32_t, size_t> typeSize;    // result id of a scalar type -> bytes
    std::map<uint32_t, uint32_t> specIdOf;  // result id -> SpecId decoration
    std::map<uint32_t, uint32_t> constType; // spec constant result id -> type id
    enum : uint32_t {
        OpTypeBool = 20,
        OpTypeInt = 21,
        OpTypeFloat = 22,
        OpDecorate = 71,
        OpSpecConstantTrue = 48,
        OpSpecConstantFalse = 49,
        OpSpecConstant = 50,
        DecorationSpecId = 1
    };
    for (const detail::SpirvInstruction &inst : detail::spirvInstructions(words)) {
        const uint32_t *w = &words[inst.at];
        const uint32_t count = inst.size, op = inst.opcode;
        if (op == OpTypeBool && count >= 2)
            typeSize[w[1]] = 1;
        else if ((op == OpTypeInt || op == OpTypeFloat) && count >= 3)
            typeSize[w[1]] = w[2] / 8;
        else if (op == OpDecorate && count >= 4 && w[2] == DecorationSpecId)
            specIdOf[w[1]] = w[3];
        else if ((op == OpSpecConstant || op == OpSpecConstantTrue || op == OpSpecConstantFalse) &&
                 count >= 3)
            constType[w[2]] = w[1];
    }
    for (const auto &[resultId, specId] : specIdOf) {
        auto c = constType.find(resultId);
        if (c == constType.end())
            continue;
        auto t = typeSize.find(c->second);
        if (t != typeSize.end() && t->second > 0 && t->second <= 8)
            sizes[specId] = t->second;
    }
    return sizes;
}

std::vector<SpecConstant> specConstants(const ze_module_constants_t *constants,
                                        const uint8_t *spirv, size_t size) {
    std::vector<SpecConstant> out;
    if (constants == nullptr || constants->numConstants == 0)
        return out;
    check(constants->pConstantIds != nullptr && constants->pConstantValues != nullptr,
          ZE_RESULT_ERROR_INVALID_NULL_POINTER);
    auto sizes = specConstantSizes(spirv, size);
    for (uint32_t i = 0; i < constants->numConstants; ++i) {
        SpecConstant c;
        c.id = constants->pConstantIds[i];
        auto known = sizes.find(c.id);
        // A constant the module does not declare cannot be applied; the
        // translator ignores it, so its value is not read.
        if (known == sizes.end())
            continue;
        notNull(constants->pConstantValues[i]);
        std::memcpy(&c.value, constants->pConstantValues[i], known->second); // little-endian
        c.size = known->second;
        out.push_back(c);
    }
    return out;
}

// The program ZE_experimental_module_program describes, when `desc` chains
// one (the module's own input, flags and constants are then ignored, as the
// extension says), or null.
const ze_module_program_exp_desc_t *programOf(const ze_module_desc_t *desc) {
    for (auto *next = static_cast<const ze_base_desc_t *>(desc->pNext); next != nullptr;
         next = static_cast<const ze_base_desc_t *>(next->pNext))
        if (next->stype == ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC)
            return reinterpret_cast<const ze_module_program_exp_desc_t *>(next);
    return nullptr;
}

// The program's modules with their constants; its build flags are every
// module's, in order (the build is of one linked program, so each module's
// options apply to all of it).
SpirvProgram programInputs(const ze_module_program_exp_desc_t *program, std::string *flags) {
    check(program->count > 0, ZE_RESULT_ERROR_INVALID_SIZE);
    notNull(program->inputSizes);
    notNull(program->pInputModules);
    SpirvProgram inputs(program->count);
    for (uint32_t i = 0; i < program->count; ++i) {
        SpirvInput &input = inputs[i];
        input.spirv = notNull(program->pInputModules[i]);
        input.size = program->inputSizes[i];
        check(input.size > 0, ZE_RESULT_ERROR_INVALID_SIZE);
        if (program->pConstants != nullptr)
            input.specConstants = specConstants(program->pConstants[i], input.spirv, input.size);
        const char *own = program->pBuildFlags != nullptr ? program->pBuildFlags[i] : nullptr;
        if (own != nullptr && *own != '\0')
            *flags += (flags->empty() ? "" : " ") + std::string(own);
    }
    return inputs;
}

ze_result_t ZE_APICALL zeModuleCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                      const ze_module_desc_t *desc, ze_module_handle_t *phModule,
                                      ze_module_build_log_handle_t *phBuildLog) {
    if (phBuildLog != nullptr)
        *phBuildLog = nullptr;
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        Device *device = context->deviceOf(hDevice);
        notNull(desc);
        notNull(phModule);
        check(desc->format == ZE_MODULE_FORMAT_IL_SPIRV || desc->format == ZE_MODULE_FORMAT_NATIVE,
              ZE_RESULT_ERROR_INVALID_ENUMERATION);
        std::string flags;
        SpirvProgram inputs;
        if (const ze_module_program_exp_desc_t *program = programOf(desc)) {
            // Only SPIR-V links.
            check(desc->format == ZE_MODULE_FORMAT_IL_SPIRV, ZE_RESULT_ERROR_INVALID_ARGUMENT);
            inputs = programInputs(program, &flags);
        } else {
            notNull(desc->pInputModule);
            check(desc->inputSize > 0, ZE_RESULT_ERROR_INVALID_SIZE);
            flags = desc->pBuildFlags != nullptr ? desc->pBuildFlags : "";
            inputs.push_back({desc->pInputModule, desc->inputSize, {}});
            if (desc->format == ZE_MODULE_FORMAT_IL_SPIRV)
                inputs[0].specConstants =
                    specConstants(desc->pConstants, desc->pInputModule, desc->inputSize);
        }
        auto module = std::make_unique<Module>(context, device);
        std::string text;
        ze_result_t result = backend::buildModule(*module, desc->format, inputs, flags, &text);
        // The pointers and the sizes were checked above: whatever else is
        // wrong with SPIR-V input (not SPIR-V at all, truncated, invalid) is
        // a module that does not build, as with Intel's driver.
        if (desc->format == ZE_MODULE_FORMAT_IL_SPIRV && result == ZE_RESULT_ERROR_INVALID_ARGUMENT)
            result = ZE_RESULT_ERROR_MODULE_BUILD_FAILURE;
        // The log is handed out on success and on failure alike.
        std::unique_ptr<ModuleBuildLog> log;
        if (phBuildLog != nullptr)
            log = std::make_unique<ModuleBuildLog>(std::move(text));
        if (result != ZE_RESULT_SUCCESS) {
            if (log)
                *phBuildLog = toHandle<ModuleBuildLog, ze_module_build_log_handle_t>(log.release());
            return result;
        }
        *phModule = toHandle<Module, ze_module_handle_t>(module.release());
        if (log)
            *phBuildLog = toHandle<ModuleBuildLog, ze_module_build_log_handle_t>(log.release());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeModuleDestroy(ze_module_handle_t hModule) {
    return boundary(__func__, [&] {
        Module::destroyHandle(fromHandle<Module>(hModule));
        return ZE_RESULT_SUCCESS;
    });
}

// Modules are fully linked when built (no imports): linking them is a no-op.
ze_result_t ZE_APICALL zeModuleDynamicLink(uint32_t numModules, ze_module_handle_t *phModules,
                                           ze_module_build_log_handle_t *phLinkLog) {
    return boundary(__func__, [&] {
        check(numModules == 0 || phModules != nullptr, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        for (uint32_t i = 0; i < numModules; ++i)
            fromHandle<Module>(phModules[i]);
        if (phLinkLog != nullptr)
            *phLinkLog = toHandle<ModuleBuildLog, ze_module_build_log_handle_t>(
                new ModuleBuildLog(std::string()));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeModuleGetNativeBinary(ze_module_handle_t hModule, size_t *pSize,
                                               uint8_t *pModuleNativeBinary) {
    return boundary(__func__, [&] {
        Module *module = fromHandle<Module>(hModule);
        notNull(pSize);
        std::vector<uint8_t> blob = backend::nativeBinary(*module);
        check(!blob.empty(), ZE_RESULT_ERROR_UNKNOWN);
        if (pModuleNativeBinary == nullptr) {
            *pSize = blob.size();
            return ZE_RESULT_SUCCESS;
        }
        check(*pSize >= blob.size(), ZE_RESULT_ERROR_INVALID_SIZE);
        std::memcpy(pModuleNativeBinary, blob.data(), blob.size());
        *pSize = blob.size();
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeModuleGetKernelNames(ze_module_handle_t hModule, uint32_t *pCount,
                                              const char **pNames) {
    return boundary(__func__, [&] {
        const auto &kernels = fromHandle<Module>(hModule)->kernels();
        notNull(pCount);
        uint32_t n = static_cast<uint32_t>(kernels.size());
        if (*pCount == 0 || pNames == nullptr) {
            *pCount = n;
            return ZE_RESULT_SUCCESS;
        }
        *pCount = std::min(*pCount, n);
        for (uint32_t i = 0; i < *pCount; ++i)
            pNames[i] = kernels[i].name.c_str();
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeModuleGetProperties(ze_module_handle_t hModule,
                                             ze_module_properties_t *pProperties) {
    return boundary(__func__, [&] {
        fromHandle<Module>(hModule);
        notNull(pProperties)->flags = 0; // no unresolved imports
        return ZE_RESULT_SUCCESS;
    });
}

// The size and the address are each optional.
ze_result_t ZE_APICALL zeModuleGetGlobalPointer(ze_module_handle_t hModule, const char *name,
                                                size_t *pSize, void **pptr) {
    return boundary(__func__, [&] {
        Module *module = fromHandle<Module>(hModule);
        notNull(name);
        size_t size = 0;
        void *pointer = nullptr;
        ze_result_t r = backend::globalPointer(*module, name, &size, &pointer);
        if (r == ZE_RESULT_SUCCESS) {
            if (pSize != nullptr)
                *pSize = size;
            if (pptr != nullptr)
                *pptr = pointer;
        }
        return r;
    });
}

// Neither backend hands out a function's address yet.
ze_result_t ZE_APICALL zeModuleGetFunctionPointer(ze_module_handle_t hModule, const char *name,
                                                  void **) {
    return boundary(__func__, [&] {
        fromHandle<Module>(hModule);
        notNull(name);
        return ZE_RESULT_ERROR_UNSUPPORTED_FEATURE;
    });
}

ze_result_t ZE_APICALL zeModuleBuildLogDestroy(ze_module_build_log_handle_t hLog) {
    return boundary(__func__, [&] {
        delete fromHandle<ModuleBuildLog>(hLog);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeModuleBuildLogGetString(ze_module_build_log_handle_t hLog, size_t *pSize,
                                                 char *pBuildLog) {
    return boundary(__func__, [&] {
        const std::string &text = fromHandle<ModuleBuildLog>(hLog)->text();
        notNull(pSize);
        if (*pSize == 0 || pBuildLog == nullptr) {
            *pSize = text.size() + 1;
            return ZE_RESULT_SUCCESS;
        }
        check(*pSize >= text.size() + 1, ZE_RESULT_ERROR_INVALID_SIZE);
        std::memcpy(pBuildLog, text.c_str(), text.size() + 1);
        *pSize = text.size() + 1;
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetModuleProcAddrTable(ze_api_version_t version,
                                                                        ze_module_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnCreate = zeModuleCreate;
    t->pfnDestroy = zeModuleDestroy;
    t->pfnDynamicLink = zeModuleDynamicLink;
    t->pfnGetNativeBinary = zeModuleGetNativeBinary;
    t->pfnGetGlobalPointer = zeModuleGetGlobalPointer;
    t->pfnGetKernelNames = zeModuleGetKernelNames;
    t->pfnGetProperties = zeModuleGetProperties;
    t->pfnGetFunctionPointer = zeModuleGetFunctionPointer;
    setUnsupported(t->pfnInspectLinkageExt);
    return ZE_RESULT_SUCCESS;
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetModuleBuildLogProcAddrTable(ze_api_version_t version, ze_module_build_log_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnDestroy = zeModuleBuildLogDestroy;
    t->pfnGetString = zeModuleBuildLogGetString;
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
