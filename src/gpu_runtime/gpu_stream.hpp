// What a gpu* stream pointer points at: an interop stream (owned, or the
// user's interop stream) on an engine, plus the events gpuLaunchKernel and
// gpuRecordEvent handed out since the last gpuWait, which that wait recycles
// for this stream's next launches, and the frees that wait for the work
// queued before them. A recycled event stays signaled until the stream hands
// it out again (it is reset then), so a dependency on it, made after the wait
// that saw its work complete, is met at once instead of waiting forever.
// A free on a stream with work queued since its last wait is deferred behind
// that work (deferred_frees.hpp).
#pragma once

#include "compute/kernel_cache.hpp"
#include "gpu_runtime/deferred_frees.hpp"
#include "gpu_runtime/module_address_cache.hpp"
#include "imex_gpu_runtime.h"
#include "stream/stream.hpp"

#include <memory>
#include <vector>

namespace imex_l0 {

class GpuStream : public Tagged<0x475055535452ull /* "GPUSTR" */> {
public:
    // Throw on failure; the result is fully built.
    static std::unique_ptr<GpuStream> temporary();
    static std::unique_ptr<GpuStream> onContext(ze_device_handle_t device,
                                                ze_context_handle_t context);
    static std::unique_ptr<GpuStream> fromUser(const imex_gpu_l0_stream_t &user);
    static std::unique_ptr<GpuStream> fromInterop(Stream *stream);
    // A library-owned immediate list on an engine the caller keeps alive
    // (the stream counts as the engine's child).
    static std::unique_ptr<GpuStream> onEngine(Engine *engine);
    ~GpuStream();
    // gpuStreamDestroy: waits for the stream's work, does the deferred frees
    // and gives the events back, reporting the first failure (the destructor
    // does the same and swallows failures).
    void close();

    void *alloc(size_t size, size_t alignment, bool shared);
    void free(void *ptr);
    void copy(void *dst, const void *src, size_t size);
    void fill(void *dst, const void *pattern, size_t patternSize, size_t size);
    // `event` (of the engine's context) is signaled once the work queued so far is done.
    void record(ze_event_handle_t event);
    // Work queued from now on starts after `event` is signaled.
    void waitFor(ze_event_handle_t event);
    // USM on an engine without a stream (alloc/free use these).
    static void *allocOn(Engine &engine, size_t size, size_t alignment, bool shared);
    static void freeOn(Engine &engine, void *ptr);
    Engine *engine() const { return stream_->engine(); }
    KernelCache::Module &load(const void *spirv, size_t size);
    KernelEntry &kernel(void *module, const char *name);
    // gpuLaunchKernel: returns the launch's completion event.
    ze_event_handle_t launch(void *kernel, const size_t grid[3], const size_t block[3],
                             uint32_t sharedMemBytes, const ParamDesc *params,
                             const EventDesc *deps);
    // mgpuLaunchKernel: arguments already checked against k's signature; no
    // event (MLIR's ABI returns none, so the launch signals nothing).
    void launchValues(KernelEntry &k, const size_t grid[3], const size_t block[3],
                      const ArgValue *values, size_t nvalues);
    // gpuRecordEvent: an event of this stream signaled once the work queued
    // so far is done (a token of an op other than a launch).
    ze_event_handle_t recordEvent();
    // gpuWaitEvents: work queued from now on starts after every event of the
    // NULL-terminated deps (NULL or empty: nothing).
    void waitEvents(const EventDesc *deps);
    void wait();

private:
    GpuStream() = default;
    // A stream of `kind` over `list` (the library's own list when NULL) on `engine`.
    static std::unique_ptr<GpuStream> build(Engine *engine, Stream::Kind kind,
                                            ze_command_list_handle_t list);
    // build() on an engine leased from the registry; the lease is returned
    // whether or not this succeeds.
    static std::unique_ptr<GpuStream> over(Engine *leased, Stream::Kind kind,
                                           ze_command_list_handle_t list);
    // Whether the list is the library's own, so every append goes through
    // this object and "nothing appended since the last wait" is known.
    bool ownsList() const;
    // The launch both ABIs share: checks the kernel's engine and the shape,
    // appends, signals a stream event when withEvent.
    ze_event_handle_t append(KernelEntry &k, const size_t grid[3], const size_t block[3],
                             const ArgValue *values, size_t nvalues, uint32_t ndeps,
                             ze_event_handle_t *waits, bool withEvent);
    // Records that a command was appended; `completion` is its completion
    // event when it signals one (a launch, or gpuRecordEvent's barrier).
    void appended(ze_event_handle_t completion) {
        busy_ = true;
        lastLaunchEvent_ = completion;
    }
    // Waits for everything on the list: on the library's own list through
    // the last launch's event when that launch is the last command, else with
    // waitEvent_ on immediate lists.
    void hostWait();
    // After a completed wait: the events handed out (all signaled) go to spare_.
    void recycleEvents();
    // An event to signal: a spare one, reset, or one from the engine's pool.
    ze_event_handle_t takeEvent();
    // Gives back an event takeEvent returned that was not appended: signaled
    // from the host, so that spare_ holds only signaled events.
    void untakeEvent(ze_event_handle_t event) noexcept;

    Engine *sharedEngine_ = nullptr; // from the registry; released on destroy
    std::unique_ptr<Stream> ownedStream_;
    Stream *stream_ = nullptr;
    std::vector<ze_event_handle_t> events_; // handed out since the last wait
    // Events of the engine's pool this stream keeps, signaled, for its next
    // launches, and the one its waits signal: a launch + wait cycle takes
    // neither the pool's lock nor its bookkeeping.
    std::vector<ze_event_handle_t> spare_;
    size_t spareNext_ = 0; // spare_[spareNext_..] are spare, oldest first
    ze_event_handle_t waitEvent_ = nullptr;
    DeferredFrees frees_;
    bool busy_ = false; // work appended since the last wait
    // The completion event of the last command appended, when that command
    // signals one (a launch or a recorded event, an entry of events_); null
    // otherwise.
    ze_event_handle_t lastLaunchEvent_ = nullptr;
    ModuleAddressCache modules_;
    // What kernel() returned last (a stream is used by one thread at a time).
    const KernelCache::Module *lastModule_ = nullptr;
    KernelEntry *lastKernel_ = nullptr;
};

} // namespace imex_l0
