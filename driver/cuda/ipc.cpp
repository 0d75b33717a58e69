// Memory shared between processes (zeMemGetIpcHandle, zeMemOpenIpcHandle,
// zeMemCloseIpcHandle) on the CUDA backend: device memory (cuMemAlloc)
// through CUDA's IPC handles.
//
// A Level Zero IPC handle has 64 bytes, as many as CUDA's alone, and must
// also say where in the allocation the pointer lies. So CUDA's handle travels
// in a small memory file of the exporting process, made at the allocation's
// first export and kept while it lives; the Level Zero handle names that
// file (host_pages::SharedFile, first, where applications that pass handles
// over a socket expect a descriptor) and the pointer's offset. The importer
// reads the file through pidfd_getfd, as host_pages::open does for the
// OpenCL backend's memory files. CUDA opens another process's handles only:
// an open in the exporting process gives its own pointer back.
#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "host_pages.hpp"

#include <level_zero/ze_ddi.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

namespace ze_driver {

namespace {

// The memory file's contents.
struct Record {
    ze_cuda::CUipcMemHandle cuda; // of the allocation CUDA made (its raw pointer)
    uint64_t raw;                 // that pointer in the exporting process
    uint64_t bytes;               // and its length
};

// The Level Zero handle's contents.
struct MemoryHandle {
    host_pages::SharedFile file; // holds the Record
    uint64_t offset;             // of the exported pointer from the raw pointer
    uint32_t magic;
};
static_assert(sizeof(MemoryHandle) <= ZE_MAX_IPC_HANDLE_SIZE, "fits an IPC handle");
constexpr uint32_t kMagic = 0x49504343; // "IPCC"

// The memory file of `a` (device memory of this process), made the first time.
int recordFile(Allocation &a) {
    if (a.native.ipcFile >= 0)
        return a.native.ipcFile;
    Record record = {};
    checkCuda(cuda().cuIpcGetMemHandle(&record.cuda, reinterpret_cast<uintptr_t>(a.native.raw)));
    record.raw = reinterpret_cast<uintptr_t>(a.native.raw);
    record.bytes = a.size + (static_cast<char *>(a.base) - static_cast<char *>(a.native.raw));
    int fd = memfd_create("ze_cuda ipc handle", MFD_CLOEXEC);
    check(fd >= 0, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    if (pwrite(fd, &record, sizeof(record), 0) != ssize_t(sizeof(record))) {
        close(fd);
        fail(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    return a.native.ipcFile = fd;
}

// The handle of `ptr` if it lies in device memory `context` allocated; false
// if the context has no allocation holding it.
bool exportOwn(Context *context, const void *ptr, MemoryHandle *out) {
    return context->update(ptr, [&](Allocation &a) {
        // CUDA shares device memory only: not pinned host memory, not
        // managed memory, not memory opened from another process.
        check(a.type == ZE_MEMORY_TYPE_DEVICE && !a.imported, ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
        out->file = host_pages::identify(recordFile(a));
        out->offset = static_cast<const char *>(ptr) - static_cast<const char *>(a.native.raw);
        out->magic = kMagic;
        return true;
    });
}

Record readRecord(const MemoryHandle &h) {
    void *mapped = host_pages::open(h.file, 0, sizeof(Record));
    Record record;
    std::memcpy(&record, mapped, sizeof(record));
    host_pages::release(mapped, sizeof(Record), -1);
    check(h.offset < record.bytes, ZE_RESULT_ERROR_INVALID_ARGUMENT);
    return record;
}

ze_result_t ZE_APICALL zeMemGetIpcHandle(ze_context_handle_t hContext, const void *ptr,
                                         ze_ipc_mem_handle_t *pIpcHandle) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        notNull(ptr);
        notNull(pIpcHandle);
        // Memory of any context of the driver, as on Intel's driver.
        MemoryHandle h = {};
        check(exportOwn(context, ptr, &h) || context->driver()->anyContext([&](Context *other) {
            return exportOwn(other, ptr, &h);
        }),
              ZE_RESULT_ERROR_INVALID_ARGUMENT);
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
        MemoryHandle h;
        std::memcpy(&h, handle.data, sizeof(h));
        check(h.magic == kMagic, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        Record record = readRecord(h);
        if (h.file.pid == getpid()) {
            // This process's own memory: its own address.
            void *pointer = reinterpret_cast<char *>(record.raw) + h.offset;
            ContextNative &native = context->native();
            std::lock_guard<std::mutex> lock(native.ownOpensMutex);
            ++native.ownOpens[pointer];
            *pptr = pointer;
            return ZE_RESULT_SUCCESS;
        }
        makeCurrent(device);
        ze_cuda::CUdeviceptr opened = 0;
        checkCuda(cuda().cuIpcOpenMemHandle(&opened, record.cuda,
                                            ze_cuda::CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
        void *base = reinterpret_cast<void *>(opened);
        // Every open of one handle has the same address: counted.
        bool again = context->update(base, [&](Allocation &a) {
            if (!a.imported || a.base != base)
                return false;
            ++a.native.opens;
            return true;
        });
        if (!again) {
            Allocation a;
            a.base = base;
            a.size = record.bytes;
            a.type = ZE_MEMORY_TYPE_DEVICE;
            a.device = device;
            a.imported = true;
            a.native.raw = base;
            a.native.opens = 1;
            context->keep(a);
        }
        *pptr = static_cast<char *>(base) + h.offset;
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeMemCloseIpcHandle(ze_context_handle_t hContext, const void *ptr) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        notNull(ptr);
        {
            ContextNative &native = context->native();
            std::lock_guard<std::mutex> lock(native.ownOpensMutex);
            auto own = native.ownOpens.find(ptr);
            if (own != native.ownOpens.end()) {
                if (--own->second == 0)
                    native.ownOpens.erase(own);
                return ZE_RESULT_SUCCESS;
            }
        }
        // An open of several: one of CUDA's references goes; the last goes
        // with the allocation (backend::release).
        bool counted = false;
        check(context->update(ptr,
                              [&](Allocation &a) {
                                  if (!a.imported)
                                      return false;
                                  if (a.native.opens > 1) {
                                      --a.native.opens;
                                      cuda().cuIpcCloseMemHandle(
                                          reinterpret_cast<uintptr_t>(a.native.raw));
                                      counted = true;
                                  }
                                  return true;
                              }),
              ZE_RESULT_ERROR_INVALID_ARGUMENT);
        if (!counted)
            context->remove(ptr, true, [](const Allocation &a) { return a.imported; });
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace

// Device memory is shared through CUDA's IPC handles.
bool backend::memoryIpcSupported(const Driver *) {
    return true;
}

void backend::completeMemTable(ze_mem_dditable_t *t) {
    t->pfnGetIpcHandle = zeMemGetIpcHandle;
    t->pfnOpenIpcHandle = zeMemOpenIpcHandle;
    t->pfnCloseIpcHandle = zeMemCloseIpcHandle;
}

} // namespace ze_driver
