#include "signal.hpp"

#include "device.hpp"

#include <algorithm>
#include <chrono>

namespace ze_opencl {

namespace {
struct CallbackData {
    std::shared_ptr<Signal> signal;
    uint64_t generation;
};
} // namespace

Signal::~Signal() {
    if (pending_ != nullptr)
        clReleaseEvent(pending_);
    if (user_ != nullptr) {
        // Commands still waiting on a signal that will never come would block
        // their queue forever; let them run.
        clSetUserEventStatus(user_, CL_COMPLETE);
        clReleaseEvent(user_);
    }
    clReleaseContext(context_);
}

void Signal::set() {
    uint64_t now = deviceTimeNs();
    uint64_t generation;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        generation = generation_;
    }
    complete(generation, now, now);
}

// Sets the signal of `generation` with the given times. User-event completion
// and continuations run after the lock is released: either may call back into
// OpenCL, whose completion callbacks may come back here.
void Signal::complete(uint64_t generation, uint64_t start, uint64_t end) {
    // A waiter woken by this may destroy the event (and its reference to the
    // signal) before this function is done with it.
    std::shared_ptr<Signal> keepAlive = shared_from_this();
    cl_event user = nullptr;
    std::vector<std::function<void()>> continuations;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (generation != generation_ || signaled_)
            return;
        signaled_ = true;
        start_ = start;
        end_ = end;
        if (pending_ != nullptr) {
            clReleaseEvent(pending_);
            pending_ = nullptr;
        }
        std::swap(user, user_);
        continuations.swap(continuations_);
    }
    cv_.notify_all();
    if (user != nullptr) {
        clSetUserEventStatus(user, CL_COMPLETE);
        clReleaseEvent(user);
    }
    for (auto &fn : continuations)
        fn();
}

void Signal::reset() {
    std::lock_guard<std::mutex> lock(mutex_);
    signaled_ = false;
    ++generation_;
    if (pending_ != nullptr) {
        clReleaseEvent(pending_);
        pending_ = nullptr;
    }
    // A user event, if any, stays: its waiters now wait for the next signal.
}

bool Signal::isSet() {
    cl_event pending;
    uint64_t generation;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (signaled_ || pending_ == nullptr)
            return signaled_;
        pending = pending_;
        clRetainEvent(pending);
        generation = generation_;
    }
    cl_int status = CL_QUEUED;
    clGetEventInfo(pending, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
    if (status == CL_COMPLETE || status < 0)
        completeFrom(pending, status, generation);
    clReleaseEvent(pending);
    std::lock_guard<std::mutex> lock(mutex_);
    return signaled_;
}

bool Signal::waitFor(uint64_t timeoutNs) {
    if (isSet())
        return true;
    std::unique_lock<std::mutex> lock(mutex_);
    if (timeoutNs == UINT64_MAX) {
        cv_.wait(lock, [&] { return signaled_; });
        return true;
    }
    // Beyond a few centuries the deadline would overflow the clock; that is forever.
    auto timeout = std::chrono::nanoseconds(
        static_cast<int64_t>(std::min<uint64_t>(timeoutNs, uint64_t(1) << 62)));
    return cv_.wait_for(lock, timeout, [&] { return signaled_; });
}

void Signal::setBy(cl_event event) {
    uint64_t generation;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (signaled_)
            return; // signalling a signaled event changes nothing
        if (pending_ != nullptr)
            clReleaseEvent(pending_);
        clRetainEvent(event);
        pending_ = event;
        generation = generation_;
    }
    auto *data = new CallbackData{shared_from_this(), generation};
    cl_int err = clSetEventCallback(event, CL_COMPLETE, onComplete, data);
    if (err != CL_SUCCESS) {
        delete data;
        checkCl(err);
    }
}

void CL_CALLBACK Signal::onComplete(cl_event event, cl_int status, void *raw) {
    std::unique_ptr<CallbackData> data(static_cast<CallbackData *>(raw));
    data->signal->completeFrom(event, status, data->generation);
}

void Signal::completeFrom(cl_event event, cl_int status, uint64_t generation) {
    uint64_t start = 0, end = 0;
    cl_ulong a = 0, b = 0;
    if (timestamps_ && status == CL_COMPLETE &&
        clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof(a), &a, nullptr) ==
            CL_SUCCESS &&
        clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof(b), &b, nullptr) ==
            CL_SUCCESS) {
        start = a;
        end = b;
    } else {
        start = end = deviceTimeNs();
    }
    // A failed command still signals: L0 events have no error state, and
    // leaving it unsignaled would hang every waiter.
    complete(generation, start, end);
}

cl_event Signal::waitEvent() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (signaled_)
        return nullptr;
    if (pending_ != nullptr) {
        clRetainEvent(pending_);
        return pending_;
    }
    if (user_ == nullptr) {
        cl_int err = CL_SUCCESS;
        user_ = clCreateUserEvent(context_, &err);
        checkCl(err);
    }
    clRetainEvent(user_);
    return user_;
}

void Signal::whenSet(std::function<void()> fn) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!signaled_) {
            continuations_.push_back(std::move(fn));
            return;
        }
    }
    fn();
}

void Signal::timestamps(uint64_t *start, uint64_t *end) const {
    std::lock_guard<std::mutex> lock(mutex_);
    *start = start_;
    *end = end_;
}

} // namespace ze_opencl
