#include "host_pages.hpp"

#include "object.hpp"

#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>

namespace ze_driver {
namespace host_pages {

size_t pageSize() {
    static const size_t size = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return size;
}

void *allocate(size_t bytes, size_t alignment) {
    // Over-reserved by the alignment, then trimmed to an aligned range.
    size_t extra = alignment > pageSize() ? alignment - pageSize() : 0;
    check(bytes <= SIZE_MAX - extra, ZE_RESULT_ERROR_UNSUPPORTED_SIZE);
    void *reserved = mmap(nullptr, bytes + extra, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    check(reserved != MAP_FAILED, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    auto start = reinterpret_cast<uintptr_t>(reserved);
    uintptr_t aligned = (start + alignment - 1) & ~(uintptr_t(alignment) - 1);
    if (aligned > start)
        munmap(reserved, aligned - start);
    if (start + extra > aligned)
        munmap(reinterpret_cast<void *>(aligned + bytes), start + extra - aligned);
    return reinterpret_cast<void *>(aligned);
}

void release(void *base, size_t bytes, int fd) {
    munmap(base, bytes);
    if (fd >= 0)
        close(fd);
}

int share(void *base, size_t bytes) {
    int fd = memfd_create("ze_opencl ipc memory", MFD_CLOEXEC);
    check(fd >= 0, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    const auto *from = static_cast<const char *>(base);
    bool copied = ftruncate(fd, static_cast<off_t>(bytes)) == 0;
    for (size_t done = 0; copied && done < bytes;) {
        ssize_t n = pwrite(fd, from + done, bytes - done, static_cast<off_t>(done));
        copied = n > 0;
        done += copied ? static_cast<size_t>(n) : 0;
    }
    // MAP_FIXED replaces the anonymous pages at once: the range never
    // stops being mapped.
    if (!copied ||
        mmap(base, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd, 0) == MAP_FAILED) {
        close(fd);
        fail(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    }
    return fd;
}

SharedFile identify(int fd) {
    struct stat s = {};
    check(fstat(fd, &s) == 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
    return {fd, static_cast<int32_t>(getpid()), static_cast<uint64_t>(s.st_ino),
            static_cast<uint64_t>(s.st_dev)};
}

namespace {

// Whether `fd` is `file` and holds at least `end` bytes: a mapping past the
// end of a file faults on access (SIGBUS), so a handle that claims more than
// its file has is refused here.
bool isFile(int fd, const SharedFile &file, uint64_t end) {
    struct stat s = {};
    return fstat(fd, &s) == 0 && static_cast<uint64_t>(s.st_ino) == file.inode &&
           static_cast<uint64_t>(s.st_dev) == file.device &&
           static_cast<uint64_t>(s.st_size) >= end;
}

} // namespace

void *open(const SharedFile &file, size_t offset, size_t bytes) {
    // The descriptor may already be this process's: passed over a socket
    // (which renumbers it), or never left the process.
    check(offset + bytes >= offset, ZE_RESULT_ERROR_INVALID_ARGUMENT);
    const uint64_t end = offset + bytes;
    int local = isFile(file.fd, file, end) ? file.fd : -1;
    bool taken = false;
    if (local < 0) {
        int process = static_cast<int>(syscall(SYS_pidfd_open, file.pid, 0));
        check(process >= 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        local = static_cast<int>(syscall(SYS_pidfd_getfd, process, file.fd, 0));
        close(process);
        check(local >= 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        taken = true;
        if (!isFile(local, file, end)) {
            close(local);
            fail(ZE_RESULT_ERROR_INVALID_ARGUMENT);
        }
    }
    void *mapped =
        mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, local, static_cast<off_t>(offset));
    // The mapping keeps the file; a descriptor taken for it is not needed.
    if (taken)
        close(local);
    check(mapped != MAP_FAILED, ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY);
    return mapped;
}

} // namespace host_pages
} // namespace ze_driver
