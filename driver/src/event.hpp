// Event pools and events. An event is a Signal (signal.hpp) plus its place in
// a pool; pools with ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP make their events
// record the OpenCL profiling times of the commands that signal them.
#pragma once

#include "signal.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace ze_opencl {

class Context;

class EventPool : public Object {
public:
    static constexpr Tag kTag = Tag::EventPool;

    EventPool(Context *context, ze_event_pool_flags_t flags, uint32_t count);

    Context *context() const { return context_; }
    bool timestamps() const { return (flags_ & ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP) != 0; }
    // Claims slot `index` (each slot holds one live event at a time).
    void acquire(uint32_t index);
    void release(uint32_t index);

private:
    Context *context_;
    ze_event_pool_flags_t flags_;
    std::mutex mutex_; // guards used_
    std::vector<bool> used_;
};

class Event : public Object {
public:
    static constexpr Tag kTag = Tag::Event;

    Event(EventPool *pool, uint32_t index);
    ~Event();

    EventPool *pool() const { return pool_; }
    Signal &signal() { return *signal_; }
    const std::shared_ptr<Signal> &sharedSignal() const { return signal_; }

private:
    EventPool *pool_;
    uint32_t index_;
    // Shared with OpenCL completion callbacks, which may outlive the event.
    std::shared_ptr<Signal> signal_;
};

} // namespace ze_opencl
