// Kernels and the Kernel DDI tables (core and the global-offset extension).
#include "kernel.hpp"

#include "backend.hpp"
#include "device.hpp"
#include "module.hpp"

#include <level_zero/ze_ddi.h>

#include <algorithm>
#include <cstring>
#include <memory>

namespace ze_driver {

Kernel::Kernel(Module *module, const KernelInfo *info)
    : Object(kTag), module_(module), info_(info) {
    launch_.args.resize(info->args.size());
    for (int i = 0; i < 3; ++i)
        if (info->requiredGroupSize[i] != 0)
            launch_.groupSize[i] = info->requiredGroupSize[i];
    maxGroupSize_ = backend::initKernel(*this);
}

// The value is written over the argument's last one, in the same storage:
// setting arguments before every launch allocates nothing once each has been
// set once. Every check comes before the first write, so a refused value
// leaves the last one in place.
void Kernel::setArgument(uint32_t index, size_t size, const void *value) {
    check(index < info_->args.size(), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX);
    const KernelArgInfo &arg = info_->args[index];
    ArgValue &v = launch_.args[index];
    switch (arg.kind) {
    case ArgKind::GlobalPointer:
    case ArgKind::ConstantPointer:
        // The value is a USM pointer (or null).
        check(size == sizeof(void *), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
        v.bytes.resize(sizeof(void *));
        if (value != nullptr)
            std::memcpy(v.bytes.data(), value, sizeof(void *));
        else
            std::fill(v.bytes.begin(), v.bytes.end(), 0);
        v.localSize = 0;
        break;
    case ArgKind::LocalPointer:
        // L0 passes local memory as a null value with a size. More than the
        // device has is refused here (PoCL aborts the process on it).
        check(size > 0 && size <= module_->device()->localMemSize(),
              ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
        v.bytes.clear();
        v.localSize = size;
        break;
    case ArgKind::Value:
    {
        // A size other than the argument's is taken as Intel's driver takes
        // it: fewer bytes are the argument's first bytes, the rest zero; more
        // are cut to the argument's size. Code passes an int for a size_t
        // and a size_t for an int, and little-endian integers keep their
        // value either way.
        // A null value is a value of zeros, as the specification says (SYCL's
        // runtime passes one for any 8-byte argument that is 0).
        check(size > 0, ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
        size_t taken = value == nullptr ? 0 : arg.size == 0 ? size : std::min(size, arg.size);
        v.bytes.resize(std::max(arg.size == 0 ? size : taken, arg.size));
        if (taken > 0)
            std::memcpy(v.bytes.data(), value, taken);
        std::fill(v.bytes.begin() + taken, v.bytes.end(), 0);
        v.localSize = 0;
        break;
    }
    case ArgKind::Image:
    case ArgKind::Sampler:
        // The value is the handle; the backend says what the kernel gets.
        check(size == sizeof(void *), ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE);
        v.bytes = backend::objectArgument(arg.kind, *static_cast<void *const *>(notNull(value)));
        v.localSize = 0;
        break;
    }
    v.set = true;
}

void Kernel::setGroupSize(uint32_t x, uint32_t y, uint32_t z) {
    const Device *device = module_->device();
    const size_t *limits = device->maxGroupSizes();
    check(x > 0 && y > 0 && z > 0, ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    check(x <= limits[0] && y <= limits[1] && z <= limits[2],
          ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    check(uint64_t(x) * y * z <= maxGroupSize_, ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    const uint32_t *req = info_->requiredGroupSize;
    if (req[0] != 0)
        check(x == req[0] && y == req[1] && z == req[2],
              ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION);
    launch_.groupSize[0] = x;
    launch_.groupSize[1] = y;
    launch_.groupSize[2] = z;
}

// Per dimension, the largest divisor of the global size that keeps the total
// within the kernel's limit: every launch then has whole groups.
void Kernel::suggestGroupSize(const uint32_t global[3], uint32_t out[3]) const {
    const uint32_t *req = info_->requiredGroupSize;
    if (req[0] != 0) {
        std::copy(req, req + 3, out);
        return;
    }
    const size_t *limits = module_->device()->maxGroupSizes();
    size_t budget = maxGroupSize_;
    for (int i = 0; i < 3; ++i) {
        size_t cap = std::min<size_t>(budget, limits[i]);
        uint32_t best = 1;
        for (uint32_t d = static_cast<uint32_t>(std::min<size_t>(cap, global[i])); d >= 1; --d) {
            if (global[i] % d == 0) {
                best = d;
                break;
            }
        }
        out[i] = best;
        budget /= best;
    }
}

void Kernel::setGlobalOffset(uint32_t x, uint32_t y, uint32_t z) {
    launch_.offset[0] = x;
    launch_.offset[1] = y;
    launch_.offset[2] = z;
}

void Kernel::getProperties(ze_kernel_properties_t *p) const {
    p->numKernelArgs = static_cast<uint32_t>(info_->args.size());
    p->requiredGroupSizeX = info_->requiredGroupSize[0];
    p->requiredGroupSizeY = info_->requiredGroupSize[1];
    p->requiredGroupSizeZ = info_->requiredGroupSize[2];
    p->requiredNumSubGroups = 0;
    p->requiredSubgroupSize = 0;
    const auto &sizes = module_->device()->subGroupSizes();
    p->maxSubgroupSize = *std::max_element(sizes.begin(), sizes.end());
    p->maxNumSubgroups =
        static_cast<uint32_t>(maxGroupSize_ / std::max<uint32_t>(1, p->maxSubgroupSize));
    backend::kernelMemory(*this, &p->localMemSize, &p->privateMemSize);
    p->spillMemSize = 0;
    std::memset(&p->uuid, 0, sizeof(p->uuid));
}

void Kernel::checkReady() const {
    // Local arguments that fit one by one may still exceed the device's local
    // memory together, and PoCL aborts on that too.
    uint64_t local = 0;
    for (const ArgValue &a : launch_.args) {
        check(a.set, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        local += a.localSize;
    }
    check(local <= module_->device()->localMemSize(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

namespace {

ze_result_t ZE_APICALL zeKernelCreate(ze_module_handle_t hModule, const ze_kernel_desc_t *desc,
                                      ze_kernel_handle_t *phKernel) {
    return boundary(__func__, [&] {
        Module *module = fromHandle<Module>(hModule);
        notNull(desc);
        notNull(desc->pKernelName);
        notNull(phKernel);
        const KernelInfo *info = module->findKernel(desc->pKernelName);
        check(info != nullptr, ZE_RESULT_ERROR_INVALID_KERNEL_NAME);
        auto kernel = std::make_unique<Kernel>(module, info);
        *phKernel = toHandle<Kernel, ze_kernel_handle_t>(kernel.release());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeKernelDestroy(ze_kernel_handle_t hKernel) {
    return boundary(__func__, [&] {
        delete fromHandle<Kernel>(hKernel);
        return ZE_RESULT_SUCCESS;
    });
}

// The split between cache and local memory is left to the backend's device.
ze_result_t ZE_APICALL zeKernelSetCacheConfig(ze_kernel_handle_t hKernel, ze_cache_config_flags_t) {
    return boundary(__func__, [&] {
        fromHandle<Kernel>(hKernel);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeKernelSetGroupSize(ze_kernel_handle_t hKernel, uint32_t x, uint32_t y,
                                            uint32_t z) {
    return boundary(__func__, [&] {
        fromHandle<Kernel>(hKernel)->setGroupSize(x, y, z);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeKernelSuggestGroupSize(ze_kernel_handle_t hKernel, uint32_t globalX,
                                                uint32_t globalY, uint32_t globalZ, uint32_t *x,
                                                uint32_t *y, uint32_t *z) {
    return boundary(__func__, [&] {
        Kernel *kernel = fromHandle<Kernel>(hKernel);
        notNull(x);
        notNull(y);
        notNull(z);
        check(globalX > 0 && globalY > 0 && globalZ > 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        const uint32_t global[3] = {globalX, globalY, globalZ};
        uint32_t out[3];
        kernel->suggestGroupSize(global, out);
        *x = out[0];
        *y = out[1];
        *z = out[2];
        return ZE_RESULT_SUCCESS;
    });
}

// All groups of a launch run concurrently only when they fit on the device's
// compute units at once; one group per unit is what can be promised.
ze_result_t ZE_APICALL zeKernelSuggestMaxCooperativeGroupCount(ze_kernel_handle_t hKernel,
                                                               uint32_t *totalGroupCount) {
    return boundary(__func__, [&] {
        Kernel *kernel = fromHandle<Kernel>(hKernel);
        const ze_device_properties_t &p = kernel->module()->device()->info().properties;
        *notNull(totalGroupCount) = p.numSubslicesPerSlice * p.numSlices;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeKernelSetArgumentValue(ze_kernel_handle_t hKernel, uint32_t argIndex,
                                                size_t argSize, const void *pArgValue) {
    return boundary(__func__, [&] {
        fromHandle<Kernel>(hKernel)->setArgument(argIndex, argSize, pArgValue);
        return ZE_RESULT_SUCCESS;
    });
}

// Kernels reach all USM of the context anyway; the flags are kept so
// they can be read back.
ze_result_t ZE_APICALL zeKernelSetIndirectAccess(ze_kernel_handle_t hKernel,
                                                 ze_kernel_indirect_access_flags_t flags) {
    return boundary(__func__, [&] {
        fromHandle<Kernel>(hKernel)->setIndirectAccess(flags);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeKernelGetIndirectAccess(ze_kernel_handle_t hKernel,
                                                 ze_kernel_indirect_access_flags_t *pFlags) {
    return boundary(__func__, [&] {
        *notNull(pFlags) = fromHandle<Kernel>(hKernel)->indirectAccess();
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeKernelGetSourceAttributes(ze_kernel_handle_t hKernel, uint32_t *pSize,
                                                   char **pString) {
    return boundary(__func__, [&] {
        const std::string &text = fromHandle<Kernel>(hKernel)->info().attributes;
        notNull(pSize);
        const auto needed = static_cast<uint32_t>(text.size() + 1);
        if (*pSize == 0 || pString == nullptr || *pString == nullptr) {
            *pSize = needed;
            return ZE_RESULT_SUCCESS;
        }
        // As much as the caller's buffer holds, always terminated.
        size_t copied = std::min<size_t>(text.size(), *pSize - 1);
        std::memcpy(*pString, text.data(), copied);
        (*pString)[copied] = '\0';
        *pSize = static_cast<uint32_t>(copied + 1);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeKernelGetProperties(ze_kernel_handle_t hKernel,
                                             ze_kernel_properties_t *pProperties) {
    return boundary(__func__, [&] {
        fromHandle<Kernel>(hKernel)->getProperties(notNull(pProperties));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeKernelGetName(ze_kernel_handle_t hKernel, size_t *pSize, char *pName) {
    return boundary(__func__, [&] {
        const std::string &name = fromHandle<Kernel>(hKernel)->info().name;
        notNull(pSize);
        if (*pSize == 0 || pName == nullptr) {
            *pSize = name.size() + 1;
            return ZE_RESULT_SUCCESS;
        }
        check(*pSize >= name.size() + 1, ZE_RESULT_ERROR_INVALID_SIZE);
        std::memcpy(pName, name.c_str(), name.size() + 1);
        *pSize = name.size() + 1;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeKernelSetGlobalOffsetExp(ze_kernel_handle_t hKernel, uint32_t x,
                                                  uint32_t y, uint32_t z) {
    return boundary(__func__, [&] {
        fromHandle<Kernel>(hKernel)->setGlobalOffset(x, y, z);
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetKernelProcAddrTable(ze_api_version_t version,
                                                                        ze_kernel_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnCreate = zeKernelCreate;
    t->pfnDestroy = zeKernelDestroy;
    t->pfnSetCacheConfig = zeKernelSetCacheConfig;
    t->pfnSetGroupSize = zeKernelSetGroupSize;
    t->pfnSuggestGroupSize = zeKernelSuggestGroupSize;
    t->pfnSuggestMaxCooperativeGroupCount = zeKernelSuggestMaxCooperativeGroupCount;
    t->pfnSetArgumentValue = zeKernelSetArgumentValue;
    t->pfnSetIndirectAccess = zeKernelSetIndirectAccess;
    t->pfnGetIndirectAccess = zeKernelGetIndirectAccess;
    t->pfnGetSourceAttributes = zeKernelGetSourceAttributes;
    t->pfnGetProperties = zeKernelGetProperties;
    t->pfnGetName = zeKernelGetName;
    return ZE_RESULT_SUCCESS;
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetKernelExpProcAddrTable(ze_api_version_t version, ze_kernel_exp_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnSetGlobalOffsetExp = zeKernelSetGlobalOffsetExp;
    setUnsupported(t->pfnSchedulingHintExp);
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
