// Contexts and the Context DDI table.
#include "context.hpp"

#include "address_ranges.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "image.hpp"
#include "host_pages.hpp"

#include <level_zero/ze_ddi.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace ze_driver {

Context::Context(Driver *driver) : Object(kTag), driver_(driver) {}

Context::~Context() {
    if (cl_ != nullptr)
        driver_->removeContext(this);
    // Allocations the application did not free go with the context, as in L0.
    for (auto &entry : allocations_)
        releaseAllocation(entry.second);
    if (cl_ != nullptr)
        clReleaseContext(cl_);
}

Device *Context::deviceOf(ze_device_handle_t hDevice) const {
    Device *device = fromHandle<Device>(hDevice);
    check(driver_->owns(device), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    return device;
}

void Context::init() {
    cl_ = retainClContext(driver_);
    driver_->addContext(this);
}

void *Context::allocate(size_t size, size_t alignment, ze_memory_type_t type, Device *device) {
    check(size > 0, ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    check((alignment & (alignment - 1)) == 0, ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    const Device *limits = device != nullptr ? device : driver_->devices().front().get();
    check(size <= limits->maxMemAllocSize(), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    // OpenCL refuses alignments above the device's base address alignment
    // (128 bytes on PoCL); L0 callers ask for pages. Larger alignments are
    // met by over-allocating and handing out an aligned pointer inside; SVM
    // pointers anywhere in an allocation are valid kernel arguments.
    size_t maxAlign = limits->native().maxSvmAlignment;
    size_t padding = alignment > maxAlign ? alignment - maxAlign : 0;
    check(size <= SIZE_MAX - padding - kPageSize, ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    // Whole pages, as GPU drivers hand out (Intel's: 64 KiB): a kernel that
    // strays a little past the end of a small allocation, which such drivers
    // forgive, must not write over the host's heap.
    Allocation a;
    a.size = size;
    a.type = type;
    a.device = device;
    if (limits->reachesSystemMemory()) {
        // The device takes any host pointer: pages of the driver's own, which
        // IPC can share with another process.
        check(size <= SIZE_MAX - kHostPagesGranularity, ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
        a.pages = (size + kHostPagesGranularity - 1) & ~(kHostPagesGranularity - 1);
        a.base = host_pages::allocate(a.pages, std::max(alignment, kPageSize));
    } else {
        size_t bytes = (size + padding + kPageSize - 1) & ~(kPageSize - 1);
        a.svm = clSVMAlloc(cl_, limits->native().svmFlags, bytes,
                           static_cast<cl_uint>(std::min(alignment, maxAlign)));
        check(a.svm != nullptr, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
        uintptr_t address = reinterpret_cast<uintptr_t>(a.svm);
        if (alignment > maxAlign)
            address = (address + alignment - 1) & ~(uintptr_t(alignment) - 1);
        a.base = reinterpret_cast<void *>(address);
    }
    keep(a);
    return a.base;
}

void Context::keep(Allocation a) {
    static std::atomic<uint64_t> nextId{1};
    a.id = nextId++;
    try {
        std::lock_guard<std::mutex> lock(mutex_);
        allocations_.emplace(reinterpret_cast<uintptr_t>(a.base), a);
    } catch (...) {
        releaseAllocation(a);
        throw;
    }
}

void Context::releaseAllocation(const Allocation &a) {
    if (a.pages != 0)
        host_pages::release(a.base, a.pages, a.fd);
    else
        clSVMFree(cl_, a.svm);
}

bool Context::share(const void *pointer, Allocation *out) {
    return shareOwn(pointer, out) ||
           driver_->anyContext([&](Context *other) { return other->shareOwn(pointer, out); });
}

bool Context::shareOwn(const void *pointer, Allocation *out) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = rangeHolding(allocations_, reinterpret_cast<uintptr_t>(pointer));
    if (it == allocations_.end() || it->second.pages == 0 || it->second.imported)
        return false;
    Allocation &a = it->second;
    if (a.fd < 0)
        a.fd = host_pages::share(a.base, a.pages);
    *out = a;
    return true;
}

void Context::adopt(void *mapping, size_t bytes, ze_memory_type_t type, Device *device) {
    Allocation a;
    a.base = mapping;
    a.size = bytes;
    a.pages = bytes;
    a.type = type;
    a.device = device;
    a.imported = true;
    keep(a);
}

void Context::closeImported(const void *pointer) {
    Allocation a;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = rangeHolding(allocations_, reinterpret_cast<uintptr_t>(pointer));
        check(it != allocations_.end() && it->second.imported, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        a = it->second;
        allocations_.erase(it);
    }
    releaseAllocation(a);
}

void Context::free(void *pointer) {
    check(tryFree(pointer) ||
              driver_->anyContext([&](Context *other) { return other->tryFree(pointer); }),
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

bool Context::tryFree(void *pointer) {
    Allocation a;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = allocations_.find(reinterpret_cast<uintptr_t>(pointer));
        // Memory opened through IPC is closed, not freed.
        if (it == allocations_.end() || it->second.imported)
            return false;
        a = it->second;
        allocations_.erase(it);
    }
    releaseAllocation(a);
    return true;
}

bool Context::find(const void *pointer, Allocation *out) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = rangeHolding(allocations_, reinterpret_cast<uintptr_t>(pointer));
    if (it == allocations_.end())
        return false;
    *out = it->second;
    return true;
}

namespace {

ze_result_t ZE_APICALL zeContextCreate(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
                                       ze_context_handle_t *phContext) {
    return boundary(__func__, [&] {
        Driver *driver = fromHandle<Driver>(hDriver);
        notNull(desc);
        notNull(phContext);
        auto context = std::make_unique<Context>(driver);
        context->init();
        *phContext = toHandle<Context, ze_context_handle_t>(context.release());
        return ZE_RESULT_SUCCESS;
    });
}

// The context always spans every device of its driver: one OpenCL context
// lets all of them share USM, which is what a subset would allow too.
ze_result_t ZE_APICALL zeContextCreateEx(ze_driver_handle_t hDriver, const ze_context_desc_t *desc,
                                         uint32_t numDevices, ze_device_handle_t *phDevices,
                                         ze_context_handle_t *phContext) {
    return boundary(__func__, [&] {
        Driver *driver = fromHandle<Driver>(hDriver);
        check(numDevices == 0 || phDevices != nullptr, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        for (uint32_t i = 0; i < numDevices; ++i)
            check(driver->owns(fromHandle<Device>(phDevices[i])), ZE_RESULT_ERROR_INVALID_ARGUMENT);
        return ze_driver::zeContextCreate(hDriver, desc, phContext);
    });
}

ze_result_t ZE_APICALL zeContextDestroy(ze_context_handle_t hContext) {
    return boundary(__func__, [&] {
        Context::destroyHandle(fromHandle<Context>(hContext));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeContextGetStatus(ze_context_handle_t hContext) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext);
        return ZE_RESULT_SUCCESS;
    });
}

// Writes to device memory are host-memory writes the device's threads made in
// this process: a full fence makes every one of them that has completed
// visible to the caller.
ze_result_t ZE_APICALL zeContextSystemBarrier(ze_context_handle_t hContext,
                                              ze_device_handle_t hDevice) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext)->deviceOf(hDevice);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        return ZE_RESULT_SUCCESS;
    });
}

// All memory is always resident: SVM on a CPU device is host memory.
ze_result_t ZE_APICALL zeContextMakeMemoryResident(ze_context_handle_t hContext,
                                                   ze_device_handle_t hDevice, void *ptr, size_t) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext);
        fromHandle<Device>(hDevice);
        notNull(ptr);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeContextEvictMemory(ze_context_handle_t hContext,
                                            ze_device_handle_t hDevice, void *ptr, size_t) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext);
        fromHandle<Device>(hDevice);
        notNull(ptr);
        return ZE_RESULT_SUCCESS;
    });
}

