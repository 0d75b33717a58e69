// The SYCL flavour's stream (include/imex_gpu_sycl_runtime.h): a sycl::queue
// with the modules, kernels and events handed out through it. Every
// submission goes through submit(), which keeps the stream in order on any
// queue (on an out-of-order one each command depends on the one before) and
// remembers the last command's event, the stream's wait.
#pragma once

#include "common/object.hpp"

#include <sycl/sycl.hpp>

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace imex_l0 {

struct SyclKernel : Tagged<0x53594b45524eull /* "SYKERN" */> {
    explicit SyclKernel(sycl::kernel k)
        : kernel(std::move(k)), argCount(kernel.get_info<sycl::info::kernel::num_args>()) {}
    sycl::kernel kernel;
    size_t argCount; // asked once: a launch checks the params against it
};

// SPIR-V built into an executable kernel bundle, with the bytes it was built
// from (a repeated load compares them) and its kernels by name.
struct SyclModule : Tagged<0x53594d4f44ull /* "SYMOD" */> {
    SyclModule(std::vector<char> spirv, sycl::kernel_bundle<sycl::bundle_state::executable> b)
        : bytes(std::move(spirv)), bundle(std::move(b)) {}
    std::vector<char> bytes;
    sycl::kernel_bundle<sycl::bundle_state::executable> bundle;
    std::unordered_map<std::string, std::unique_ptr<SyclKernel>> kernels;
};

struct SyclEvent : Tagged<0x53594556ull /* "SYEV" */> {
    sycl::event event;
};

class SyclGpuStream : public Tagged<0x535953545245ull /* "SYSTRE" */> {
public:
    explicit SyclGpuStream(sycl::queue queue);
    ~SyclGpuStream(); // waits for the stream's work

    void *allocate(size_t size, size_t alignment, bool shared);
    void free(void *ptr);
    void copy(void *dst, const void *src, size_t size);
    void fill(void *dst, const void *pattern, size_t patternSize, size_t size);

    SyclModule *loadModule(const void *spirv, size_t size);
    SyclKernel *kernel(SyclModule *module, const char *name);
    // params: ParamDesc array (imex_gpu_abi.h); deps: EventDesc array or NULL.
    SyclEvent *launch(SyclKernel *kernel, const size_t grid[3], const size_t block[3],
                      uint32_t sharedMemBytes, const void *params, const void *deps);
    SyclEvent *record();
    void waitEvents(const void *deps);
    void wait();

private:
    // Submits cgf after the stream's previous command (an out-of-order queue
    // needs the dependency; an in-order one orders it already).
    template <typename Cgf> sycl::event submit(Cgf &&cgf);
    // The events of an EventDesc array (validated).
    static std::vector<sycl::event> dependencies(const void *deps);
    // An event handed out: a recycled one (after a wait) or a new one.
    SyclEvent *handOut(sycl::event event);
    // Frees ptr once the work submitted so far has completed, without a
    // host wait: it joins pendingFrees_ behind the stream's last command.
    void freeAfterWork(void *ptr);
    // Frees the pending pointers whose work has completed (oldest first;
    // all of them with everything = true, after a wait).
    void releaseFrees(bool everything);

    sycl::queue queue_;
    sycl::context context_; // the queue's (asked once)
    bool inOrder_;
    // On Level Zero a USM pointer argument is its value; other backends
    // (OpenCL) set it as a pointer of its own kind.
    bool pointersByValue_;
    std::optional<sycl::event> last_;
    // Modules by the address and size of their SPIR-V; every module built
    // stays until the stream goes (a blob rewritten in place builds another).
    std::unordered_map<const void *, SyclModule *> byAddress_;
    std::vector<std::unique_ptr<SyclModule>> modules_;
    // Events handed out since the last wait, and those a wait recycled
    // (oldest first); both keep their addresses until the stream goes.
    std::deque<std::unique_ptr<SyclEvent>> handedOut_, recycled_;
    // USM freed by the caller (or staged by fill) while work that may use it
    // was queued, each with the command it must wait for, oldest first.
    struct PendingFree {
        void *ptr;
        std::optional<sycl::event> after;
    };
    std::deque<PendingFree> pendingFrees_;
};

} // namespace imex_l0
