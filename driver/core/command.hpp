// A command of a command list: what an append recorded, replayed by a regular
// list at execution and enqueued at once by an immediate one, through its
// backend's Queue (the backend's queue.hpp).
#pragma once

#include "backend_native.hpp"
#include "kernel_launch.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

namespace ze_driver {

class Event;
class Image;
class Kernel;

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

    // Copy, Fill, CopyRegion, WriteTimestamp, QueryTimestamps, images
    void *dst = nullptr;
    const void *src = nullptr;
    size_t size = 0;
    std::vector<uint8_t> pattern;
    ze_copy_region_t dstRegion = {}, srcRegion = {};
    // CopyRegion; the memory side of ImageToMemory (dst) and ImageFromMemory
    // (src), where 0 is rows and slices packed.
    uint32_t dstPitch = 0, dstSlicePitch = 0, srcPitch = 0, srcSlicePitch = 0;

    // ImageCopy, ImageToMemory, ImageFromMemory: the images (the
    // application's to keep until the command ran), the regions' origins
    // and their size, in pixels (image.hpp, Image::region).
    Image *dstImage = nullptr, *srcImage = nullptr;
    size_t dstOrigin[3] = {0, 0, 0}, srcOrigin[3] = {0, 0, 0}, pixels[3] = {1, 1, 1};

    // QueryTimestamps
    std::vector<Event *> queried;
    std::vector<size_t> offsets; // empty: results are packed
};

// What every backend does with the parts of a command it does not leave to
// its device API.

// A CopyRegion command, one row at a time: copy(dst, src, bytes) for each row,
// at the offsets the regions and pitches say (a 2D region may say depth 0, a
// 1D one height 0: one slice, one row).
template <class Copy> void forEachRegionRow(const Command &c, Copy &&copy) {
    if (c.srcRegion.width == 0)
        return;
    const auto *src = static_cast<const uint8_t *>(c.src);
    auto *dst = static_cast<uint8_t *>(c.dst);
    uint32_t depth = std::max(c.srcRegion.depth, 1u), height = std::max(c.srcRegion.height, 1u);
    for (uint32_t z = 0; z < depth; ++z)
        for (uint32_t y = 0; y < height; ++y) {
            size_t s = size_t(c.srcRegion.originZ + z) * c.srcSlicePitch +
                       size_t(c.srcRegion.originY + y) * c.srcPitch + c.srcRegion.originX;
            size_t d = size_t(c.dstRegion.originZ + z) * c.dstSlicePitch +
                       size_t(c.dstRegion.originY + y) * c.dstPitch + c.dstRegion.originX;
            copy(dst + d, src + s, size_t(c.srcRegion.width));
        }
}

// A QueryTimestamps command's results, once its events' commands are done:
// each signal's times (zeros for one not set), packed or at `offsets`.
// `signals` holds shared pointers to the backend's Signal.
template <class Signals>
void writeKernelTimestamps(const Signals &signals, uint8_t *dst, const std::vector<size_t> &offsets) {
    for (size_t i = 0; i < signals.size(); ++i) {
        ze_kernel_timestamp_result_t r = {};
        if (signals[i]->isSet()) {
            uint64_t start, end;
            signals[i]->timestamps(&start, &end);
            r.global.kernelStart = r.context.kernelStart = start;
            r.global.kernelEnd = r.context.kernelEnd = end;
        }
        std::memcpy(dst + (offsets.empty() ? i * sizeof(r) : offsets[i]), &r, sizeof(r));
    }
}

} // namespace ze_driver
