// Event pools and events. An event is a Signal (the backend's signal.hpp)
// plus its place in a pool; pools with ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP
// make their events record the device times of the commands that signal them.
// Counter-based pools (ZE_experimental_event_pool_counter_based) make events
// that always stand for the last command appended to signal them, reused
// without a reset: each such append gives the event a fresh Signal.
#pragma once

#include "signal.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace ze_driver {

class Context;
class SharedEventStates;

// Which slots of a pool hold a live event. Shared with the events, so an
// event destroyed after its pool (an application error) does not touch freed memory.
class EventSlots {
public:
    explicit EventSlots(uint32_t count) : used_(count, false) {}
    // Claims slot `index` (each slot holds one live event at a time).
    void acquire(uint32_t index);
    void release(uint32_t index);

private:
    std::mutex mutex_; // guards used_
    std::vector<bool> used_;
};

class EventPool : public Object {
public:
    static constexpr Tag kTag = Tag::EventPool;

    // With ZE_EVENT_POOL_FLAG_IPC, the events' states are shared (event_ipc.hpp).
    EventPool(Context *context, ze_event_pool_flags_t flags, uint32_t count,
              bool counterBased = false);
    // A pool of another process, opened from its IPC handle.
    EventPool(Context *context, ze_event_pool_flags_t flags, uint32_t count,
              std::shared_ptr<SharedEventStates> opened);

    Context *context() const { return context_; }
    ze_event_pool_flags_t flags() const { return flags_; }
    bool timestamps() const { return (flags_ & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP) != 0; }
    const std::shared_ptr<EventSlots> &slots() const { return slots_; }
    // Null unless the pool is shared between processes.
    const std::shared_ptr<SharedEventStates> &sharedStates() const { return shared_; }
    bool opened() const { return opened_; }
    bool counterBased() const { return counterBased_; }

private:
    Ref<Context> context_;
    ze_event_pool_flags_t flags_;
    bool counterBased_ = false;
    std::shared_ptr<EventSlots> slots_;
    std::shared_ptr<SharedEventStates> shared_;
    bool opened_ = false;
};

class Event : public Object {
public:
    static constexpr Tag kTag = Tag::Event;

    Event(EventPool *pool, uint32_t index);
    ~Event();

    Context *context() const { return context_; }
    // Whether the pool records kernel timestamps.
    bool timestamps() const { return timestamps_; }
    Signal &signal() { return *signal_; }
    const std::shared_ptr<Signal> &sharedSignal() const { return signal_; }
    // The signal for the host's calls (synchronize, query, host signal and
    // reset), which may come from a thread other than the one appending: a
    // counter-based event may take a fresh signal meanwhile, and the copy
    // keeps the one the call looks at alive. Only a counter-based event ever
    // replaces its signal, so only its copy needs the atomic load (a lock in
    // the standard library), which would otherwise cost every query and reset.
    std::shared_ptr<Signal> currentSignal() const {
        return counterBased_ ? std::atomic_load(&signal_) : signal_;
    }
    // Before a command that will signal this event is enqueued: a
    // counter-based event takes a fresh Signal for it. The one before stays
    // alive until it is set, since commands enqueued earlier may wait on it
    // (a Signal's end releases its waiters). Appends of one counter-based
    // event come from one thread at a time (the list's); the host's calls use
    // currentSignal() and may come from any thread.
    void beforeSignalingCommand();

private:
    Ref<Context> context_;
    bool timestamps_;
    bool counterBased_;
    std::vector<std::shared_ptr<Signal>> retired_; // counter-based: earlier signals not yet set
    std::shared_ptr<EventSlots> slots_;
    uint32_t index_;
    // Shared with the backend's completion callbacks, which may outlive the event.
    std::shared_ptr<Signal> signal_;
};

} // namespace ze_driver
