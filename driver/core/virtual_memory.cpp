// Physical and virtual memory's books, and the PhysicalMem and VirtualMem DDI
// tables.
#include "virtual_memory.hpp"

#include "address_ranges.hpp"
#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"

#include <level_zero/ze_ddi.h>

#include <algorithm>

namespace ze_driver {

namespace {

size_t pageSize(Context *context) {
    return backend::virtualPageSize(*context);
}

bool pageAligned(Context *context, uintptr_t value) {
    return value % pageSize(context) == 0;
}

void checkAttribute(ze_memory_access_attribute_t access) {
    check(access == ZE_MEMORY_ACCESS_ATTRIBUTE_NONE ||
              access == ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE ||
              access == ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY,
          ZE_RESULT_ERROR_INVALID_ENUMERATION);
}

} // namespace

void VirtualMemory::releaseAll() noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    for (const auto &[base, reservation] : reservations_) {
        try {
            unmapRange(base, reservation.size);
        } catch (...) {
            // The context goes anyway: what stays mapped goes with the process.
        }
        backend::freeAddresses(*context_, reinterpret_cast<void *>(base), reservation.size);
    }
    reservations_.clear();
    mappings_.clear();
}

template <class F> void VirtualMemory::forEachMapped(uintptr_t at, size_t size, F each) {
    for (auto it = firstReaching(mappings_, at); it != mappings_.end() && it->first < at + size;
         ++it) {
        uintptr_t start = std::max(at, it->first);
        uintptr_t end = std::min(at + size, it->first + it->second.size);
        each(start, end - start, it->second, it->second.offset + (start - it->first));
    }
}

void VirtualMemory::unmapRange(uintptr_t at, size_t size) {
    auto it = firstReaching(mappings_, at);
    while (it != mappings_.end() && it->first < at + size) {
        uintptr_t start = it->first, end = start + it->second.size;
        uintptr_t from = std::max(at, start), to = std::min(at + size, end);
        backend::unmapAddresses(*context_, reinterpret_cast<void *>(from), to - from);
        // A mapping reaching out of the range keeps its parts outside.
        Mapping m = std::move(it->second);
        it = mappings_.erase(it);
        if (start < from)
            mappings_.emplace(start, Mapping{from - start, m.memory, m.offset});
        if (end > to)
            it = mappings_.emplace(to, Mapping{end - to, m.memory, m.offset + (to - start)}).first;
    }
}

