#include "signal.hpp"

#include "context.hpp"
#include "device.hpp"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <ctime>
#include <thread>

namespace ze_driver {

namespace {
struct CallbackData {
    std::shared_ptr<Signal> signal;
    uint64_t generation;
};

// Shared state words (Signal::shareState) are waited for with futexes, which
// work across processes on shared mappings (no FUTEX_PRIVATE_FLAG).
using Word = std::atomic<uint32_t>;
static_assert(sizeof(Word) == sizeof(uint32_t) && Word::is_always_lock_free, "a futex word");

void publish(Word &word, uint32_t value) {
    word.store(value, std::memory_order_release);
    if (value == 1)
        syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAKE, INT_MAX, nullptr,
                nullptr, 0);
}

// Sleeps while the word is 0, at most `ns`.
void sleepWhileUnset(Word &word, uint64_t ns) {
    timespec timeout{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
    syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), FUTEX_WAIT, 0u, &timeout, nullptr, 0);
}

// The driver thread that lets commands waiting for a shared word go once
// another process sets it (OpenCL cannot wait on memory). It polls every
// millisecond while something is watched and sleeps otherwise; a static
// object, so it is stopped and joined before the driver is unloaded.
class Watcher {
public:
    static Watcher &instance() {
        static Watcher watcher;
        return watcher;
    }
    void watch(std::shared_ptr<Word> word, std::weak_ptr<Signal> signal) {
        std::lock_guard<std::mutex> lock(mutex_);
        watched_.push_back({std::move(word), std::move(signal)});
        if (!thread_.joinable())
            thread_ = std::thread([this] { run(); });
        cv_.notify_one();
    }
    ~Watcher() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        cv_.notify_one();
        if (thread_.joinable())
            thread_.join();
    }

private:
    struct Entry {
        std::shared_ptr<Word> word;
        std::weak_ptr<Signal> signal;
    };
    void run() {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!stop_) {
            if (watched_.empty()) {
                cv_.wait(lock);
                continue;
            }
            std::vector<std::shared_ptr<Signal>> ready;
            auto gone = std::remove_if(watched_.begin(), watched_.end(), [&](const Entry &e) {
                std::shared_ptr<Signal> signal = e.signal.lock();
                if (signal == nullptr)
                    return true;
                if (e.word->load(std::memory_order_acquire) != 1)
                    return false;
                ready.push_back(std::move(signal));
                return true;
            });
            watched_.erase(gone, watched_.end());
            lock.unlock();
            for (auto &signal : ready)
                signal->set();
            ready.clear(); // the last reference to a signal may go here, unlocked
            lock.lock();
            cv_.wait_for(lock, std::chrono::milliseconds(1), [&] { return stop_; });
        }
    }

    std::mutex mutex_; // guards watched_ and stop_
    std::condition_variable cv_;
    std::vector<Entry> watched_;
    bool stop_ = false;
    std::thread thread_;
};
} // namespace

Signal::Signal(Context *context, bool timestamps)
    : context_(context->native().cl), timestamps_(timestamps) {
    clRetainContext(context_);
}

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
        watched_ = false;
        if (shared_ != nullptr)
            publish(*shared_, 1);
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
    if (shared_ != nullptr)
        publish(*shared_, 0);
    signaled_ = false;
    ++generation_;
    if (pending_ != nullptr) {
        clReleaseEvent(pending_);
        pending_ = nullptr;
    }
    // A user event, if any, stays: its waiters now wait for the next signal.
}

bool Signal::isSet() {
    bool here = isSetHere();
    if (shared_ == nullptr)
        return here;
    // Under the lock, as complete() and reset() write the word.
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (shared_->load(std::memory_order_acquire) == 1) {
            if (signaled_)
                return true;
        } else {
            if (signaled_) {
                // Reset by another process.
                signaled_ = false;
                ++generation_;
            }
            return false;
        }
    }
    set(); // set by another process
    return true;
}

// isSet() of this process's own view.
bool Signal::isSetHere() {
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
    if (shared_ != nullptr) {
        // The word is set from here or from another process: wait on it, in
        // slices, so a command completing here is noticed too.
        auto start = std::chrono::steady_clock::now();
        for (;;) {
            uint64_t waited = static_cast<uint64_t>(
                std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::steady_clock::now() - start)
                    .count());
            if (waited >= timeoutNs)
                return false;
            sleepWhileUnset(*shared_, std::min<uint64_t>(timeoutNs - waited, 10000000));
            if (isSet())
                return true;
        }
    }
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
    if (shared_ != nullptr && isSet()) // brings a change another process made here
        return nullptr;
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
    if (shared_ != nullptr && !watched_) {
        watched_ = true;
        Watcher::instance().watch(shared_, weak_from_this());
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

} // namespace ze_driver
