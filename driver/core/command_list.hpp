// Command lists. A regular list records commands and replays them onto a
// command queue's Queue at zeCommandQueueExecuteCommandLists; an immediate
// list owns an in-order Queue and enqueues each command as it is appended.
// The Queue is the backend's (its queue.hpp).
#pragma once

#include "command.hpp"
#include "event.hpp"
#include "queue.hpp"

#include <memory>
#include <mutex>
#include <vector>

struct _ze_command_list_dditable_t;

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
    // An immediate list's work done at once on its queue without recording a
    // Command (the backend's launches: the common case of immediate lists,
    // kept cheap), then the end of an append.
    template <class Work> void immediately(Work &&work, Event *signal) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (signal != nullptr)
            signal->beforeSignalingCommand();
        syncMarker_.reset(); // the next hostSynchronize needs a marker behind this
        work(*queue_);
        finishImmediate(signal);
    }
    // zeCommandListHostSynchronize (Level Zero 1.6): an immediate list's
    // work so far done, within the timeout (NOT_READY after it).
    ze_result_t hostSynchronize(uint64_t timeoutNs);
    void close();
    void reset();
    // Replays a closed regular list onto a queue.
    void replay(Queue &queue) const;

private:
    // An immediate list's end of an append, under mutex_: a synchronous list
    // waits for the command (and its signal), an asynchronous one flushes.
    void finishImmediate(Event *signal);

    Ref<Context> context_;
    Device *device_;
    const bool immediate_;
    const ze_command_queue_mode_t mode_;
    std::unique_ptr<Queue> queue_; // immediate lists only
    // hostSynchronize's signal behind the list's work, reused until the next
    // append (so repeated zero-timeout polls can see it set); under mutex_.
    std::shared_ptr<Signal> syncMarker_;
    bool closed_ = false;
    std::vector<Command> commands_; // regular lists only
    std::mutex
        mutex_; // serialises appends of an immediate list (its queue order is the list's order)
};

// For the appends outside command_list.cpp (launch_appends.cpp, the
// backend's image appends): the list behind a handle, an event of its
// context (wait events must be), the optional signal event (of any context
// of the driver), and a command with both.
CommandList *listOf(ze_command_list_handle_t h);
Event *eventOf(CommandList *list, ze_event_handle_t h);
Event *signalOf(ze_event_handle_t hSignal);
std::vector<Event *> waitsOf(CommandList *list, uint32_t numWaits, ze_event_handle_t *phWaits);
Command makeCommand(CommandList *list, Command::Type type, ze_event_handle_t hSignal,
                    uint32_t numWaits, ze_event_handle_t *phWaits);

// The launch entries of the CommandList table (launch_appends.cpp).
void setLaunchAppends(_ze_command_list_dditable_t *table);

} // namespace ze_driver
