// Physical and virtual memory, and the PhysicalMem and VirtualMem DDI tables.
#include "virtual_memory.hpp"

#include "address_ranges.hpp"
#include "context.hpp"
#include "device.hpp"
#include "host_pages.hpp"

#include <level_zero/ze_ddi.h>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <memory>

namespace ze_driver {

namespace {

bool pageAligned(uintptr_t value) {
    return value % host_pages::pageSize() == 0;
}

int protectionOf(ze_memory_access_attribute_t access) {
    switch (access) {
    case ZE_MEMORY_ACCESS_ATTRIBUTE_NONE:
        return PROT_NONE;
    case ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE:
        return PROT_READ | PROT_WRITE;
    case ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY:
        return PROT_READ;
    default:
        fail(ZE_RESULT_ERROR_INVALID_ENUMERATION);
    }
}

// Reserved but inaccessible pages, at `at` exactly when `fixed`.
void *reservePages(void *at, size_t size, bool fixed) {
    return mmap(at, size, PROT_NONE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | (fixed ? MAP_FIXED : 0), -1, 0);
}

} // namespace

PhysicalMemory::PhysicalMemory(size_t size) : Object(kTag), size_(size) {
    fd_ = memfd_create("ze_opencl physical memory", MFD_CLOEXEC);
    check(fd_ >= 0, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    if (ftruncate(fd_, static_cast<off_t>(size)) != 0) {
        close(fd_);
        fail(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    }
}

PhysicalMemory::~PhysicalMemory() {
    // Mappings of the file keep its pages; they go with the last mapping.
    close(fd_);
}

VirtualMemory::~VirtualMemory() {
    for (const auto &[base, reservation] : reservations_)
        munmap(reinterpret_cast<void *>(base), reservation.size);
    for (const auto &[start, mapping] : mappings_)
        close(mapping.fd);
}

void VirtualMemory::forgetMappings(uintptr_t at, size_t size) {
    auto it = mappings_.lower_bound(at);
    while (it != mappings_.end() && it->first < at + size) {
        close(it->second.fd);
        it = mappings_.erase(it);
    }
}

bool VirtualMemory::mappedFile(const void *at, MappedFile *out) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = rangeHolding(mappings_, reinterpret_cast<uintptr_t>(at));
    if (it == mappings_.end())
        return false;
    *out = {it->second.fd, reinterpret_cast<const void *>(it->first), it->second.size,
            it->second.offset};
    return true;
}

void *VirtualMemory::reserve(const void *hint, size_t size) {
    check(size > 0 && pageAligned(size), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    check(pageAligned(reinterpret_cast<uintptr_t>(hint)), ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    // The start is a hint: the kernel takes it if it is free.
    void *base = reservePages(const_cast<void *>(hint), size, false);
    check(base != MAP_FAILED, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    try {
        std::lock_guard<std::mutex> lock(mutex_);
        Reservation &r = reservations_[reinterpret_cast<uintptr_t>(base)];
        r.size = size;
        r.pages.assign(size / host_pages::pageSize(), ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    } catch (...) {
        munmap(base, size);
        throw;
    }
    return base;
}

void VirtualMemory::free(void *base, size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = reservations_.find(reinterpret_cast<uintptr_t>(base));
    check(it != reservations_.end(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    check(size == it->second.size, ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    munmap(base, size);
    forgetMappings(it->first, size);
    reservations_.erase(it);
}

std::pair<VirtualMemory::Reservation *, size_t> VirtualMemory::within(const void *at, size_t size) {
    auto address = reinterpret_cast<uintptr_t>(at);
    check(pageAligned(address), ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    check(size > 0 && pageAligned(size), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    auto it = rangeHolding(reservations_, address);
    check(it != reservations_.end(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    Reservation &r = it->second;
    check(size <= r.size - (address - it->first), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    return {&r, (address - it->first) / host_pages::pageSize()};
}

std::pair<const VirtualMemory::Reservation *, size_t> VirtualMemory::within(const void *at,
                                                                            size_t size) const {
    return const_cast<VirtualMemory *>(this)->within(at, size);
}

void VirtualMemory::map(void *at, size_t size, const PhysicalMemory &memory, size_t offset,
                        ze_memory_access_attribute_t access) {
    int protection = protectionOf(access);
    check(pageAligned(offset), ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT);
    check(offset <= memory.size() && size <= memory.size() - offset,
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    std::lock_guard<std::mutex> lock(mutex_);
    auto [reservation, page] = within(at, size);
    int fd = dup(memory.fd());
    check(fd >= 0, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    void *mapped =
        mmap(at, size, protection, MAP_SHARED | MAP_FIXED, memory.fd(), static_cast<off_t>(offset));
    if (mapped == MAP_FAILED) {
        close(fd);
        fail(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    auto address = reinterpret_cast<uintptr_t>(at);
    forgetMappings(address, size); // a mapping over a mapping replaces it
    mappings_[address] = {size, fd, offset};
    std::fill_n(reservation->pages.begin() + page, size / host_pages::pageSize(), access);
}

void VirtualMemory::unmap(void *at, size_t size) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [reservation, page] = within(at, size);
    check(reservePages(at, size, true) != MAP_FAILED, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    forgetMappings(reinterpret_cast<uintptr_t>(at), size);
    std::fill_n(reservation->pages.begin() + page, size / host_pages::pageSize(),
                ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
}

void VirtualMemory::setAccess(void *at, size_t size, ze_memory_access_attribute_t access) {
    int protection = protectionOf(access);
    std::lock_guard<std::mutex> lock(mutex_);
    auto [reservation, page] = within(at, size);
    check(mprotect(at, size, protection) == 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
    std::fill_n(reservation->pages.begin() + page, size / host_pages::pageSize(), access);
}

std::pair<ze_memory_access_attribute_t, size_t> VirtualMemory::access(const void *at,
                                                                      size_t size) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto [reservation, page] = within(at, size);
    const auto &pages = reservation->pages;
    size_t last = page + size / host_pages::pageSize();
    size_t end = page;
    while (end < last && pages[end] == pages[page])
        ++end;
    return {pages[page], (end - page) * host_pages::pageSize()};
}

namespace {

// Virtual memory is the host's: only a device whose kernels reach any host
// memory can use it.
Device *deviceForVirtualMemory(Context *context, ze_device_handle_t hDevice) {
    Device *device = context->deviceOf(hDevice);
    check(device->reachesSystemMemory(), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
    return device;
}

ze_result_t ZE_APICALL zePhysicalMemCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                           ze_physical_mem_desc_t *desc,
                                           ze_physical_mem_handle_t *phPhysicalMemory) {
    return boundary(__func__, [&] {
        deviceForVirtualMemory(fromHandle<Context>(hContext), hDevice);
        notNull(desc);
        notNull(phPhysicalMemory);
        check(desc->size > 0 && pageAligned(desc->size), ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
        auto memory = std::make_unique<PhysicalMemory>(desc->size);
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
        *notNull(pptr) = context->native().virtualMemory.reserve(pStart, size);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeVirtualMemFree(ze_context_handle_t hContext, const void *ptr,
                                        size_t size) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext)->native().virtualMemory.free(const_cast<void *>(notNull(ptr)), size);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeVirtualMemQueryPageSize(ze_context_handle_t hContext,
                                                 ze_device_handle_t hDevice, size_t,
                                                 size_t *pagesize) {
    return boundary(__func__, [&] {
        deviceForVirtualMemory(fromHandle<Context>(hContext), hDevice);
        *notNull(pagesize) = host_pages::pageSize();
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeVirtualMemMap(ze_context_handle_t hContext, const void *ptr, size_t size,
                                       ze_physical_mem_handle_t hPhysicalMemory, size_t offset,
                                       ze_memory_access_attribute_t access) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        const PhysicalMemory *memory = fromHandle<PhysicalMemory>(hPhysicalMemory);
        context->native().virtualMemory.map(const_cast<void *>(notNull(ptr)), size, *memory, offset,
                                     access);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeVirtualMemUnmap(ze_context_handle_t hContext, const void *ptr,
                                         size_t size) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext)->native().virtualMemory.unmap(const_cast<void *>(notNull(ptr)),
                                                             size);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeVirtualMemSetAccessAttribute(ze_context_handle_t hContext, const void *ptr,
                                                      size_t size,
                                                      ze_memory_access_attribute_t access) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContext)->native().virtualMemory.setAccess(const_cast<void *>(notNull(ptr)),
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
        auto [attribute, bytes] = context->native().virtualMemory.access(notNull(ptr), size);
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