// Images, like memory, are always resident.
ze_result_t checkResidencyOfImage(const char *entry, ze_context_handle_t hContext,
                                  ze_device_handle_t hDevice, ze_image_handle_t hImage) {
    return boundary(entry, [&] {
        fromHandle<Context>(hContext);
        fromHandle<Device>(hDevice);
        fromHandle<Image>(hImage);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeContextMakeImageResident(ze_context_handle_t hContext,
                                                  ze_device_handle_t hDevice,
                                                  ze_image_handle_t hImage) {
    return checkResidencyOfImage(__func__, hContext, hDevice, hImage);
}

ze_result_t ZE_APICALL zeContextEvictImage(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                           ze_image_handle_t hImage) {
    return checkResidencyOfImage(__func__, hContext, hDevice, hImage);
}

} // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetContextProcAddrTable(ze_api_version_t version,
                                                                         ze_context_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnCreate = zeContextCreate;
    t->pfnDestroy = zeContextDestroy;
    t->pfnGetStatus = zeContextGetStatus;
    t->pfnSystemBarrier = zeContextSystemBarrier;
    t->pfnMakeMemoryResident = zeContextMakeMemoryResident;
    t->pfnEvictMemory = zeContextEvictMemory;
    t->pfnMakeImageResident = zeContextMakeImageResident;
    t->pfnEvictImage = zeContextEvictImage;
    t->pfnCreateEx = zeContextCreateEx;
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
