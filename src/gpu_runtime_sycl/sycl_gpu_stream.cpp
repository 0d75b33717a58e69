#include "gpu_runtime_sycl/sycl_gpu_stream.hpp"

#include "imex_gpu_abi.h"

#include <array>
#include <cstring>
#include <utility>

namespace syclex = sycl::ext::oneapi::experimental;

namespace imex_l0 {

namespace {

// A by-value kernel argument of N bytes: SYCL sets arguments by C++ type, so
// each size lowered code may pass (1 to 128 bytes) gets a type of its own.
template <size_t N> struct Bytes { unsigned char b[N]; };
using SetArg = void (*)(sycl::handler &, int, const void *);
template <size_t N> void setBytes(sycl::handler &h, int index, const void *value) {
    Bytes<N> bytes;
    std::memcpy(bytes.b, value, N);
    h.set_arg(index, bytes);
}
template <size_t... I>
constexpr std::array<SetArg, sizeof...(I)> setters(std::index_sequence<I...>) {
    return {&setBytes<I + 1>...};
}
constexpr size_t kMaxArgBytes = 128;
constexpr std::array<SetArg, kMaxArgBytes> kSetters =
    setters(std::make_index_sequence<kMaxArgBytes>{});

const ParamDesc *paramsEnd(const ParamDesc *p) {
    while (p && p->data)
        ++p;
    return p;
}

} // namespace

SyclGpuStream::SyclGpuStream(sycl::queue queue)
    : queue_(std::move(queue)), context_(queue_.get_context()), inOrder_(queue_.is_in_order()),
      pointersByValue_(queue_.get_backend() == sycl::backend::ext_oneapi_level_zero) {}

SyclGpuStream::~SyclGpuStream() {
    try {
        wait();
    } catch (...) {
        // The destructor's caller (gpuStreamDestroy) cannot report a failed
        // wait of work that was already reported when it failed.
    }
}

template <typename Cgf> sycl::event SyclGpuStream::submit(Cgf &&cgf) {
    sycl::event done = queue_.submit([&](sycl::handler &h) {
        if (!inOrder_ && last_)
            h.depends_on(*last_);
        cgf(h);
    });
    last_ = done;
    return done;
}

std::vector<sycl::event> SyclGpuStream::dependencies(const void *deps) {
    std::vector<sycl::event> events;
    for (auto *d = static_cast<const EventDesc *>(deps); d && d->event; ++d)
        events.push_back(validate<SyclEvent>(d->event, "depEvents entry")->event);
    return events;
}

SyclEvent *SyclGpuStream::handOut(sycl::event event) {
    std::unique_ptr<SyclEvent> slot;
    if (!recycled_.empty()) {
        slot = std::move(recycled_.front());
        recycled_.pop_front();
    } else {
        slot = std::make_unique<SyclEvent>();
    }
    slot->event = std::move(event);
    handedOut_.push_back(std::move(slot));
    return handedOut_.back().get();
}

void *SyclGpuStream::allocate(size_t size, size_t alignment, bool shared) {
    void *ptr = shared ? sycl::aligned_alloc_shared(alignment, size, queue_)
                       : sycl::aligned_alloc_device(alignment, size, queue_);
    if (!ptr)
        failInvalid("the device cannot allocate " + std::to_string(size) + " bytes");
    return ptr;
}

void SyclGpuStream::free(void *ptr) {
    if (sycl::get_pointer_type(ptr, context_) == sycl::usm::alloc::unknown)
        failInvalid("the pointer is not SYCL USM of the stream's context");
    freeAfterWork(ptr);
}

void SyclGpuStream::freeAfterWork(void *ptr) {
    pendingFrees_.push_back({ptr, last_});
    releaseFrees(false);
}

void SyclGpuStream::releaseFrees(bool everything) {
    while (!pendingFrees_.empty()) {
        const PendingFree &oldest = pendingFrees_.front();
        if (!everything && oldest.after &&
            oldest.after->get_info<sycl::info::event::command_execution_status>() !=
                sycl::info::event_command_status::complete)
            return;
        sycl::free(oldest.ptr, context_);
        pendingFrees_.pop_front();
    }
}

void SyclGpuStream::copy(void *dst, const void *src, size_t size) {
    submit([&](sycl::handler &h) { h.memcpy(dst, src, size); });
}

void SyclGpuStream::fill(void *dst, const void *pattern, size_t patternSize, size_t size) {
    if (patternSize == 0 || patternSize > kMaxArgBytes || (patternSize & (patternSize - 1)) ||
        size % patternSize)
        failInvalid("patternSize " + std::to_string(patternSize) +
                    " must be a power of two up to 128 that divides size " + std::to_string(size));
    if (size == 0)
        return;
    if (patternSize == 1) {
        int value = *static_cast<const unsigned char *>(pattern);
        submit([&](sycl::handler &h) { h.memset(dst, value, size); });
        return;
    }
    // SYCL fills USM of the Level Zero backend with a kernel of its own,
    // which exists only in programs compiled with -fsycl: the pattern is
    // copied once from host USM (so it outlives the call), then the filled
    // part doubles with each device copy.
    void *staged = sycl::malloc_host(patternSize, queue_);
    if (!staged)
        failInvalid("no host memory for the fill pattern");
    std::memcpy(staged, pattern, patternSize);
    copy(dst, staged, patternSize);
    freeAfterWork(staged);
    auto *bytes = static_cast<unsigned char *>(dst);
    for (size_t done = patternSize; done < size; done *= 2)
        copy(bytes + done, bytes, std::min(done, size - done));
}

SyclModule *SyclGpuStream::loadModule(const void *spirv, size_t size) {
    if (!spirv || size < 20)
        failInvalid("spirv is " + std::string(spirv ? "shorter than a SPIR-V header" : "NULL"));
    auto found = byAddress_.find(spirv);
    if (found != byAddress_.end() && found->second->bytes.size() == size &&
        std::memcmp(found->second->bytes.data(), spirv, size) == 0)
        return found->second;
    const auto *begin = static_cast<const char *>(spirv);
    std::vector<char> bytes(begin, begin + size);
    std::vector<std::byte> source(reinterpret_cast<const std::byte *>(begin),
                                  reinterpret_cast<const std::byte *>(begin) + size);
    std::string log;
    sycl::kernel_bundle<sycl::bundle_state::executable> bundle = [&] {
        try {
            auto input = syclex::create_kernel_bundle_from_source(
                context_, syclex::source_language::spirv, source);
            return syclex::build(input, {queue_.get_device()},
                                 syclex::properties{syclex::save_log{&log}});
        } catch (const sycl::exception &e) {
            failInvalid(std::string("the SPIR-V does not build: ") + e.what() +
                        (log.empty() ? "" : "; build log: " + log));
        }
    }();
    modules_.push_back(std::make_unique<SyclModule>(std::move(bytes), std::move(bundle)));
    byAddress_[spirv] = modules_.back().get();
    return modules_.back().get();
}

SyclKernel *SyclGpuStream::kernel(SyclModule *module, const char *name) {
    if (!name)
        failInvalid("name is NULL");
    auto found = module->kernels.find(name);
    if (found != module->kernels.end())
        return found->second.get();
    if (!module->bundle.ext_oneapi_has_kernel(name))
        failInvalid(std::string("the module has no kernel named '") + name + "'");
    auto made = std::make_unique<SyclKernel>(module->bundle.ext_oneapi_get_kernel(name));
    return module->kernels.emplace(name, std::move(made)).first->second.get();
}

SyclEvent *SyclGpuStream::launch(SyclKernel *kernel, const size_t grid[3], const size_t block[3],
                                 uint32_t sharedMemBytes, const void *params, const void *deps) {
    const auto *first = static_cast<const ParamDesc *>(params);
    const ParamDesc *end = paramsEnd(first);
    size_t count = size_t(end - first);
    if (count != kernel->argCount)
        failInvalid("the kernel takes " + std::to_string(kernel->argCount) +
                    " arguments, params has " + std::to_string(count));
    if (sharedMemBytes && count == 0)
        failInvalid("sharedMemBytes is not 0 but params has no entry for it");
    for (const ParamDesc *p = first; p != end; ++p) {
        bool local = sharedMemBytes && p + 1 == end;
        if (!local && (p->size == 0 || p->size > kMaxArgBytes))
            failInvalid("parameter " + std::to_string(p - first) + " has " +
                        std::to_string(p->size) + " bytes (1 to 128 are supported)");
    }
    std::vector<sycl::event> waitFor = dependencies(deps);
    // SYCL's dimension 0 varies slowest; the kernel's get_global_id(0) is the
    // fastest, so the Level Zero order x, y, z is reversed.
    sycl::nd_range<3> range({grid[2] * block[2], grid[1] * block[1], grid[0] * block[0]},
                            {block[2], block[1], block[0]});
    sycl::event done = submit([&](sycl::handler &h) {
        if (!waitFor.empty())
            h.depends_on(waitFor);
        for (const ParamDesc *p = first; p != end; ++p) {
            int index = int(p - first);
            if (sharedMemBytes && p + 1 == end) {
                h.set_arg(index, sycl::local_accessor<unsigned char, 1>(
                                     sycl::range<1>(sharedMemBytes), h));
                continue;
            }
            // A USM pointer is an argument of its own kind to backends other
            // than Level Zero (OpenCL's clSetKernelArgMemPointerINTEL).
            if (p->size == sizeof(void *) && !pointersByValue_) {
                void *value;
                std::memcpy(&value, p->data, sizeof value);
                if (sycl::get_pointer_type(value, context_) != sycl::usm::alloc::unknown) {
                    h.set_arg(index, value);
                    continue;
                }
            }
            kSetters[p->size - 1](h, index, p->data);
        }
        h.parallel_for(range, kernel->kernel);
    });
    return handOut(std::move(done));
}

SyclEvent *SyclGpuStream::record() {
    return handOut(last_ ? *last_ : sycl::event());
}

void SyclGpuStream::waitEvents(const void *deps) {
    std::vector<sycl::event> events = dependencies(deps);
    if (!events.empty())
        submit([&](sycl::handler &h) { h.ext_oneapi_barrier(events); });
}

void SyclGpuStream::wait() {
    if (last_)
        last_->wait_and_throw();
    releaseFrees(true);
    for (auto &e : handedOut_)
        recycled_.push_back(std::move(e));
    handedOut_.clear();
}

} // namespace imex_l0
