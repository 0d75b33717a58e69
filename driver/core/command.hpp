// A command of a command list: what an append recorded, replayed by a regular
// list at execution and enqueued at once by an immediate one, through its
// backend's Queue (the backend's queue.hpp). The backend's own parts of a
// command (image regions, launches until kernels are the core's) are its
// CommandNative (backend_native.hpp).
#pragma once

#include "backend_native.hpp"

#include <memory>
#include <vector>

namespace ze_driver {

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

    // Copy, Fill, CopyRegion, WriteTimestamp, QueryTimestamps, images
    void *dst = nullptr;
    const void *src = nullptr;
    size_t size = 0;
    std::vector<uint8_t> pattern;
    ze_copy_region_t dstRegion = {}, srcRegion = {};
    uint32_t dstPitch = 0, dstSlicePitch = 0, srcPitch = 0, srcSlicePitch = 0;

    // QueryTimestamps
    std::vector<Event *> queried;
    std::vector<size_t> offsets; // empty: results are packed

    CommandNative native;
};

} // namespace ze_driver
