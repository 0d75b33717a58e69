// The OpenCL backend's physical and virtual memory (../core/backend.hpp) on a
// device that reaches system memory (a CPU device): the host's own virtual
// memory. A reservation is an inaccessible anonymous mapping, physical
// memory a memory file, and mapping it an mmap of the file over the
// reserved pages with the asked protection.
#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"
#include "host_pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace ze_driver {

namespace {

int protectionOf(ze_memory_access_attribute_t access) {
    switch (access) {
    case ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE:
        return PROT_READ | PROT_WRITE;
    case ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY:
        return PROT_READ;
    default:
        return PROT_NONE;
    }
}

// Reserved but inaccessible pages, at `at` exactly when `fixed`.
void *reservePages(void *at, size_t size, bool fixed) {
    return mmap(at, size, PROT_NONE,
                MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | (fixed ? MAP_FIXED : 0), -1, 0);
}

} // namespace

PhysicalMemoryNative::PhysicalMemoryNative(size_t size) {
    fd = memfd_create("ze_opencl physical memory", MFD_CLOEXEC);
    check(fd >= 0, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    if (ftruncate(fd, static_cast<off_t>(size)) != 0) {
        close(fd);
        fail(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY);
    }
}

PhysicalMemoryNative::~PhysicalMemoryNative() {
    close(fd);
}

size_t backend::virtualPageSize(Context &) {
    return host_pages::pageSize();
}

// Virtual memory is the host's: only a device whose kernels reach any host
// memory can use it.
bool backend::virtualMemorySupported(Device &device) {
    return device.reachesSystemMemory();
}

std::shared_ptr<PhysicalMemoryNative> backend::createPhysicalMemory(Context &, Device &,
                                                                    size_t size) {
    return std::make_shared<PhysicalMemoryNative>(size);
}

void *backend::reserveAddresses(Context &, const void *hint, size_t size) {
    // The start is a hint: the kernel takes it if it is free.
    void *base = reservePages(const_cast<void *>(hint), size, false);
    check(base != MAP_FAILED, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    return base;
}

void backend::freeAddresses(Context &, void *base, size_t size) noexcept {
    munmap(base, size);
}

void backend::mapAddresses(Context &, void *at, size_t size, const PhysicalMemoryNative &memory,
                           size_t offset, ze_memory_access_attribute_t access) {
    void *mapped = mmap(at, size, protectionOf(access), MAP_SHARED | MAP_FIXED, memory.fd,
                        static_cast<off_t>(offset));
    check(mapped != MAP_FAILED, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
}

void backend::unmapAddresses(Context &, void *at, size_t size) {
    check(reservePages(at, size, true) != MAP_FAILED, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
}

void backend::protectAddresses(Context &, void *at, size_t size, const PhysicalMemoryNative &,
                               size_t, ze_memory_access_attribute_t access) {
    check(mprotect(at, size, protectionOf(access)) == 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
}

} // namespace ze_driver
