#include "signal.hpp"

#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "host_pages.hpp"

#include <chrono>
#include <list>
#include <map>
#include <optional>
#include <thread>
#include <vector>

#include <sys/prctl.h>

namespace ze_driver {

namespace {

// The words of all signals: pinned host memory mapped for every device,
// taken in blocks and handed out one word at a time. Blocks are kept until
// the process ends (a word may still be written by a stream after its
// signal is gone).
class Words {
public:
    static Words &instance() {
        static Words *words = new Words; // never destroyed: see above
        return *words;
    }
    // A word and its device address. CUDA is called only for a new block,
    // never while a word is handed out: a CUDA call under this lock, which
    // every new signal takes, made every thread that creates one wait for
    // CUDA's own locks (signals are made at each execution of a queue).
    uint32_t *take(ze_cuda::CUdeviceptr *device) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (free_.empty()) {
            void *block = nullptr;
            checkCuda(cuda().cuMemHostAlloc(&block, kBlockWords * sizeof(uint32_t),
                                            ze_cuda::CU_MEMHOSTALLOC_PORTABLE |
                                                ze_cuda::CU_MEMHOSTALLOC_DEVICEMAP));
            ze_cuda::CUdeviceptr mapped = 0;
            checkCuda(cuda().cuMemHostGetDevicePointer(&mapped, block, 0));
            auto *words = static_cast<uint32_t *>(block);
            for (size_t i = 0; i < kBlockWords; ++i)
                free_.push_back({words + i, mapped + i * sizeof(uint32_t)});
        }
        Word word = free_.back();
        free_.pop_back();
        *device = word.device;
        return word.host;
    }
    void give(uint32_t *host, ze_cuda::CUdeviceptr device) {
        std::lock_guard<std::mutex> lock(mutex_);
        free_.push_back({host, device});
    }
    // A word a stream is still to write `value` to: handed out again once
    // it holds that value. Another signal taking it before would see the
    // late write take its count back, losing a set (or a reset).
    void retire(uint32_t *host, ze_cuda::CUdeviceptr device, uint32_t value) {
        std::lock_guard<std::mutex> lock(mutex_);
        retired_.push_back({{host, device}, value});
        // The landed ones go back now: the list stays as short as the writes
        // in flight.
        for (auto it = retired_.begin(); it != retired_.end();) {
            if (static_cast<int32_t>(__atomic_load_n(it->first.host, __ATOMIC_ACQUIRE) -
                                     it->second) >= 0) {
                free_.push_back(it->first);
                it = retired_.erase(it);
            } else {
                ++it;
            }
        }
    }

private:
    static constexpr size_t kBlockWords = 4096;
    struct Word {
        uint32_t *host;
        ze_cuda::CUdeviceptr device;
    };
    std::mutex mutex_; // guards free_ and retired_
    std::vector<Word> free_;
    std::list<std::pair<Word, uint32_t>> retired_;
};

// The pages of shared words (memory files of event pools, mapped by the
// driver), registered with CUDA for every device while a signal uses a word
// of theirs.
class SharedPages {
public:
    static SharedPages &instance() {
        static SharedPages *pages = new SharedPages; // outlives every signal
        return *pages;
    }
    // The device address of `word`, its page registered.
    ze_cuda::CUdeviceptr take(void *word) {
        std::lock_guard<std::mutex> lock(mutex_);
        uintptr_t page = pageOf(word);
        Page &p = pages_[page];
        if (p.users == 0) {
            ze_cuda::CUresult r = cuda().cuMemHostRegister(
                reinterpret_cast<void *>(page), host_pages::pageSize(),
                ze_cuda::CU_MEMHOSTREGISTER_PORTABLE | ze_cuda::CU_MEMHOSTREGISTER_DEVICEMAP);
            if (r == ze_cuda::CUDA_SUCCESS)
                r = cuda().cuMemHostGetDevicePointer(&p.device, reinterpret_cast<void *>(page), 0);
            if (r != ze_cuda::CUDA_SUCCESS) {
                pages_.erase(page);
                checkCuda(r);
            }
        }
        ++p.users;
        return p.device + (reinterpret_cast<uintptr_t>(word) - page);
    }
    void give(void *word) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = pages_.find(pageOf(word));
        if (it == pages_.end() || --it->second.users > 0)
            return;
        cuda().cuMemHostUnregister(reinterpret_cast<void *>(it->first));
        pages_.erase(it);
    }

private:
    static uintptr_t pageOf(void *word) {
        return reinterpret_cast<uintptr_t>(word) / host_pages::pageSize() * host_pages::pageSize();
    }
    struct Page {
        unsigned users = 0;
        ze_cuda::CUdeviceptr device = 0;
    };
    std::mutex mutex_; // guards pages_
    std::map<uintptr_t, Page> pages_;
};

