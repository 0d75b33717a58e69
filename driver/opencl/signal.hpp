// The two-state completion object behind events and fences: unsignaled or
// signaled, set by the host or by the completion of an OpenCL command, reset
// by the host, waited for with a timeout, and turned into a cl_event for
// OpenCL wait lists when a command has to wait for it.
#pragma once

#include "backend_native.hpp"

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace ze_driver {

class Context;

class Signal : public std::enable_shared_from_this<Signal> {
public:
    // User events for waiters are created in `context`'s OpenCL context;
    // `timestamps` makes completions record OpenCL profiling times. Retains
    // the OpenCL context: callbacks may outlive the L0 context.
    Signal(Context *context, bool timestamps);
    ~Signal();

    // Signals now; a no-op when already signaled (no implicit reset).
    void set();
    void reset();
    // Also asks OpenCL whether the attached command has completed, so the
    // answer never lags behind a completion callback that is still on its way.
    bool isSet();
    // Waits up to timeoutNs (0 polls, UINT64_MAX forever); true when signaled.
    bool waitFor(uint64_t timeoutNs);

    // The current signal comes from `event` (an enqueued command): the signal
    // is set when it completes, unless reset in between.
    void setBy(cl_event event);
    // For an OpenCL wait list: nullptr when already signaled, else a retained
    // cl_event that completes when the signal is set (the command's event when
    // one is attached, otherwise a user event completed by set()).
    cl_event waitEvent();
    // Runs `fn` once the signal is set (now, when already set). `fn` runs
    // without the signal's lock held, on the thread that sets the signal.
    void whenSet(std::function<void()> fn);

    // Profiling times of the command that set the signal, or the host time of a
    // host signal, in nanoseconds.
    void timestamps(uint64_t *start, uint64_t *end) const;

    // Makes `word`, in memory that other processes map too (IPC event
    // pools), the truth about the signal's state: 1 signaled, 0 not. Setting
    // and resetting here write it; what another process writes there is seen
    // by isSet and waitFor, and commands waiting for the signal are let go
    // when it turns to 1 (a driver thread watches the words waited for).
    // Called once, before the signal is used.
    void shareState(std::shared_ptr<std::atomic<uint32_t>> word) { shared_ = std::move(word); }

private:
    bool isSetHere();
    static void CL_CALLBACK onComplete(cl_event event, cl_int status, void *data);
    void complete(uint64_t generation, uint64_t start, uint64_t end);
    void completeFrom(cl_event event, cl_int status, uint64_t generation);

    const cl_context context_;
    const bool timestamps_;
    mutable std::mutex mutex_; // guards every member below
    std::condition_variable cv_;
    bool signaled_ = false;
    uint64_t generation_ = 0; // advanced by reset, so a late completion of an old signal is ignored
    cl_event pending_ = nullptr; // retained: the command that will set the current signal
    cl_event user_ = nullptr; // retained: completed by set() for commands waiting on a host signal
    std::vector<std::function<void()>> continuations_;
    uint64_t start_ = 0, end_ = 0;
    std::shared_ptr<std::atomic<uint32_t>> shared_; // see shareState; null for most signals
    bool watched_ = false; // the shared word is being watched for a waiting command
};

} // namespace ze_driver
