// The CUDA backend's Signal (../core/backend.hpp): the two-state completion
// object behind events and fences, as a word of pinned host memory mapped
// for the devices. A command sets it with cuStreamWriteValue32 after its
// work, a stream waits for it with cuStreamWaitValue32, and the host sets,
// resets and reads it directly.
//
// The word holds a count: the signal is set when the word has reached the
// current target, and a reset moves the target one further, so that a write
// for an earlier target (a command enqueued before the reset) does not set
// it again, and a stream waiting for an earlier target is let go by any
// later set (waits are "greater or equal", wrap-safe). A word's count keeps
// growing when a later signal gets the word. Host waits poll the word (the
// device's writes wake no host thread), and while they poll they ask whether
// the device that is to write it was lost (device_loss.cpp): then the word
// will never be written, and the wait fails with ZE_RESULT_ERROR_DEVICE_LOST.
//
// A signal of an event pool shared between processes (ZE_EVENT_POOL_FLAG_IPC,
// ../core/event_ipc.hpp) takes the pool's word in a memory file instead,
// registered with CUDA for the devices: there the word is 1 when set and 0
// when not, as every process of the pool reads it (a count's target would be
// one process's own).
//
// A signal of a timestamp pool reports the times of the work that set it,
// from CUDA events the queue records around that work (event_clock.hpp);
// one set by the host, or by a command without work, reports when it was
// set or first seen set.
#pragma once

#include "backend_native.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

namespace ze_driver {

class Context;
class Device;

class Signal : public std::enable_shared_from_this<Signal> {
public:
    // `timestamps`: the pool's events report the times of their work.
    Signal(Context *context, bool timestamps);
    ~Signal();
    Signal(const Signal &) = delete;
    Signal &operator=(const Signal &) = delete;

    // Signals now; a no-op when already signaled.
    void set();
    void reset();
    // Whether signaled; not signaled and its writer lost fails with
    // ZE_RESULT_ERROR_DEVICE_LOST.
    bool isSet();
    // Waits up to timeoutNs (0 polls, UINT64_MAX forever); true when signaled,
    // ZE_RESULT_ERROR_DEVICE_LOST thrown once its writer is lost.
    bool waitFor(uint64_t timeoutNs);
    void timestamps(uint64_t *start, uint64_t *end) const;
    // Takes `word`, in a memory file other processes map, as the state,
    // before any command uses the signal.
    void shareState(std::shared_ptr<std::atomic<uint32_t>> word);

    // For the Queue: the word's device address and the value that sets the
    // signal now (a command's write), or that a wait must see.
    ze_cuda::CUdeviceptr deviceWord() const { return device_; }
    uint32_t target() const { return target_.load(std::memory_order_acquire); }
    // A stream of `device` is to write the word with target() (the last such
    // device is the one whose loss the waits watch; the word is not handed
    // to another signal before that write landed, see ~Signal).
    void writtenBy(Device *device) {
        writer_.store(device, std::memory_order_release);
        written_.store(target(), std::memory_order_release);
    }
    // Where a write of target() can be seen to have landed: the word and the
    // count, or no word for a signal shared between processes, whose word a
    // reset takes back to 0. Words are never freed and their counts only
    // grow, so a landing stays seen after its signal is gone.
    struct Landing {
        const volatile uint32_t *word = nullptr;
        uint32_t value = 0;
        bool seen() const; // false without a word
    };
    Landing landing() const { return shared_ != nullptr ? Landing{} : Landing{word_, target()}; }
    // Whether the queue should time the work that sets this signal, and the
    // recording of its start and end on the stream (with the device's
    // context current) before and after the work.
    bool timed() const { return timed_; }
    void recordStart(Device *device, ze_cuda::CUstream stream);
    void recordEnd(ze_cuda::CUstream stream);

private:
    // Whether the word has reached the target; the first time it has, the
    // time is recorded.
    bool observe();
    // Fails with ZE_RESULT_ERROR_DEVICE_LOST when the writer was lost.
    void checkWriter();

    volatile uint32_t *word_ = nullptr; // in pinned, device-mapped host memory
    ze_cuda::CUdeviceptr device_ = 0;
    std::shared_ptr<std::atomic<uint32_t>> shared_; // see shareState; null for most signals
    std::atomic<uint32_t> target_{1};
    std::atomic<Device *> writer_{nullptr};
    std::atomic<uint32_t> written_{0}; // the last target a stream is to write (if writer_)
    mutable std::mutex mutex_; // guards what follows
    bool seen_ = false;        // the host has seen this target reached (timed signals)
    uint64_t start_ = 0, end_ = 0;
    const bool timed_;
    // The work's start and end (made on the first device that times it),
    // whether the start is recorded and the end still to come, and whether
    // they time the current target.
    Device *eventsDevice_ = nullptr;
    ze_cuda::CUevent startEvent_ = nullptr, endEvent_ = nullptr;
    std::shared_ptr<const EventClock::Reference> reference_;
    bool started_ = false;
    bool recorded_ = false;
};

} // namespace ze_driver
