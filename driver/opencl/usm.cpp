// The OpenCL backend's contexts and USM (../core/backend.hpp): a context
// refers to the driver's one OpenCL context; every kind of USM (host,
// device, shared) is SVM memory of it, or, on a device that reaches host
// memory, host pages of the driver's own, which IPC can share.
#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"
#include "host_pages.hpp"
#include "ipc.hpp"

#include <level_zero/ze_ddi.h>

#include <algorithm>

namespace ze_driver {

namespace {

// The address space each allocation of host pages takes, as Intel's
// driver's 64 KiB: kernels that stray past a small allocation, which that
// driver forgives, fault neither the process nor another allocation. Pages
// are backed only once touched, so it costs address space, not memory.
constexpr size_t kHostPagesGranularity = 64 * 1024;

} // namespace

void backend::initContext(Context &context) {
    context.native().cl = retainClContext(context.driver());
}

void backend::finishContext(Context &context) {
    clReleaseContext(context.native().cl);
}

Allocation backend::allocate(Context &context, size_t size, size_t alignment, ze_memory_type_t,
                             Device *limits) {
    // Whole pages, as GPU drivers hand out (Intel's: 64 KiB): a kernel that
    // strays a little past the end of a small allocation, which such drivers
    // forgive, must not write over the host's heap.
    constexpr size_t kPage = Context::kPageSize;
    Allocation a;
    if (limits->reachesSystemMemory()) {
        // The device takes any host pointer: pages of the driver's own, which
        // IPC can share with another process.
        a.native.pages = (size + kHostPagesGranularity - 1) & ~(kHostPagesGranularity - 1);
        a.base = host_pages::allocate(a.native.pages, std::max(alignment, kPage));
        return a;
    }
    // OpenCL refuses alignments above the device's base address alignment
    // (128 bytes on PoCL); L0 callers ask for pages. Larger alignments are
    // met by over-allocating and handing out an aligned pointer inside; SVM
    // pointers anywhere in an allocation are valid kernel arguments.
    size_t maxAlign = limits->native().maxSvmAlignment;
    size_t padding = alignment > maxAlign ? alignment - maxAlign : 0;
    size_t bytes = (size + padding + kPage - 1) & ~(kPage - 1);
    a.native.svm = clSVMAlloc(context.native().cl, limits->native().svmFlags, bytes,
                              static_cast<cl_uint>(std::min(alignment, maxAlign)));
    check(a.native.svm != nullptr, ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    uintptr_t address = reinterpret_cast<uintptr_t>(a.native.svm);
    if (alignment > maxAlign)
        address = (address + alignment - 1) & ~(uintptr_t(alignment) - 1);
    a.base = reinterpret_cast<void *>(address);
    return a;
}

void backend::release(Context &context, const Allocation &a) noexcept {
    if (a.native.pages != 0)
        host_pages::release(a.base, a.native.pages, a.native.fd);
    else
        clSVMFree(context.native().cl, a.native.svm);
}

bool backend::eventPoolIpcSupported() {
    return true;
}

void backend::completeMemTable(ze_mem_dditable_t *t) {
    t->pfnGetIpcHandle = zeMemGetIpcHandle;
    t->pfnOpenIpcHandle = zeMemOpenIpcHandle;
    t->pfnCloseIpcHandle = zeMemCloseIpcHandle;
}

} // namespace ze_driver
