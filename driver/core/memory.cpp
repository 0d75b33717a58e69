// Unified shared memory: the Mem DDI table over the context's allocations
// (what each kind is on each backend: backend.hpp's allocate).
#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"

#include <level_zero/ze_ddi.h>

namespace ze_driver {
namespace {

ze_result_t ZE_APICALL zeMemAllocShared(ze_context_handle_t hContext,
                                        const ze_device_mem_alloc_desc_t *deviceDesc,
                                        const ze_host_mem_alloc_desc_t *hostDesc, size_t size,
                                        size_t alignment, ze_device_handle_t hDevice, void **pptr) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        notNull(deviceDesc);
        notNull(hostDesc);
        notNull(pptr);
        // A shared allocation may be made without a device (then it is shared
        // by all of the context's devices).
        Device *device = hDevice != nullptr ? context->deviceOf(hDevice) : nullptr;
        *pptr = context->allocate(size, alignment, ZE_MEMORY_TYPE_SHARED, device);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeMemAllocDevice(ze_context_handle_t hContext,
                                        const ze_device_mem_alloc_desc_t *deviceDesc, size_t size,
                                        size_t alignment, ze_device_handle_t hDevice, void **pptr) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        Device *device = context->deviceOf(hDevice);
        notNull(deviceDesc);
        notNull(pptr);
        *pptr = context->allocate(size, alignment, ZE_MEMORY_TYPE_DEVICE, device);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeMemAllocHost(ze_context_handle_t hContext,
                                      const ze_host_mem_alloc_desc_t *hostDesc, size_t size,
                                      size_t alignment, void **pptr) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        notNull(hostDesc);
        notNull(pptr);
        *pptr = context->allocate(size, alignment, ZE_MEMORY_TYPE_HOST, nullptr);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeMemFree(ze_context_handle_t hContext, void *ptr) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        context->free(notNull(ptr));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeMemFreeExt(ze_context_handle_t hContext,
                                    const ze_memory_free_ext_desc_t *desc, void *ptr) {
    return boundary(__func__, [&] {
        notNull(desc);
        // Both free policies are satisfied by freeing now: the caller must not
        // free memory that pending work still uses (BLOCKING_FREE would wait;
        // the driver's frees never race with kernels the caller has synchronised).
        return ze_driver::zeMemFree(hContext, ptr);
    });
}

ze_result_t ZE_APICALL zeMemGetAllocProperties(ze_context_handle_t hContext, const void *ptr,
                                               ze_memory_allocation_properties_t *p,
                                               ze_device_handle_t *phDevice) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        notNull(ptr);
        notNull(p);
        Allocation a;
        if (context->find(ptr, &a)) {
            p->type = a.type;
            p->id = a.id;
            p->pageSize = Context::kPageSize;
            if (phDevice != nullptr)
                *phDevice =
                    a.device != nullptr ? toHandle<Device, ze_device_handle_t>(a.device) : nullptr;
        } else {
            p->type = ZE_MEMORY_TYPE_UNKNOWN;
            p->id = 0;
            p->pageSize = 0;
            if (phDevice != nullptr)
                *phDevice = nullptr;
        }
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeMemGetAddressRange(ze_context_handle_t hContext, const void *ptr,
                                            void **pBase, size_t *pSize) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        notNull(ptr);
        Allocation a;
        // A pointer the driver did not allocate has no range; say so with
        // null/0 rather than failing, like for zeMemGetAllocProperties.
        bool found = context->find(ptr, &a);
        if (pBase != nullptr)
            *pBase = found ? a.base : nullptr;
        if (pSize != nullptr)
            *pSize = found ? a.size : 0;
        return found ? ZE_RESULT_SUCCESS : ZE_RESULT_ERROR_INVALID_ARGUMENT;
    });
}

} // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetMemProcAddrTable(ze_api_version_t version,
                                                                     ze_mem_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnAllocShared = zeMemAllocShared;
    t->pfnAllocDevice = zeMemAllocDevice;
    t->pfnAllocHost = zeMemAllocHost;
    t->pfnFree = zeMemFree;
    t->pfnGetAllocProperties = zeMemGetAllocProperties;
    t->pfnGetAddressRange = zeMemGetAddressRange;
    t->pfnFreeExt = zeMemFreeExt;
    backend::completeMemTable(t);
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
