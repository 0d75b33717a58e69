// A command of a command list, and the function that enqueues it.
#pragma once

#include "kernel.hpp"
#include "backend_native.hpp"

#include <memory>
#include <utility>
#include <vector>

namespace ze_driver {

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
        ImageCopy,       // dstImage <- srcImage
        ImageToMemory,   // dst <- srcImage
        ImageFromMemory, // dstImage <- src
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
    const ze_group_count_t *indirectGroups = nullptr; // read when the launch runs
    // LaunchIndirect of several kernels (AppendLaunchMultipleKernelsIndirect):
    // `batch` replaces kernel/launch, indirectGroups is an array, and
    // *indirectCount (read when the launch runs) says how many of them run.
    std::vector<std::pair<Kernel *, std::shared_ptr<const KernelLaunch>>> batch;
    const uint32_t *indirectCount = nullptr;

    // Copy, Fill, CopyRegion
    void *dst = nullptr;
    const void *src = nullptr;
    size_t size = 0;
    std::vector<uint8_t> pattern;
    ze_copy_region_t dstRegion = {}, srcRegion = {};
    uint32_t dstPitch = 0, dstSlicePitch = 0, srcPitch = 0, srcSlicePitch = 0;

    // ImageCopy, ImageToMemory, ImageFromMemory: OpenCL's origins and
    // region (in pixels; slices of arrays in the last dimension), and the
    // memory side's pitches in bytes (0: rows and slices packed).
    cl_mem dstImage = nullptr, srcImage = nullptr;
    size_t dstOrigin[3] = {0, 0, 0}, srcOrigin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
    size_t rowPitch = 0, slicePitch = 0;

    // QueryTimestamps
    std::vector<Event *> queried;
    std::vector<size_t> offsets; // empty: results are packed
};

// Enqueues `command` on the in-order `queue` of `context`: waits, the work,
// then the signal.
void enqueueCommand(cl_command_queue queue, const Command &command);
// The Launch command's work without a Command: waits, the kernel with the
// arguments of `launch`, then the signal (what immediate lists launch with).
void enqueueLaunch(cl_command_queue queue, Kernel *kernel, const KernelLaunch &launch,
                   const ze_group_count_t &groups, Event *signal,
                   const std::vector<Event *> &waits);

// An in-order OpenCL queue with profiling (kernel timestamps are real).
cl_command_queue createClQueue(Context *context, Device *device);

} // namespace ze_driver
