// Command lists. A regular list records commands and replays them onto a
// command queue's OpenCL queue at zeCommandQueueExecuteCommandLists; an
// immediate list owns an in-order OpenCL queue and enqueues each command as
// it is appended. Both go through one function, enqueueCommand().
#pragma once

#include "kernel.hpp"
#include "object.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace ze_opencl {

class Context;
class Device;
class Event;

struct Command {
    enum class Type {
        Launch,
        LaunchIndirect,
        Copy,
        Fill,
        CopyRegion,
        Barrier,
        Signal,
        Wait,
        Reset,
        WriteTimestamp,  // dst <- the device time when the command runs
        QueryTimestamps, // dst[i] (+ offsets[i]) <- the kernel timestamps of queried[i]
    };
    Type type = Type::Barrier;
    Event *signal = nullptr;
    std::vector<Event *> waits;

    // Launch, LaunchIndirect. Regular lists own a snapshot of the arguments;
    // immediate lists point at the kernel's current values, which are used
    // before the append returns.
    Kernel *kernel = nullptr;
    std::shared_ptr<const KernelLaunch> launch;
    ze_group_count_t groups = {1, 1, 1};
    const ze_group_count_t *indirectGroups = nullptr; // read when the launch is enqueued

    // Copy, Fill, CopyRegion
    void *dst = nullptr;
    const void *src = nullptr;
    size_t size = 0;
    std::vector<uint8_t> pattern;
    ze_copy_region_t dstRegion = {}, srcRegion = {};
    uint32_t dstPitch = 0, dstSlicePitch = 0, srcPitch = 0, srcSlicePitch = 0;

    // QueryTimestamps
    std::vector<Event *> queried;
    std::vector<size_t> offsets; // empty: results are packed
};

// Enqueues `command` on the in-order `queue` of `context`: waits, the work,
// then the signal.
void enqueueCommand(cl_command_queue queue, const Command &command);

// An in-order OpenCL queue with profiling (kernel timestamps are real).
cl_command_queue createClQueue(Context *context, Device *device);

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
    void close();
    void reset();
    // Replays a closed regular list onto a queue's OpenCL queue.
    void replay(cl_command_queue queue) const;

private:
    Context *context_;
    Device *device_;
    const bool immediate_;
    const ze_command_queue_mode_t mode_;
    cl_command_queue queue_ = nullptr; // immediate lists only
    bool closed_ = false;
    std::vector<Command> commands_; // regular lists only
    std::mutex mutex_; // serialises appends of an immediate list (its queue order is the list's order)
};

} // namespace ze_opencl
