// Command lists. A regular list records commands and replays them onto a
// command queue's OpenCL queue at zeCommandQueueExecuteCommandLists; an
// immediate list owns an in-order OpenCL queue and enqueues each command as
// it is appended. Both go through one function, enqueueCommand() (command.hpp).
#pragma once

#include "command.hpp"
#include "backend_native.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace ze_driver {

class Context;
class Device;

class CommandList : public Object {
public:
    static constexpr Tag kTag = Tag::CommandList;

    CommandList(Context *context, Device *device, bool immediate, ze_command_queue_mode_t mode);
    ~CommandList();
    void init();

    Context *context() const { return context_; }
    Device *device() const { return device_; }
    bool immediate() const { return immediate_; }
    bool closed() const { return closed_; }

    void append(Command command);
    // An immediate list's launch, enqueued at once without recording a
    // Command: the common case of immediate lists, kept cheap.
    void launchNow(Kernel *kernel, const ze_group_count_t &groups, Event *signal,
                   const std::vector<Event *> &waits);
    void close();
    void reset();
    // Replays a closed regular list onto a queue's OpenCL queue.
    void replay(cl_command_queue queue) const;

private:
    // An immediate list's end of an append, under mutex_: a synchronous list
    // waits for the command (and its signal), an asynchronous one flushes.
    void finishImmediate(Event *signal);

    Ref<Context> context_;
    Device *device_;
    const bool immediate_;
    const ze_command_queue_mode_t mode_;
    cl_command_queue queue_ = nullptr; // immediate lists only
    bool closed_ = false;
    std::vector<Command> commands_; // regular lists only
    std::mutex
        mutex_; // serialises appends of an immediate list (its queue order is the list's order)
};

} // namespace ze_driver