// Whether a word holding `value` has reached `target`: counts wrap, so the
// difference decides (as cuStreamWaitValue32's "greater or equal" does).
bool reached(uint32_t value, uint32_t target) {
    return static_cast<int32_t>(value - target) >= 0;
}

} // namespace

bool Signal::Landing::seen() const {
    return word != nullptr && reached(__atomic_load_n(word, __ATOMIC_ACQUIRE), value);
}

Signal::Signal(Context *context, bool timestamps) : timed_(timestamps) {
    // Allocating pinned memory needs a current context of the driver.
    makeCurrent(context->driver()->devices().front().get());
    word_ = Words::instance().take(&device_);
    // A word's count only grows, also from one signal to the next that gets
    // it: a late write meant for the signal before is below every target of
    // this one.
    target_.store(*word_ + 1);
}

Signal::~Signal() {
    if (shared_ != nullptr) {
        // The word is the pool's in every process: it keeps its state.
        SharedPages::instance().give(shared_.get());
    } else if (uint32_t written = written_.load(std::memory_order_acquire);
               writer_.load(std::memory_order_acquire) != nullptr && !reached(*word_, written)) {
        // A stream is still to write it (whose write also lets go a stream
        // waiting for it): not another signal's before then.
        Words::instance().retire(const_cast<uint32_t *>(word_), device_, written);
    } else {
        // A stream still waiting for this signal would wait forever: let it go.
        __atomic_store_n(word_, target_.load() + 1, __ATOMIC_RELEASE);
        Words::instance().give(const_cast<uint32_t *>(word_), device_);
    }
    // CUDA destroys an event still to be recorded once it has been.
    for (ze_cuda::CUevent e : {startEvent_, endEvent_})
        if (e != nullptr)
            cuda().cuEventDestroy(e);
}

void Signal::shareState(std::shared_ptr<std::atomic<uint32_t>> word) {
    ze_cuda::CUdeviceptr device = SharedPages::instance().take(word.get());
    Words::instance().give(const_cast<uint32_t *>(word_), device_); // unused: no command had it yet
    word_ = reinterpret_cast<volatile uint32_t *>(word.get());
    device_ = device;
    target_.store(1, std::memory_order_release);
    shared_ = std::move(word);
}

void Signal::recordStart(Device *device, ze_cuda::CUstream stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (eventsDevice_ == nullptr) {
        checkCuda(cuda().cuEventCreate(&startEvent_, 0));
        checkCuda(cuda().cuEventCreate(&endEvent_, 0));
        eventsDevice_ = device;
    }
    // Events of another device cannot be recorded here: that work's times
    // are when the host sees the signal set.
    recorded_ = started_ = false;
    if (eventsDevice_ != device)
        return;
    reference_ = device->native().clock.current();
    checkCuda(cuda().cuEventRecord(startEvent_, stream));
    started_ = true;
}

void Signal::recordEnd(ze_cuda::CUstream stream) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!started_)
        return;
    checkCuda(cuda().cuEventRecord(endEvent_, stream));
    started_ = false;
    recorded_ = true;
}

