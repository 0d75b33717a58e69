// Command queues: an in-order Queue (the backend's queue.hpp) that executes
// regular command lists.
#pragma once

#include "queue.hpp"
#include "signal.hpp"

#include <memory>
#include <mutex>

namespace ze_driver {

class Context;
class Device;
class CommandList;
class Fence;

class CommandQueue : public Object, public Counted<CommandQueue> {
public:
    static constexpr Tag kTag = Tag::CommandQueue;

    CommandQueue(Context *context, Device *device, ze_command_queue_mode_t mode);
    ~CommandQueue();
    void init();

    Context *context() const { return context_; }

    void execute(uint32_t count, CommandList *const *lists, Fence *fence);
    // Waits for everything executed so far: SUCCESS or NOT_READY after timeoutNs.
    ze_result_t synchronize(uint64_t timeoutNs);

private:
    Ref<Context> context_;
    Device *device_;
    const ze_command_queue_mode_t mode_;
    std::unique_ptr<Queue> queue_;
    std::mutex mutex_; // keeps concurrent executions from interleaving; guards done_
    // Set when everything executed so far has completed (a marker after the
    // last execution): polling it enqueues nothing, so an idle queue is idle.
    std::shared_ptr<Signal> done_;
};

} // namespace ze_driver
