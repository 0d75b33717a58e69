#include "ipc.hpp"

#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "host_pages.hpp"

#include <algorithm>
#include <cstring>

namespace ze_driver {

namespace {

// What a memory IPC handle carries: the memory file (first, see
// host_pages::SharedFile), which part of it to map, and where in that part
// the pointer lies.
struct MemoryHandle {
    host_pages::SharedFile file;
    uint64_t fileOffset; // of the part to map
    uint64_t pages;      // bytes to map
    uint64_t offset;     // of the exported pointer in the part
    uint32_t type;       // ze_memory_type_t of the memory
    uint32_t magic;
};
static_assert(sizeof(MemoryHandle) <= ZE_MAX_IPC_HANDLE_SIZE, "fits an IPC handle");
constexpr uint32_t kMagic = 0x49504331; // "IPC1"

// The allocation holding `pointer` in `context`, made exportable (its host
// pages backed by a memory file); false for any other memory.
bool shareOwn(Context *context, const void *pointer, Allocation *out) {
    return context->update(pointer, [&](Allocation &a) {
        if (a.native.pages == 0 || a.imported)
            return false;
        if (a.native.fd < 0)
            a.native.fd = host_pages::share(a.base, a.native.pages);
        *out = a;
        return true;
    });
}

// The memory file behind `ptr`: USM of any context of the driver (as on
// Intel's driver), or a range of virtual memory of this context mapped from
// physical memory.
MemoryHandle exportMemory(Context *context, const void *ptr) {
    MemoryHandle h = {};
    Allocation a;
    VirtualMemory::Mapped mapped; // keeps its memory file open meanwhile
    int fd;
    const char *start;
    if (shareOwn(context, ptr, &a) || context->driver()->anyContext([&](Context *other) {
            return shareOwn(other, ptr, &a);
        })) {
        fd = a.native.fd;
        h.pages = a.native.pages;
        h.type = static_cast<uint32_t>(a.type);
        start = static_cast<const char *>(a.base);
    } else if (context->virtualMemory().mappedAt(ptr, &mapped)) {
        fd = mapped.memory->fd;
        h.fileOffset = mapped.offset;
        h.pages = mapped.bytes;
        h.type = ZE_MEMORY_TYPE_DEVICE;
        start = static_cast<const char *>(mapped.start);
    } else {
        fail(ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    h.file = host_pages::identify(fd);
    h.offset = static_cast<uint64_t>(static_cast<const char *>(ptr) - start);
    h.magic = kMagic;
    return h;
}

} // namespace

bool backend::memoryIpcSupported(const Driver *driver) {
    const auto &devices = driver->devices();
    return std::all_of(devices.begin(), devices.end(),
                       [](const auto &device) { return device->reachesSystemMemory(); });
}

ze_result_t ZE_APICALL zeMemGetIpcHandle(ze_context_handle_t hContext, const void *ptr,
                                         ze_ipc_mem_handle_t *pIpcHandle) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        notNull(ptr);
        notNull(pIpcHandle);
        check(backend::memoryIpcSupported(context->driver()), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
        MemoryHandle h = exportMemory(context, ptr);
        std::memset(pIpcHandle->data, 0, sizeof(pIpcHandle->data));
        std::memcpy(pIpcHandle->data, &h, sizeof(h));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeMemOpenIpcHandle(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                          ze_ipc_mem_handle_t handle, ze_ipc_memory_flags_t,
                                          void **pptr) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        Device *device = context->deviceOf(hDevice);
        notNull(pptr);
        check(backend::memoryIpcSupported(context->driver()), ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
        MemoryHandle h;
        std::memcpy(&h, handle.data, sizeof(h));
        check(h.magic == kMagic && h.pages > 0 && h.offset < h.pages,
              ZE_RESULT_ERROR_INVALID_ARGUMENT);
        // Each open maps the memory anew, so every open has its own pointer.
        void *mapping = host_pages::open(h.file, h.fileOffset, h.pages);
        auto type = static_cast<ze_memory_type_t>(h.type);
        Allocation opened;
        opened.base = mapping;
        opened.size = h.pages;
        opened.type = type;
        opened.device = type == ZE_MEMORY_TYPE_HOST ? nullptr : device;
        opened.imported = true;
        opened.native.pages = h.pages;
        context->keep(opened);
        *pptr = static_cast<char *>(mapping) + h.offset;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeMemCloseIpcHandle(ze_context_handle_t hContext, const void *ptr) {
    return boundary(__func__, [&] {
        check(fromHandle<Context>(hContext)->remove(notNull(ptr), true,
                                                    [](const Allocation &a) { return a.imported; }),
              ZE_RESULT_ERROR_INVALID_ARGUMENT);
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace ze_driver