bool Signal::observe() {
    uint32_t target = target_.load(std::memory_order_acquire);
    if (!reached(__atomic_load_n(word_, __ATOMIC_ACQUIRE), target))
        return false;
    // Only a timed signal keeps when the host first saw it (the times of
    // work nothing recorded): the others need neither the lock nor the clock,
    // whose read is a system call on some machines.
    if (!timed_)
        return true;
    std::lock_guard<std::mutex> lock(mutex_);
    if (!seen_ && target == target_.load(std::memory_order_acquire)) {
        seen_ = true;
        start_ = end_ = deviceTimeNs();
    }
    return true;
}

void Signal::set() {
    uint64_t now = timed_ ? deviceTimeNs() : 0;
    std::lock_guard<std::mutex> lock(mutex_);
    uint32_t target = target_.load(std::memory_order_acquire);
    if (reached(*word_, target))
        return; // signalling a signaled event changes nothing
    __atomic_store_n(word_, target, __ATOMIC_RELEASE);
    seen_ = true;
    recorded_ = false;
    start_ = end_ = now;
}

void Signal::reset() {
    std::lock_guard<std::mutex> lock(mutex_);
    uint32_t target = target_.load(std::memory_order_acquire);
    if (!reached(*word_, target))
        return; // not signaled: nothing to undo
    if (shared_ != nullptr)
        __atomic_store_n(word_, 0u, __ATOMIC_RELEASE); // the target stays 1
    else
        target_.store(target + 1, std::memory_order_release);
    seen_ = false;
    recorded_ = false;
}

void Signal::checkWriter() {
    Device *writer = writer_.load(std::memory_order_acquire);
    if (writer != nullptr && lost(writer))
        fail(ZE_RESULT_ERROR_DEVICE_LOST);
}

bool Signal::isSet() {
    if (observe())
        return true;
    checkWriter();
    return false;
}

namespace {

// A sleep lasts at least the thread's timer slack (50 us by default), which
// would make a wait return tens of microseconds after its work ended: while
// a wait sleeps, its thread's slack is 1 us, and it is given back after.
class FineSleeps {
public:
    FineSleeps() : previous_(prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0)) {
        prctl(PR_SET_TIMERSLACK, 1000UL, 0, 0, 0);
    }
    ~FineSleeps() {
        if (previous_ > 0)
            prctl(PR_SET_TIMERSLACK, static_cast<unsigned long>(previous_), 0, 0, 0);
    }
    FineSleeps(const FineSleeps &) = delete;
    FineSleeps &operator=(const FineSleeps &) = delete;

private:
    int previous_;
};

} // namespace

bool Signal::waitFor(uint64_t timeoutNs) {
    if (observe())
        return true;
    // The device's write wakes no one, so the host polls: spinning, then
    // yielding the processor for the first 200 us, then sleeping 10 us (with
    // a fine timer slack), and 100 us after 10 ms.
    constexpr uint64_t kYieldNs = 200'000, kShortSleepsNs = 10'000'000;
    std::optional<FineSleeps> fine;
    auto start = std::chrono::steady_clock::now();
    for (unsigned round = 0;; ++round) {
        auto waited = static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                                std::chrono::steady_clock::now() - start)
                                                .count());
        if (waited >= timeoutNs)
            return false;
        if (waited >= kYieldNs) {
            if (!fine)
                fine.emplace();
            std::this_thread::sleep_for(
                std::chrono::microseconds(waited < kShortSleepsNs ? 10 : 100));
        } else if (round >= 64) {
            std::this_thread::yield();
        }
        if (observe())
            return true;
        checkWriter();
    }
}

// Called once the signal is set: the end event was recorded before the
// word was written, so both events have completed.
void Signal::timestamps(uint64_t *start, uint64_t *end) const {
    std::lock_guard<std::mutex> lock(mutex_);
    *start = start_;
    *end = end_;
    if (recorded_) {
        makeCurrent(eventsDevice_);
        *start = EventClock::timeOf(*reference_, startEvent_);
        *end = EventClock::timeOf(*reference_, endEvent_);
    }
}

} // namespace ze_driver
