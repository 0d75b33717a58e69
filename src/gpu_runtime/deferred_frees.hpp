// Frees that wait for the work queued before them on one stream, without a
// host wait. Lowered code frees right after queueing the work that still
// uses the memory (gpu.dealloc after an asynchronous gpu.memcpy) and waits
// later, so a free has to outlive that work:
//  - a deferred pointer is only recorded (no Level Zero call);
//  - every kFenceEvery recorded pointers, one barrier signalling a pool event
//    is appended: the pointers recorded before it are freed once it signals,
//    checked when the next barrier is appended (one event query per
//    kFenceEvery frees), so a loop that never waits does not keep its memory.
//    On a list that runs in submission order whose last command is a launch
//    with a completion event, that event is the fence and nothing is
//    appended;
//  - everything is freed by releaseAll after a completed wait on the stream.
// Used by one thread at a time, like the stream.
#pragma once

#include "stream/stream.hpp"

#include <deque>
#include <exception>
#include <vector>

namespace imex_l0 {

class DeferredFrees {
public:
    DeferredFrees() = default;
    DeferredFrees(const DeferredFrees &) = delete;
    DeferredFrees &operator=(const DeferredFrees &) = delete;

    bool empty() const { return unfenced_.empty() && fenced_.empty(); }
    bool contains(const void *ptr) const;
    // ptr is freed once the work queued on the stream before now is over.
    // lastLaunch: the completion event of the stream's last command when the
    // list runs in submission order and that command is a launch, else null;
    // it stays valid until the stream's next wait, which calls releaseAll
    // first. Returns whether a barrier was appended.
    bool add(Stream &stream, void *ptr, ze_event_handle_t lastLaunch);
    // Frees every pointer; the caller has waited for all the stream's work.
    void releaseAll(Stream &stream);

    static constexpr size_t kFenceEvery = 32;

private:
    struct Fence {
        ze_event_handle_t done; // signaled after the work before the frees
        bool barrier;           // done is a pool event of a barrier appended here
        std::vector<void *> ptrs;
    };
    // Frees the pointers of fences whose barrier has signaled (all when `all`).
    void releaseFenced(Stream &stream, bool all);
    static void freeNow(Stream &stream, void *ptr, std::exception_ptr &failure) noexcept;

    std::vector<void *> unfenced_; // recorded since the last barrier
    std::deque<Fence> fenced_;     // oldest first
};

} // namespace imex_l0
