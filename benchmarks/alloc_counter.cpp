#include "alloc_counter.hpp"

#include <level_zero/ze_api.h>

#include <dlfcn.h>

#include <cstddef>
#include <cstdlib>
#include <new>

// glibc's allocator under its internal names: the replacements below count
// and forward to it, so memory from either side may be freed by either.
extern "C" {
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *ptr, size_t size);
void *__libc_memalign(size_t alignment, size_t size);
void __libc_free(void *ptr);
}

namespace {

// Plain thread-locals of the executable: static TLS, which never allocates.
thread_local uint64_t tlsNews = 0;
thread_local uint64_t tlsMallocs = 0;
thread_local uint64_t tlsOutsideZe = 0;
thread_local int tlsZeDepth = 0; // > 0 while a wrapped ze* call runs

inline void countMalloc() {
    ++tlsMallocs;
    if (tlsZeDepth == 0)
        ++tlsOutsideZe;
}

inline void countNew() {
    ++tlsNews;
    if (tlsZeDepth == 0)
        ++tlsOutsideZe;
}

struct InsideZe {
    InsideZe() { ++tlsZeDepth; }
    ~InsideZe() { --tlsZeDepth; }
};

void *countedNew(size_t size) {
    countNew();
    void *p = __libc_malloc(size ? size : 1);
    if (!p)
        throw std::bad_alloc();
    return p;
}

void *countedAlignedNew(size_t size, std::align_val_t alignment) {
    countNew();
    void *p = __libc_memalign(static_cast<size_t>(alignment), size ? size : 1);
    if (!p)
        throw std::bad_alloc();
    return p;
}

} // namespace

namespace bench {

AllocCount threadAllocations() {
    AllocCount c;
    c.news = tlsNews;
    c.mallocs = tlsMallocs;
    c.outsideZe = tlsOutsideZe;
    return c;
}

} // namespace bench

extern "C" {

void *malloc(size_t size) {
    countMalloc();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    countMalloc();
    return __libc_calloc(count, size);
}

void *realloc(void *ptr, size_t size) {
    if (!ptr)
        countMalloc();
    return __libc_realloc(ptr, size);
}

void free(void *ptr) { __libc_free(ptr); }

} // extern "C"

void *operator new(size_t size) { return countedNew(size); }
void *operator new[](size_t size) { return countedNew(size); }
void *operator new(size_t size, const std::nothrow_t &) noexcept {
    countNew();
    return __libc_malloc(size ? size : 1);
}
void *operator new[](size_t size, const std::nothrow_t &) noexcept {
    countNew();
    return __libc_malloc(size ? size : 1);
}
void *operator new(size_t size, std::align_val_t alignment) {
    return countedAlignedNew(size, alignment);
}
void *operator new[](size_t size, std::align_val_t alignment) {
    return countedAlignedNew(size, alignment);
}
void operator delete(void *ptr) noexcept { __libc_free(ptr); }
void operator delete[](void *ptr) noexcept { __libc_free(ptr); }
void operator delete(void *ptr, size_t) noexcept { __libc_free(ptr); }
void operator delete[](void *ptr, size_t) noexcept { __libc_free(ptr); }
void operator delete(void *ptr, std::align_val_t) noexcept { __libc_free(ptr); }
void operator delete[](void *ptr, std::align_val_t) noexcept { __libc_free(ptr); }
void operator delete(void *ptr, size_t, std::align_val_t) noexcept { __libc_free(ptr); }
void operator delete[](void *ptr, size_t, std::align_val_t) noexcept { __libc_free(ptr); }

// The ze* entry points of launches and host synchronisation, wrapped: the
// executable's definitions come first in symbol lookup, so the library and
// the benchmark both call these, which call the loader's.
#define BENCH_WRAP_ZE(name, params, args)                                                          \
    extern "C" ze_result_t ZE_APICALL name params {                                                \
        InsideZe inside;                                                                           \
        static const auto next = reinterpret_cast<decltype(&name)>(dlsym(RTLD_NEXT, #name));      \
        return next args;                                                                          \
    }

BENCH_WRAP_ZE(zeKernelSetArgumentValue,
              (ze_kernel_handle_t kernel, uint32_t index, size_t size, const void *value),
              (kernel, index, size, value))
BENCH_WRAP_ZE(zeKernelSetGroupSize, (ze_kernel_handle_t kernel, uint32_t x, uint32_t y, uint32_t z),
              (kernel, x, y, z))
BENCH_WRAP_ZE(zeKernelSuggestGroupSize,
              (ze_kernel_handle_t kernel, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t *x,
               uint32_t *y, uint32_t *z),
              (kernel, gx, gy, gz, x, y, z))
BENCH_WRAP_ZE(zeCommandListAppendLaunchKernel,
              (ze_command_list_handle_t list, ze_kernel_handle_t kernel,
               const ze_group_count_t *groups, ze_event_handle_t signal, uint32_t nwaits,
               ze_event_handle_t *waits),
              (list, kernel, groups, signal, nwaits, waits))
BENCH_WRAP_ZE(zeCommandListAppendBarrier,
              (ze_command_list_handle_t list, ze_event_handle_t signal, uint32_t nwaits,
               ze_event_handle_t *waits),
              (list, signal, nwaits, waits))
BENCH_WRAP_ZE(zeEventHostSynchronize, (ze_event_handle_t event, uint64_t timeout),
              (event, timeout))
BENCH_WRAP_ZE(zeEventHostReset, (ze_event_handle_t event), (event))
