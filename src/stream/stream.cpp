#include "stream/stream.hpp"

#include "memory/usm.hpp"

#include <cstdint>
#include <exception>
#include <string>

namespace imex_l0 {

Stream::~Stream() {
    if (kind_ == Kind::ownedImmediate && list_)
        zeCommandListDestroy(list_);
}

void Stream::init() {
    if (kind_ != Kind::ownedImmediate) {
        if (!list_)
            failInvalid("list is NULL: pass a command list created on the engine's context");
        if (kind_ == Kind::userImmediate)
            checkListContext();
        return;
    }
    Engine *e = engine();
    // Asynchronous, so launches return at once; the driver's immediate lists
    // execute in submission order, which is the order users see.
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    nullptr,
                                    e->computeOrdinal(),
                                    0,
                                    0,
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    IMEX_L0_ZE(zeCommandListCreateImmediate(e->context(), e->device(), &desc, &list_));
}

void Stream::checkListContext() {
    // Level Zero 1.4 cannot tell a list's context. A wait on an event of the
    // engine's context that is already signaled (the engine's probe event) is
    // a no-op on a list of that context, and refused on a list of another
    // context or a destroyed one: the mistake shows here, not at the first
    // launch.
    ze_result_t r = zeCommandListAppendWaitOnEvents(list_, 1, &engine()->probeEvent());
    if (r == ZE_RESULT_ERROR_INVALID_ARGUMENT || r == ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
        failInvalid("list does not belong to the engine's context (or was destroyed): pass an "
                    "immediate command list created on the context the engine wraps");
    checkZe(r, "zeCommandListAppendWaitOnEvents");
}

void Stream::bake(ze_event_handle_t event) {
    baked_.reserve(baked_.size() + 1); // before baking: nothing to undo
    engine()->poolOf(event).bake(event);
    baked_.push_back(event);
}

void Stream::listReset() {
    if (kind_ != Kind::userRegular)
        failInvalid("the stream is not over a regular list: only a regular list keeps the events "
                    "its commands signal");
    std::vector<ze_event_handle_t> events;
    events.swap(baked_);
    std::exception_ptr failure;
    for (ze_event_handle_t e : events) {
        try {
            engine()->poolOf(e).unbake(&e, 1);
        } catch (...) {
            if (!failure)
                failure = std::current_exception();
        }
    }
    if (failure)
        std::rethrow_exception(failure);
}

void Stream::checkDeps(size_t ndeps, const ze_event_handle_t *deps) const {
    if (ndeps == 0)
        return;
    if (!deps)
        failInvalid("deps is NULL but ndeps is " + std::to_string(ndeps));
    if (ndeps > UINT32_MAX)
        failInvalid("ndeps is larger than Level Zero's 32-bit wait-list count");
    for (size_t i = 0; i < ndeps; ++i) {
        if (!deps[i])
            failInvalid("deps[" + std::to_string(i) + "] is NULL: every dependency must be an event");
        EventPool::checkDependency(deps[i], engine()->context(), i);
    }
}

void Stream::checkExtent(const void *ptr, size_t size, const char *what) const {
    // Nothing has SIZE_MAX bytes: a range that wraps around the address space
    // is a caller's error whatever memory ptr is.
    if (size > UINTPTR_MAX - reinterpret_cast<uintptr_t>(ptr))
        failInvalid("size " + std::to_string(size) + " from " + what +
                    " runs past the end of the address space");
    // USM of the engine's context has a known extent; a copy beyond it would
    // read or write other memory (plain host memory cannot be checked).
    UsmAllocation usm = usmAllocation(engine()->context(), ptr);
    if (usm.type != ZE_MEMORY_TYPE_UNKNOWN && size > usm.bytesFrom(ptr))
        failInvalid("size " + std::to_string(size) + " exceeds the USM allocation of " + what +
                    ": only " + std::to_string(usm.bytesFrom(ptr)) +
                    " bytes lie between it and the end of its allocation");
}

ze_event_handle_t Stream::signalEvent(ze_event_handle_t *returnEvent) {
    if (!returnEvent)
        return nullptr;
    return profiling_ ? engine()->timestampEvents().acquire() : engine()->events().acquire();
}

void Stream::checkCallerSignal(ze_event_handle_t signal, ze_event_handle_t *returnEvent) {
    if (!signal)
        return;
    if (returnEvent)
        failInvalid("signal_event and return_event were both given: a submission signals the "
                    "caller's event or returns one of the library's, not both");
    if (EventPool::poolOf(signal))
        failInvalid("signal_event is an event the library handed out: pass an event of your own "
                    "pool (the library's come back through return_event)");
}

void Stream::dropEvent(ze_event_handle_t event) noexcept {
    if (!event)
        return;
    try {
        engine()->releaseEvent(event);
    } catch (...) {
        // The event stays owned by the pool and is destroyed with the engine.
    }
}

void Stream::memcpy(void *dst, const void *src, size_t size, size_t ndeps,
                    const ze_event_handle_t *deps, ze_event_handle_t *returnEvent,
                    ze_event_handle_t callerSignal) {
    if (!dst || !src)
        failInvalid(std::string(dst ? "src" : "dst") + " is NULL");
    checkExtent(dst, size, "dst");
    checkExtent(src, size, "src");
    checkDeps(ndeps, deps);
    checkCallerSignal(callerSignal, returnEvent);
    ze_event_handle_t signal = callerSignal ? callerSignal : signalEvent(returnEvent);
    ze_result_t r = zeCommandListAppendMemoryCopy(list_, dst, src, size, signal,
                                                  static_cast<uint32_t>(ndeps),
                                                  const_cast<ze_event_handle_t *>(deps));
    if (r != ZE_RESULT_SUCCESS && !callerSignal)
        dropEvent(signal);
    checkZe(r, "zeCommandListAppendMemoryCopy");
    if (returnEvent) {
        signaled(signal, "memcpy");
        *returnEvent = signal;
    }
}

void Stream::memset(void *dst, const void *pattern, size_t patternSize, size_t size,
                    size_t ndeps, const ze_event_handle_t *deps, ze_event_handle_t *returnEvent) {
    if (!dst || !pattern)
        failInvalid(std::string(dst ? "pattern" : "dst") + " is NULL");
    if (patternSize == 0 || (patternSize & (patternSize - 1)) != 0)
        failInvalid("pattern_size " + std::to_string(patternSize) + " is not a power of two");
    if (size % patternSize != 0)
        failInvalid("size " + std::to_string(size) + " is not a multiple of pattern_size " +
                    std::to_string(patternSize));
    checkExtent(dst, size, "dst");
    checkDeps(ndeps, deps);
    ze_event_handle_t signal = signalEvent(returnEvent);
    ze_result_t r = zeCommandListAppendMemoryFill(list_, dst, pattern, patternSize, size, signal,
                                                  static_cast<uint32_t>(ndeps),
                                                  const_cast<ze_event_handle_t *>(deps));
    if (r != ZE_RESULT_SUCCESS)
        dropEvent(signal);
    checkZe(r, "zeCommandListAppendMemoryFill");
    if (returnEvent) {
        signaled(signal, "memset");
        *returnEvent = signal;
    }
}

namespace {

void timedOut(uint64_t timeoutNs, const char *what) {
    fail(imex_l0_timeout, "the work on the stream did not complete within " +
                              std::to_string(timeoutNs) + " ns (" + what +
                              "); it stays queued: wait again, or find the dependency that is "
                              "never signaled");
}

} // namespace

void Stream::checkWaited(ze_result_t r, const char *call) const {
    if (r == ZE_RESULT_ERROR_DEVICE_LOST)
        fail(imex_l0_device_lost,
             std::string(call) +
                 " failed: ZE_RESULT_ERROR_DEVICE_LOST: a kernel faulted (an illegal address, a "
                 "trap) and the device runs nothing more in this process; the last kernel "
                 "launched on this stream was " +
                 (lastKernel_ ? "'" + *lastKernel_ + "'" : "none (the fault was another stream's)"));
    checkZe(r, call);
}

void Stream::wait(uint64_t timeoutNs) {
    if (kind_ == Kind::userRegular) {
        if (!queue_)
            failInvalid("the stream wraps a regular list without a queue: its owner closes and "
                        "executes the list, so wait on the owner's queue or fence instead");
        if (!executing_) {
            // An immediate list passed as a regular one shows here, as a list
            // that cannot be closed or executed.
            auto notRegular = [](const char *call, ze_result_t r) {
                if (r == ZE_RESULT_ERROR_INVALID_ARGUMENT ||
                    r == ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
                    failInvalid(std::string(call) + " refused the stream's list (" +
                                zeResultName(r) +
                                "): is it an immediate list? Only a regular list can be "
                                "executed on a queue; wrap an immediate one with "
                                "imex_l0_interop_stream_create");
                checkZe(r, call);
            };
            notRegular("zeCommandListClose", zeCommandListClose(list_));
            notRegular("zeCommandQueueExecuteCommandLists",
                       zeCommandQueueExecuteCommandLists(queue_, 1, &list_, nullptr));
            executing_ = true;
        }
        ze_result_t r = zeCommandQueueSynchronize(queue_, timeoutNs);
        if (r == ZE_RESULT_NOT_READY)
            timedOut(timeoutNs, "the queue is still executing the list");
        checkWaited(r, "zeCommandQueueSynchronize");
        executing_ = false;
        IMEX_L0_ZE(zeCommandListReset(list_));
        listReset();
        return;
    }
    // A barrier without wait events completes after everything appended
    // before it; its event is what the host waits on.
    ze_event_handle_t done = engine()->events().acquire();
    ze_result_t r = zeCommandListAppendBarrier(list_, done, 0, nullptr);
    if (r != ZE_RESULT_SUCCESS) {
        dropEvent(done);
        checkZe(r, "zeCommandListAppendBarrier");
    }
    // If the wait fails the barrier may still signal the event later, so it
    // does not go back to the pool; the engine destroys it. After a timeout
    // the pool keeps it until the barrier has signaled it.
    r = zeEventHostSynchronize(done, timeoutNs);
    if (r == ZE_RESULT_NOT_READY) {
        engine()->events().release(done);
        timedOut(timeoutNs, kind_ == Kind::userImmediate
                                ? "if the list is a regular one, its commands run only when it is "
                                  "executed: wrap it with imex_l0_interop_stream_create_regular"
                                : "a dependency not signaled yet");
    }
    checkWaited(r, "zeEventHostSynchronize");
    engine()->events().release(done);
}

void Stream::waitWith(ze_event_handle_t done) {
    IMEX_L0_ZE(zeCommandListAppendBarrier(list_, done, 0, nullptr));
    checkWaited(zeEventHostSynchronize(done, UINT64_MAX), "zeEventHostSynchronize");
}

} // namespace imex_l0
