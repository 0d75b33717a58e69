// Contexts, their USM allocations and the Context DDI table.
#include "context.hpp"

#include "address_ranges.hpp"
#include "backend.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "image.hpp"

#include <level_zero/ze_ddi.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace ze_driver {

Context::Context(Driver *driver) : Object(kTag), driver_(driver) {}

Context::~Context() {
    if (!initialized_)
        return;
    driver_->removeContext(this);
    virtualMemory_.releaseAll();
    // Allocations the application did not free go with the context, as in L0.
    for (auto &entry : allocations_)
        backend::release(*this, entry.second);
    backend::finishContext(*this);
}

Device *Context::deviceOf(ze_device_handle_t hDevice) const {
    Device *device = fromHandle<Device>(hDevice);
    check(driver_->owns(device), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    return device;
}

void Context::init() {
    backend::initContext(*this);
    initialized_ = true;
    driver_->addContext(this);
}

void *Context::allocate(size_t size, size_t alignment, ze_memory_type_t type, Device *device) {
    check(size > 0, ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    check((alignment & (alignment - 1)) == 0, ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    Device *limits = device != nullptr ? device : driver_->devices().front().get();
    check(size <= limits->maxMemAllocSize(), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    check(size <= SIZE_MAX / 2 && alignment <= SIZE_MAX / 4, ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    Allocation a = backend::allocate(*this, size, alignment, type, limits);
    a.size = size;
    a.type = type;
    a.device = device;
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
        backend::release(*this, a);
        throw;
    }
}

bool Context::update(const void *pointer, const std::function<bool(Allocation &)> &change) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = rangeHolding(allocations_, reinterpret_cast<uintptr_t>(pointer));
    return it != allocations_.end() && change(it->second);
}

bool Context::remove(const void *pointer, bool inside,
                     const std::function<bool(const Allocation &)> &accept) {
    Allocation a;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto key = reinterpret_cast<uintptr_t>(pointer);
        auto it = inside ? rangeHolding(allocations_, key) : allocations_.find(key);
        if (it == allocations_.end() || !accept(it->second))
            return false;
        a = it->second;
        allocations_.erase(it);
    }
    backend::release(*this, a);
    return true;
}

void Context::free(void *pointer) {
    // Memory opened through IPC is closed, not freed.
    auto owned = [](const Allocation &a) { return !a.imported; };
    check(remove(pointer, false, owned) || driver_->anyContext([&](Context *other) {
              return other->remove(pointer, false, owned);
          }),
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
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

// The context always spans every device of its driver: they share USM, which
// is what a subset would allow too.
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

// A context is lost with any of its devices (every device of its driver).
ze_result_t ZE_APICALL zeContextGetStatus(ze_context_handle_t hContext) {
    return boundary(__func__, [&] {
        for (const auto &device : fromHandle<Context>(hContext)->driver()->devices())
            if (backend::deviceLost(*device))
                return ZE_RESULT_ERROR_DEVICE_LOST;
        return ZE_RESULT_SUCCESS;
    });
}

// Writes the devices have completed are visible to the host once a full fence
// orders the caller after them (on a CPU device they are this process's own
// host-memory writes; completion on a GPU makes them visible to the host).
ze_result_t ZE_APICALL zeContextSystemBarrier(ze_context_handle_t hContext,
                                              ze_device_handle_t hDevice) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext)->deviceOf(hDevice);
        std::atomic_thread_fence(std::memory_order_seq_cst);
        return ZE_RESULT_SUCCESS;
    });
}

// All memory is always resident (the backends have no eviction).
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
    t->pfnCreateEx = zeContextCreateEx;
    imageContextEntries(t);
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
