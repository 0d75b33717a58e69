// The CUDA backend's physical and virtual memory (../core/backend.hpp) on
// CUDA's virtual memory management: reservations are cuMemAddressReserve
// ranges, physical memory is device memory of cuMemCreate (one allocation a
// page, PhysicalMemoryNative), mapped with cuMemMap and made accessible with
// cuMemSetAccess to its device and every device with peer access to it.
#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"

#include <algorithm>

namespace ze_driver {

namespace {

using ze_cuda::CUdeviceptr;

CUdeviceptr address(const void *pointer) {
    return reinterpret_cast<CUdeviceptr>(pointer);
}

ze_cuda::CUmemAllocationProp deviceMemory(Device &device) {
    ze_cuda::CUmemAllocationProp prop = {};
    prop.type = ze_cuda::CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location = {ze_cuda::CU_MEM_LOCATION_TYPE_DEVICE, device.native().device};
    return prop;
}

// Maps pages [first, first + size / page) of `memory` at `at`, none of them
// accessible yet; on a failure, none stays mapped.
void mapPages(Context &context, void *at, size_t size, const PhysicalMemoryNative &memory,
              size_t offset) {
    const size_t page = backend::virtualPageSize(context);
    for (size_t done = 0; done < size; done += page) {
        ze_cuda::CUresult r =
            cuda().cuMemMap(address(at) + done, page, 0, memory.pages[(offset + done) / page], 0);
        if (r != ze_cuda::CUDA_SUCCESS) {
            if (done > 0)
                backend::unmapAddresses(context, at, done);
            checkCuda(r);
        }
    }
}

} // namespace

PhysicalMemoryNative::~PhysicalMemoryNative() {
    for (ze_cuda::CUmemGenericAllocationHandle page : pages)
        cuda().cuMemRelease(page);
}

// CUDA's minimum granularity, the largest over the driver's devices (2 MiB
// on the GPUs of the H100 generation), so a range may be mapped for any of them.
size_t backend::virtualPageSize(Context &context) {
    Driver *driver = context.driver();
    std::call_once(driver->native().pageFound, [&] {
        size_t largest = 0;
        for (const auto &device : driver->devices()) {
            size_t granularity = 0;
            ze_cuda::CUmemAllocationProp prop = deviceMemory(*device);
            if (cuda().cuMemGetAllocationGranularity(&granularity, &prop,
                                                     ze_cuda::CU_MEM_ALLOC_GRANULARITY_MINIMUM) ==
                ze_cuda::CUDA_SUCCESS)
                largest = std::max(largest, granularity);
        }
        driver->native().virtualPage = largest > 0 ? largest : size_t(2) << 20;
    });
    return driver->native().virtualPage;
}

bool backend::virtualMemorySupported(Device &device) {
    int supported = 0;
    return cuda().cuDeviceGetAttribute(
               &supported, ze_cuda::CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
               device.native().device) == ze_cuda::CUDA_SUCCESS &&
           supported != 0;
}

std::shared_ptr<PhysicalMemoryNative> backend::createPhysicalMemory(Context &context,
                                                                    Device &device, size_t size) {
    makeCurrent(&device);
    auto memory = std::make_shared<PhysicalMemoryNative>();
    memory->device = &device;
    const size_t page = virtualPageSize(context);
    ze_cuda::CUmemAllocationProp prop = deviceMemory(device);
    memory->pages.reserve(size / page);
    for (size_t done = 0; done < size; done += page) {
        ze_cuda::CUmemGenericAllocationHandle handle = 0;
        checkCuda(cuda().cuMemCreate(&handle, page, &prop, 0)); // the pages so far go with `memory`
        memory->pages.push_back(handle);
    }
    return memory;
}

void *backend::reserveAddresses(Context &context, const void *hint, size_t size) {
    CUdeviceptr base = 0;
    checkCuda(cuda().cuMemAddressReserve(&base, size, virtualPageSize(context), address(hint), 0));
    return reinterpret_cast<void *>(base);
}

void backend::freeAddresses(Context &, void *base, size_t size) noexcept {
    cuda().cuMemAddressFree(address(base), size);
}

void backend::mapAddresses(Context &context, void *at, size_t size,
                           const PhysicalMemoryNative &memory, size_t offset,
                           ze_memory_access_attribute_t access) {
    mapPages(context, at, size, memory, offset);
    if (access == ZE_MEMORY_ACCESS_ATTRIBUTE_NONE)
        return; // CUDA's mappings start inaccessible
    try {
        protectAddresses(context, at, size, memory, offset, access);
    } catch (...) {
        unmapAddresses(context, at, size);
        throw;
    }
}

// Page by page, as mapPages mapped them.
void backend::unmapAddresses(Context &context, void *at, size_t size) {
    const size_t page = virtualPageSize(context);
    for (size_t done = 0; done < size; done += page)
        checkCuda(cuda().cuMemUnmap(address(at) + done, page));
}

// To make mapped pages inaccessible again, they are mapped anew: a fresh
// mapping has no access, whatever cuMemSetAccess gave the one before.
void backend::protectAddresses(Context &context, void *at, size_t size,
                               const PhysicalMemoryNative &memory, size_t offset,
                               ze_memory_access_attribute_t access) {
    if (access == ZE_MEMORY_ACCESS_ATTRIBUTE_NONE) {
        unmapAddresses(context, at, size);
        return mapPages(context, at, size, memory, offset);
    }
    int flags = access == ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY
                    ? ze_cuda::CU_MEM_ACCESS_FLAGS_PROT_READ
                    : ze_cuda::CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    std::vector<ze_cuda::CUmemAccessDesc> reaching;
    for (const auto &device : context.driver()->devices())
        if (peerAccess(*device, *memory.device))
            reaching.push_back(
                {{ze_cuda::CU_MEM_LOCATION_TYPE_DEVICE, device->native().device}, flags});
    checkCuda(cuda().cuMemSetAccess(address(at), size, reaching.data(), reaching.size()));
}

} // namespace ze_driver