void *VirtualMemory::reserve(const void *hint, size_t size) {
    check(size > 0 && pageAligned(context_, size), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    check(pageAligned(context_, reinterpret_cast<uintptr_t>(hint)),
          ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    void *base = backend::reserveAddresses(*context_, hint, size);
    try {
        std::lock_guard<std::mutex> lock(mutex_);
        Reservation &r = reservations_[reinterpret_cast<uintptr_t>(base)];
        r.size = size;
        r.pages.assign(size / pageSize(context_), ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    } catch (...) {
        backend::freeAddresses(*context_, base, size);
        throw;
    }
    return base;
}

void VirtualMemory::free(void *base, size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = reservations_.find(reinterpret_cast<uintptr_t>(base));
    check(it != reservations_.end(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    check(size == it->second.size, ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    unmapRange(it->first, size);
    backend::freeAddresses(*context_, base, size);
    reservations_.erase(it);
}

std::pair<VirtualMemory::Reservation *, size_t> VirtualMemory::within(const void *at, size_t size) {
    auto address = reinterpret_cast<uintptr_t>(at);
    check(pageAligned(context_, address), ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    check(size > 0 && pageAligned(context_, size), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    auto it = rangeHolding(reservations_, address);
    check(it != reservations_.end(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    Reservation &r = it->second;
    check(size <= r.size - (address - it->first), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    return {&r, (address - it->first) / pageSize(context_)};
}

std::pair<const VirtualMemory::Reservation *, size_t> VirtualMemory::within(const void *at,
                                                                            size_t size) const {
    return const_cast<VirtualMemory *>(this)->within(at, size);
}

void VirtualMemory::map(void *at, size_t size, const PhysicalMemory &memory, size_t offset,
                        ze_memory_access_attribute_t access) {
    checkAttribute(access);
    check(pageAligned(context_, offset), ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    check(offset <= memory.size() && size <= memory.size() - offset,
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    std::lock_guard<std::mutex> lock(mutex_);
    auto [reservation, page] = within(at, size);
    auto address = reinterpret_cast<uintptr_t>(at);
    unmapRange(address, size);
    std::fill_n(reservation->pages.begin() + page, size / pageSize(context_),
                ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    backend::mapAddresses(*context_, at, size, *memory.native(), offset, access);
    mappings_[address] = {size, memory.native(), offset};
    std::fill_n(reservation->pages.begin() + page, size / pageSize(context_), access);
}

void VirtualMemory::unmap(void *at, size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [reservation, page] = within(at, size);
    unmapRange(reinterpret_cast<uintptr_t>(at), size);
    std::fill_n(reservation->pages.begin() + page, size / pageSize(context_),
                ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
}

// Pages with nothing mapped keep the attribute in the books only: a mapping
// gives them its own.
void VirtualMemory::setAccess(void *at, size_t size, ze_memory_access_attribute_t access) {
    checkAttribute(access);
    std::lock_guard<std::mutex> lock(mutex_);
    auto [reservation, page] = within(at, size);
    forEachMapped(reinterpret_cast<uintptr_t>(at), size,
                  [&](uintptr_t start, size_t bytes, const Mapping &m, size_t offset) {
                      backend::protectAddresses(*context_, reinterpret_cast<void *>(start), bytes,
                                                *m.memory, offset, access);
                  });
    std::fill_n(reservation->pages.begin() + page, size / pageSize(context_), access);
}

std::pair<ze_memory_access_attribute_t, size_t> VirtualMemory::access(const void *at,
                                                                      size_t size) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [reservation, page] = within(at, size);
    const auto &pages = reservation->pages;
    size_t last = page + size / pageSize(context_);
    size_t end = page;
    while (end < last && pages[end] == pages[page])
        ++end;
    return {pages[page], (end - page) * pageSize(context_)};
}

bool VirtualMemory::mappedAt(const void *at, Mapped *out) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = rangeHolding(mappings_, reinterpret_cast<uintptr_t>(at));
    if (it == mappings_.end())
        return false;
    *out = {reinterpret_cast<const void *>(it->first), it->second.size, it->second.memory,
            it->second.offset};
    return true;
}

namespace {

// The device behind `hDevice`, if the backend has virtual memory on it.
Device *deviceForVirtualMemory(Context *context, ze_device_handle_t hDevice) {
    Device *device = context->deviceOf(hDevice);
    check(backend::virtualMemorySupported(*device), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    return device;
}

ze_result_t ZE_APICALL zePhysicalMemCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                           ze_physical_mem_desc_t *desc,
                                           ze_physical_mem_handle_t *phPhysicalMemory) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        Device *device = deviceForVirtualMemory(context, hDevice);
        notNull(desc);
        notNull(phPhysicalMemory);
        check(desc->size > 0 && pageAligned(context, desc->size), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
        auto memory = std::make_unique<PhysicalMemory>(
            device, desc->size, backend::createPhysicalMemory(*context, *device, desc->size));
        *phPhysicalMemory = toHandle<PhysicalMemory, ze_physical_mem_handle_t>(memory.release());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zePhysicalMemDestroy(ze_context_handle_t hContext,
                                            ze_physical_mem_handle_t hPhysicalMemory) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext);
        delete fromHandle<PhysicalMemory>(hPhysicalMemory);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeVirtualMemReserve(ze_context_handle_t hContext, const void *pStart,
                                           size_t size, void **pptr) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        *notNull(pptr) = context->virtualMemory().reserve(pStart, size);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeVirtualMemFree(ze_context_handle_t hContext, const void *ptr,
                                        size_t size) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext)->virtualMemory().free(const_cast<void *>(notNull(ptr)), size);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeVirtualMemQueryPageSize(ze_context_handle_t hContext,
                                                 ze_device_handle_t hDevice, size_t,
                                                 size_t *pagesize) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        deviceForVirtualMemory(context, hDevice);
        *notNull(pagesize) = pageSize(context);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeVirtualMemMap(ze_context_handle_t hContext, const void *ptr, size_t size,
                                       ze_physical_mem_handle_t hPhysicalMemory, size_t offset,
                                       ze_memory_access_attribute_t access) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        const PhysicalMemory *memory = fromHandle<PhysicalMemory>(hPhysicalMemory);
        context->virtualMemory().map(const_cast<void *>(notNull(ptr)), size, *memory, offset,
                                     access);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeVirtualMemUnmap(ze_context_handle_t hContext, const void *ptr,
                                         size_t size) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext)->virtualMemory().unmap(const_cast<void *>(notNull(ptr)),
                                                             size);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeVirtualMemSetAccessAttribute(ze_context_handle_t hContext, const void *ptr,
                                                      size_t size,
                                                      ze_memory_access_attribute_t access) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext)->virtualMemory().setAccess(const_cast<void *>(notNull(ptr)),
                                                                 size, access);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeVirtualMemGetAccessAttribute(ze_context_handle_t hContext, const void *ptr,
                                                      size_t size,
                                                      ze_memory_access_attribute_t *access,
                                                      size_t *outSize) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        notNull(access);
        notNull(outSize);
        auto [attribute, bytes] = context->virtualMemory().access(notNull(ptr), size);
        *access = attribute;
        *outSize = bytes;
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace

extern "C" {

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetPhysicalMemProcAddrTable(ze_api_version_t version,
                                                                  ze_physical_mem_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnCreate = zePhysicalMemCreate;
    t->pfnDestroy = zePhysicalMemDestroy;
    return ZE_RESULT_SUCCESS;
}

ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetVirtualMemProcAddrTable(ze_api_version_t version,
                                                                 ze_virtual_mem_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnReserve = zeVirtualMemReserve;
    t->pfnFree = zeVirtualMemFree;
    t->pfnQueryPageSize = zeVirtualMemQueryPageSize;
    t->pfnMap = zeVirtualMemMap;
    t->pfnUnmap = zeVirtualMemUnmap;
    t->pfnSetAccessAttribute = zeVirtualMemSetAccessAttribute;
    t->pfnGetAccessAttribute = zeVirtualMemGetAccessAttribute;
    return ZE_RESULT_SUCCESS;
}

} // extern "C"

} // namespace ze_driver
