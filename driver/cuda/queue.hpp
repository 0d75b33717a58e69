// The CUDA backend's Queue (../core/backend.hpp): a CUDA stream of a device,
// onto which commands become stream work (queue.cpp): waits as
// cuStreamWaitValue32 on the events' words, the work (copies, fills,
// kernels), then the signal's word written with cuStreamWriteValue32, on the
// stream or, while the device is behind, by a second stream that waits for
// that work (signalAfterWork says why).
#pragma once

#include "backend_native.hpp"
#include "command.hpp"
#include "signal.hpp"

#include <functional>
#include <optional>
#include <vector>

namespace ze_driver {

class Context;
class Device;
class Event;
class Kernel;
class Signal;
struct KernelLaunch;

class Queue {
public:
    Queue(Context *context, Device *device);
    // Without waiting: CUDA releases the stream once its work is done.
    ~Queue();
    Queue(const Queue &) = delete;
    Queue &operator=(const Queue &) = delete;

    void enqueue(const Command &command);
    // A launch with the kernel's current arguments, without a Command: what
    // immediate lists launch with.
    void launch(Kernel *kernel, const ze_group_count_t &groups, Event *signal,
                const std::vector<Event *> &waits);
    // Work is submitted as it is enqueued.
    void flush() {}
    void finish();
    void signalWhenDone(Signal &signal, Signal *also);

private:
    // Makes `stream` wait for each event of `waits` not set yet.
    void wait(ze_cuda::CUstream stream, const std::vector<Event *> &waits);
    // Sets `signal` once `stream` gets there.
    void write(ze_cuda::CUstream stream, Signal &signal);
    // Sets `signal` once the work enqueued on stream_ so far is done, without
    // holding stream_ up (queue.cpp).
    void signalAfterWork(Signal &signal);
    // Where a copy's memory is, for how it is copied (queue.cpp).
    enum class Memory { Pageable, Pinned, Device };
    static Memory memoryOf(const void *pointer);
    // `bytes` from src to dst in stream order, never blocking the caller.
    void copy(void *dst, const void *src, size_t bytes, Memory dstMemory, Memory srcMemory);
    void fill(const Command &c);
    // A CopyRegion command (one pitched CUDA copy where it can be); an image
    // command as the CopyRegion of its pixels (image.cpp keeps them in device
    // memory).
    void copyRegion(const Command &c);
    void copyImage(const Command &c);
    // The queue's staging buffer (staging.hpp), taken at its first use.
    void *staging();
    static Signal *timed(Event *signal);
    // A LaunchIndirect command (queue.cpp says how).
    void launchIndirect(const Command &c);
    // Runs `work` on a thread of its own when the stream gets there; the
    // stream goes on once `done` is set (queue.cpp says why).
    void offload(std::function<void(Signal &done)> work);
    static void readAnywhere(void *to, const void *from, size_t bytes);
    // Runs `task` on the host when the stream reaches it.
    void hostTask(std::function<void()> task);

    Context *context_;
    Device *device_;
    ze_cuda::CUstream stream_ = nullptr;
    // Where barriers with wait events signal: gated by those events alone,
    // not by the work before them on stream_ (made at the first such barrier).
    ze_cuda::CUstream gates_ = nullptr;
    // Where the signals of stream_'s work are written while the device is
    // behind, in the order they were enqueued, each after a wait for
    // workDone_ as recorded on stream_ (both made when first needed).
    ze_cuda::CUstream signals_ = nullptr;
    ze_cuda::CUevent workDone_ = nullptr;
    // Where the last signal written for stream_'s work lands (none yet: empty).
    std::optional<Signal::Landing> lastWrite_;
    // Pinned memory for copies with pageable memory (staging.hpp), taken
    // from the device's pool at the first such copy.
    void *staging_ = nullptr;
};

} // namespace ze_driver
