#include "gpu_runtime/gpu_stream.hpp"

#include "common/small_buffer.hpp"
#include "gpu_runtime/engine_registry.hpp"
#include "gpu_runtime/runtime_allocations.hpp"
#include "memory/usm.hpp"

#include <cstdint>
#include <exception>
#include <string>
#include <utility>

namespace imex_l0 {

namespace {

// Engines from the registry come back to it however construction ends.
struct EngineLease {
    Engine *engine;
    ~EngineLease() {
        if (engine)
            releaseEngine(engine);
    }
    Engine *take() { return std::exchange(engine, nullptr); }
};

} // namespace

std::unique_ptr<GpuStream> GpuStream::build(Engine *engine, Stream::Kind kind,
                                            ze_command_list_handle_t list) {
    std::unique_ptr<GpuStream> gpu(new GpuStream);
    gpu->ownedStream_ = std::make_unique<Stream>(engine, kind, list, nullptr);
    gpu->ownedStream_->init();
    gpu->stream_ = gpu->ownedStream_.get();
    return gpu;
}

std::unique_ptr<GpuStream> GpuStream::over(Engine *leased, Stream::Kind kind,
                                           ze_command_list_handle_t list) {
    EngineLease lease{leased};
    std::unique_ptr<GpuStream> gpu = build(leased, kind, list);
    gpu->sharedEngine_ = lease.take();
    return gpu;
}

std::unique_ptr<GpuStream> GpuStream::temporary() {
    return over(acquireDefaultEngine(), Stream::Kind::ownedImmediate, nullptr);
}

std::unique_ptr<GpuStream> GpuStream::onContext(ze_device_handle_t device,
                                                ze_context_handle_t context) {
    return over(acquireEngine(device, context), Stream::Kind::ownedImmediate, nullptr);
}

std::unique_ptr<GpuStream> GpuStream::fromUser(const imex_gpu_l0_stream_t &user) {
    if (!user.list)
        failInvalid("user->list is NULL: pass the immediate command list to run on");
    if (!user.device || !user.context)
        failInvalid(std::string("user->") + (user.device ? "context" : "device") +
                    " is NULL: pass the device and context the list was created with");
    return over(acquireEngine(user.device, user.context), Stream::Kind::userImmediate, user.list);
}

std::unique_ptr<GpuStream> GpuStream::fromInterop(Stream *stream) {
    std::unique_ptr<GpuStream> gpu(new GpuStream);
    gpu->stream_ = stream;
    return gpu;
}

std::unique_ptr<GpuStream> GpuStream::onEngine(Engine *engine) {
    return build(engine, Stream::Kind::ownedImmediate, nullptr);
}

GpuStream::~GpuStream() {
    // After a failed close() (already reported by gpuStreamDestroy) one more
    // try; what still fails stays as close() leaves it.
    try {
        close();
    } catch (...) {
    }
    ownedStream_.reset();
    if (sharedEngine_)
        releaseEngine(sharedEngine_);
}

void GpuStream::close() {
    // Events may only go back to the pool, and pending frees happen, once the
    // work before them is done; a failed wait leaves the events to the
    // engine's destruction and the pending pointers allocated (freeing memory
    // that work may still use would be worse than keeping it).
    if (busy_ || !events_.empty() || !frees_.empty()) {
        hostWait();
        busy_ = false;
        frees_.releaseAll(*stream_);
        recycleEvents();
    }
    // Spare events are signaled: the pool takes them back reset. An event
    // that cannot be reset stays with the pool, which destroys it with the
    // engine; the first failure is reported after all were tried.
    ze_result_t failed = ZE_RESULT_SUCCESS;
    for (size_t i = spareNext_; i < spare_.size(); ++i) {
        ze_result_t r = zeEventHostReset(spare_[i]);
        if (r == ZE_RESULT_SUCCESS)
            engine()->events().giveBackReset(spare_[i]);
        else if (failed == ZE_RESULT_SUCCESS)
            failed = r;
    }
    spare_.clear();
    spareNext_ = 0;
    if (waitEvent_)
        engine()->events().giveBackReset(std::exchange(waitEvent_, nullptr));
    checkZe(failed, "zeEventHostReset");
}

void GpuStream::hostWait() {
    if (stream_->kind() == Stream::Kind::userRegular) {
        stream_->wait();
        return;
    }
    // The library's own list runs in submission order: when its last command
    // is a launch, that launch's completion event says everything is done,
    // and no barrier is needed (what lowered code's launch + wait costs).
    if (lastLaunchEvent_ && ownsList()) {
        IMEX_L0_ZE(zeEventHostSynchronize(lastLaunchEvent_, UINT64_MAX));
        return;
    }
    if (!waitEvent_)
        waitEvent_ = engine()->events().acquire();
    try {
        stream_->waitWith(waitEvent_);
        IMEX_L0_ZE(zeEventHostReset(waitEvent_));
    } catch (...) {
        // The barrier may still signal it: it stays with the engine's pool,
        // which destroys it, and the next wait takes another.
        waitEvent_ = nullptr;
        throw;
    }
}

void GpuStream::recycleEvents() {
    // After a completed wait every event handed out is signaled. Each stays
    // signaled in spare_ until takeEvent hands it out again: a dependency on
    // it made in the meantime (another stream consuming a token of this one
    // after this wait) is met, as the work it stands for is. Moving costs no
    // call: the reset is paid by the launch that reuses the event.
    spare_.erase(spare_.begin(), spare_.begin() + ptrdiff_t(spareNext_));
    spareNext_ = 0;
    spare_.insert(spare_.end(), events_.begin(), events_.end());
    events_.clear(); // keeps the capacity: steady-state launches allocate nothing
}

ze_event_handle_t GpuStream::takeEvent() {
    if (spareNext_ == spare_.size())
        return engine()->events().acquire();
    // The oldest spare first: the longer an event stays signaled after its
    // wait, the later a stale dependency on it can meet a newer launch.
    ze_event_handle_t event = spare_[spareNext_];
    IMEX_L0_ZE(zeEventHostReset(event));
    ++spareNext_;
    return event;
}

void GpuStream::untakeEvent(ze_event_handle_t event) noexcept {
    // An event that cannot be signaled stays with the pool, which destroys it
    // with the engine.
    if (zeEventHostSignal(event) != ZE_RESULT_SUCCESS)
        return;
    if (spareNext_ > 0)
        spare_[--spareNext_] = event; // the slot takeEvent took it from
    else
        spare_.push_back(event); // from the pool; the caller reserved room
}

bool GpuStream::ownsList() const {
    return ownedStream_ && ownedStream_->kind() == Stream::Kind::ownedImmediate;
}

void *GpuStream::allocOn(Engine &e, size_t size, size_t alignment, bool shared) {
    if (size == 0)
        failInvalid("size is 0");
    if (alignment & (alignment - 1))
        failInvalid("alignment " + std::to_string(alignment) + " is not a power of two");
    e.checkAllocationSize(size);
    void *ptr = nullptr;
    ze_device_mem_alloc_desc_t device = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    if (shared) {
        ze_host_mem_alloc_desc_t host = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        IMEX_L0_ZE(zeMemAllocShared(e.context(), &device, &host, size, alignment, e.device(), &ptr));
    } else {
        IMEX_L0_ZE(zeMemAllocDevice(e.context(), &device, size, alignment, e.device(), &ptr));
    }
    try {
        runtime_allocations::add(ptr);
    } catch (...) {
        zeMemFree(e.context(), ptr);
        throw;
    }
    return ptr;
}

void *GpuStream::alloc(size_t size, size_t alignment, bool shared) {
    return allocOn(*engine(), size, alignment, shared);
}

// The checks every free makes; true when ptr is to be freed (not NULL), and
// then no longer a live allocation of the wrappers.
static bool checkFree(Engine &e, void *ptr) {
    if (!ptr)
        return false;
    UsmAllocation usm = usmAllocation(e.context(), ptr);
    if (usm.type == ZE_MEMORY_TYPE_UNKNOWN)
        failInvalid("pointer is not USM of this stream's context (freed already, a host pointer, "
                    "or memory of another context)");
    if (usm.base != ptr)
        failInvalid("pointer points inside a USM allocation, not at its start");
    if (!runtime_allocations::remove(ptr))
        failInvalid("pointer was not allocated by gpuMemAlloc/mgpuMemAlloc (or was freed "
                    "already): memory the caller allocated itself stays the caller's to free "
                    "with zeMemFree");
    e.usmRanges().remove(ptr);
    return true;
}

void GpuStream::freeOn(Engine &e, void *ptr) {
    if (checkFree(e, ptr))
        IMEX_L0_ZE(zeMemFree(e.context(), ptr));
}

void GpuStream::free(void *ptr) {
    Engine *e = engine();
    if (ptr && frees_.contains(ptr))
        failInvalid("pointer was freed already (its free waits for the stream's work)");
    if (!checkFree(*e, ptr))
        return;
    if (busy_) {
        // Work queued before this free may still use the memory.
        if (frees_.add(*stream_, ptr, ownsList() ? lastLaunchEvent_ : nullptr))
            lastLaunchEvent_ = nullptr; // a barrier is the last command now
    } else
        IMEX_L0_ZE(zeMemFree(e->context(), ptr));
}

void GpuStream::copy(void *dst, const void *src, size_t size) {
    stream_->memcpy(dst, src, size, 0, nullptr, nullptr);
    appended(nullptr);
}

void GpuStream::fill(void *dst, const void *pattern, size_t patternSize, size_t size) {
    stream_->memset(dst, pattern, patternSize, size, 0, nullptr, nullptr);
    appended(nullptr);
}

void GpuStream::record(ze_event_handle_t event) {
    if (!event)
        failInvalid("event is NULL");
    // Recording again re-arms the event: Level Zero signals only reset events.
    if (zeEventQueryStatus(event) == ZE_RESULT_SUCCESS)
        IMEX_L0_ZE(zeEventHostReset(event));
    IMEX_L0_ZE(zeCommandListAppendBarrier(stream_->list(), event, 0, nullptr));
    appended(nullptr);
}

ze_event_handle_t GpuStream::recordEvent() {
    // On the library's own list, in submission order, the last launch's
    // event already says that everything queued so far is done.
    if (lastLaunchEvent_ && ownsList())
        return lastLaunchEvent_;
    if (events_.size() == events_.capacity())
        events_.reserve(2 * events_.size() + 8);
    if (spare_.size() == spare_.capacity())
        spare_.reserve(2 * spare_.size() + 8);
    ze_event_handle_t signal = takeEvent();
    ze_result_t r = zeCommandListAppendBarrier(stream_->list(), signal, 0, nullptr);
    if (r != ZE_RESULT_SUCCESS)
        untakeEvent(signal);
    checkZe(r, "zeCommandListAppendBarrier");
    events_.push_back(signal);
    appended(signal);
    return signal;
}

void GpuStream::waitEvents(const EventDesc *deps) {
    uint32_t ndeps = 0;
    if (deps)
        while (deps[ndeps].event)
            ++ndeps;
    if (ndeps == 0)
        return;
    auto *events = reinterpret_cast<ze_event_handle_t *>(const_cast<EventDesc *>(deps));
    stream_->checkDeps(ndeps, events);
    IMEX_L0_ZE(zeCommandListAppendWaitOnEvents(stream_->list(), ndeps, events));
    appended(nullptr);
}

void GpuStream::waitFor(ze_event_handle_t event) {
    if (!event)
        failInvalid("event is NULL");
    IMEX_L0_ZE(zeCommandListAppendBarrier(stream_->list(), nullptr, 1, &event));
    appended(nullptr);
}

KernelCache::Module &GpuStream::load(const void *spirv, size_t size) {
    if (!spirv || size == 0)
        failInvalid("spirv is NULL or size is 0");
    if (KernelCache::Module *m = modules_.find(spirv, size))
        return *m;
    KernelCache::Module &m = engine()->kernels().loadModule(spirv, size, nullptr);
    modules_.remember(spirv, size, &m);
    return m;
}

KernelEntry &GpuStream::kernel(void *module, const char *name) {
    if (!name)
        failInvalid("name is NULL");
    auto *m = validate<KernelCache::Module>(module, "module");
    // Lowered code asks for its kernel before every launch: the last answer
    // is kept, and checked by name, so the repeat takes neither the cache's
    // lock nor its map search. Modules and kernels live as long as the
    // engine, which outlives the stream.
    if (m == lastModule_ && lastKernel_->name == name)
        return *lastKernel_;
    KernelEntry &k = *engine()->kernels().kernelOf(*m, name);
    lastModule_ = m;
    lastKernel_ = &k;
    return k;
}

ze_event_handle_t GpuStream::launch(void *kernel, const size_t grid[3], const size_t block[3],
                                    uint32_t sharedMemBytes, const ParamDesc *params,
                                    const EventDesc *deps) {
    auto &k = *validate<KernelEntry>(kernel, "kernel");
    size_t nparams = 0;
    if (params)
        while (params[nparams].data || params[nparams].size)
            ++nparams;
    if (nparams != k.args.size())
        failInvalid("kernel '" + k.name + "' takes " + std::to_string(k.args.size()) +
                    " argument(s) but params holds " + std::to_string(nparams) +
                    (sharedMemBytes ? " (including the shared-memory slot)" : ""));
    // ParamDesc is {data, size}: what zeKernelSetArgumentValue takes, except
    // for the shared-memory slot, which becomes a local-memory argument.
    SmallBuffer<ArgValue> values(nparams);
    for (size_t i = 0; i < nparams; ++i) {
        bool sharedSlot = sharedMemBytes != 0 && i + 1 == nparams;
        values[i] = sharedSlot ? ArgValue{sharedMemBytes, nullptr}
                               : ArgValue{params[i].size, params[i].data};
        if (!sharedSlot && k.args[i].kind != imex_l0_arg_kind_local &&
            params[i].size != k.args[i].size)
            failInvalid("param " + std::to_string(i) + " of kernel '" + k.name + "' has size " +
                        std::to_string(params[i].size) + " but the kernel expects " +
                        std::to_string(k.args[i].size));
    }
    // EventDesc is {void *event}: the array is already a ze_event_handle_t list.
    uint32_t ndeps = 0;
    if (deps)
        while (deps[ndeps].event)
            ++ndeps;
    auto *waitList = reinterpret_cast<ze_event_handle_t *>(const_cast<EventDesc *>(deps));
    return append(k, grid, block, values.data(), nparams, ndeps, ndeps ? waitList : nullptr,
                  true);
}

void GpuStream::launchValues(KernelEntry &k, const size_t grid[3], const size_t block[3],
                             const ArgValue *values, size_t nvalues) {
    append(k, grid, block, values, nvalues, 0, nullptr, false);
}

ze_event_handle_t GpuStream::append(KernelEntry &k, const size_t grid[3], const size_t block[3],
                                    const ArgValue *values, size_t nvalues, uint32_t ndeps,
                                    ze_event_handle_t *waits, bool withEvent) {
    if (k.owner != &engine()->kernels())
        failInvalid("the kernel was loaded on another engine's stream: get it with gpuKernelGet "
                    "on a stream of this stream's device and context");
    uint32_t groupSize[3];
    for (int d = 0; d < 3; ++d) {
        if (grid[d] == 0 || grid[d] > UINT32_MAX || block[d] == 0 || block[d] > UINT32_MAX)
            failInvalid("grid and block sizes must be in 1..2^32-1 (dimension " +
                        std::to_string(d) + ": grid " + std::to_string(grid[d]) + ", block " +
                        std::to_string(block[d]) + ")");
        groupSize[d] = uint32_t(block[d]);
    }
    const ze_group_count_t count = {uint32_t(grid[0]), uint32_t(grid[1]), uint32_t(grid[2])};
    if (!withEvent) {
        k.append(stream_->list(), values, nvalues, groupSize, "block", count, nullptr, nullptr,
                 ndeps, waits);
        appended(nullptr);
        return nullptr;
    }
    // Recording the event below, or keeping it after a failed append, cannot
    // throw. (Growing only when full: reserve() itself costs a call per launch.)
    if (events_.size() == events_.capacity())
        events_.reserve(2 * events_.size() + 8);
    if (spare_.size() == spare_.capacity())
        spare_.reserve(2 * spare_.size() + 8);
    ze_event_handle_t signal = takeEvent();
    try {
        k.append(stream_->list(), values, nvalues, groupSize, "block", count, nullptr, signal,
                 ndeps, waits);
    } catch (...) {
        untakeEvent(signal);
        throw;
    }
    events_.push_back(signal);
    appended(signal);
    return signal;
}

void GpuStream::wait() {
    // Lowered code waits after every launch, and often twice in a row: with
    // nothing appended since the last wait on the library's own list there
    // is nothing to wait for. A user's list may hold work of its owner.
    if (!busy_ && ownsList())
        return;
    hostWait();
    busy_ = false;
    lastLaunchEvent_ = nullptr;
    frees_.releaseAll(*stream_);
    recycleEvents();
}

} // namespace imex_l0
