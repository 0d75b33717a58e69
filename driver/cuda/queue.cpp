// How a command becomes CUDA stream work (queue.hpp).
#include "queue.hpp"

#include "context.hpp"
#include "device.hpp"
#include "event.hpp"
#include "image.hpp"
#include "kernel.hpp"
#include "launch_values.hpp"
#include "module.hpp"
#include "signal.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <new>
#include <thread>

namespace ze_driver {

using ze_cuda::CUdeviceptr;

namespace {

CUdeviceptr address(const void *pointer) {
    return reinterpret_cast<CUdeviceptr>(pointer);
}

// A block's shared memory over what every launch gets (48 KiB) needs its
// function's opt-in, which is raised here to the most a launch of the kernel
// has asked for. It only grows, so a launch on another thread between its
// check and cuLaunchKernel never finds it lowered.
void allowDynamicShared(KernelNative &native, uint64_t bytes) {
    static std::mutex raising; // taken once per kernel and larger size
    std::lock_guard<std::mutex> lock(raising);
    if (bytes <= native.dynamicShared.load(std::memory_order_relaxed))
        return;
    checkCuda(cuda().cuFuncSetAttribute(
        native.function, ze_cuda::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, int(bytes)));
    native.dynamicShared.store(uint32_t(bytes), std::memory_order_release);
}

// The parameters are the kernel's arguments as the translator left them
// (ptx_translator.hpp): values and USM pointers as they are, each __local
// pointer a 64-bit byte offset into the launch's dynamic shared memory,
// which holds them all (each at a multiple of 16 bytes: the alignment of the
// largest access the NVPTX backend makes, a 16-byte vector); then the
// launch values (launch_values.hpp). Group counts over a CUDA grid's in the
// second or third dimension run as grids of parts, one after the other on
// the stream, each told its first group.
void launchOn(ze_cuda::CUstream stream, Device *device, Kernel &kernel,
              const KernelLaunch &launch, const ze_group_count_t &groups) {
    check(kernel.module()->device() == device, ZE_RESULT_ERROR_INVALID_ARGUMENT);
    const KernelInfo &info = kernel.info();
    const size_t n = launch.args.size();
    constexpr size_t kInline = 32;
    constexpr size_t kValues = ze_cuda::LaunchValues::kCount;
    void *inlineParams[kInline + kValues];
    uint64_t inlineOffsets[kInline];
    std::vector<void *> heapParams;
    std::vector<uint64_t> heapOffsets;
    void **params = inlineParams;
    uint64_t *offsets = inlineOffsets;
    if (n > kInline) {
        heapParams.resize(n + kValues);
        heapOffsets.resize(n);
        params = heapParams.data();
        offsets = heapOffsets.data();
    }
    ze_cuda::LaunchValues values;
    std::copy(launch.offset, launch.offset + 3, values.offset);
    values.groupCount[0] = groups.groupCountY;
    values.groupCount[1] = groups.groupCountZ;
    values.pointTo(params + n);
    // The kernel's own variables come first where the translation placed
    // them here (shared_variables.hpp); its offsets count from after them.
    uint64_t arguments = 0;
    for (size_t i = 0; i < n; ++i) {
        const ArgValue &a = launch.args[i];
        if (info.args[i].kind == ArgKind::LocalPointer) {
            arguments = (arguments + 15) / 16 * 16;
            offsets[i] = arguments;
            arguments += a.localSize;
            params[i] = &offsets[i];
        } else {
            params[i] = const_cast<uint8_t *>(a.bytes.data());
        }
    }
    const uint64_t shared = kernel.native().sharedVariables + arguments;
    // The kernel's own __local variables and its local arguments share one limit.
    check(shared + kernel.native().staticShared <= device->localMemSize(),
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    if (shared > kernel.native().dynamicShared.load(std::memory_order_acquire))
        allowDynamicShared(kernel.native(), shared);
    const ze_device_compute_properties_t &limits = device->info().compute;
    check(groups.groupCountX <= limits.maxGroupCountX && groups.groupCountY <= limits.maxGroupCountY &&
              groups.groupCountZ <= limits.maxGroupCountZ,
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    // The maxima are below 2^31: the parts' bases do not wrap.
    const uint32_t *grid = device->native().grid;
    for (uint32_t z = 0; z < groups.groupCountZ; z += grid[2]) {
        for (uint32_t y = 0; y < groups.groupCountY; y += grid[1]) {
            values.groupBase[0] = y;
            values.groupBase[1] = z;
            checkCuda(cuda().cuLaunchKernel(
                kernel.native().function, groups.groupCountX,
                std::min(grid[1], groups.groupCountY - y),
                std::min(grid[2], groups.groupCountZ - z), launch.groupSize[0], launch.groupSize[1],
                launch.groupSize[2], static_cast<unsigned>(shared), stream, params, nullptr));
        }
    }
    // CUDA keeps what kernels print in a device buffer, which it writes to
    // standard output only at its own synchronizations, launches, module
    // loads, and before it runs a host function. The driver's host waits
    // poll words instead, so a kernel that prints is followed by a host
    // function that does nothing: the output is written before the stream
    // goes on to the commands after the kernel, and so before any signal of
    // this work is set.
    if (kernel.native().prints)
        checkCuda(cuda().cuLaunchHostFunc(stream, [](void *) {}, nullptr));
}

} // namespace

Queue::Queue(Context *context, Device *device) : context_(context), device_(device) {
    makeCurrent(device_);
    checkCuda(cuda().cuStreamCreate(&stream_, ze_cuda::CU_STREAM_NON_BLOCKING));
}

Queue::~Queue() {
    // The staging buffer goes back to the pool once the stream is done with
    // it (a host function after its work); if that cannot be arranged, it is
    // lost rather than reused too early.
    if (staging_ != nullptr) {
        struct Return {
            StagingPool *pool;
            void *buffer;
        };
        auto *ret = new (std::nothrow) Return{&device_->native().staging, staging_};
        auto run = [](void *raw) {
            std::unique_ptr<Return> r(static_cast<Return *>(raw));
            r->pool->giveBack(r->buffer);
        };
        if (ret != nullptr && cuda().cuLaunchHostFunc(stream_, run, ret) != ze_cuda::CUDA_SUCCESS)
            delete ret;
    }
    // cuStreamDestroy needs no current context; nothing here may throw.
    cuda().cuStreamDestroy(stream_);
    for (ze_cuda::CUstream other : {gates_, signals_})
        if (other != nullptr)
            cuda().cuStreamDestroy(other);
    if (workDone_ != nullptr)
        cuda().cuEventDestroy(workDone_);
}

void Queue::wait(ze_cuda::CUstream stream, const std::vector<Event *> &waits) {
    for (Event *event : waits) {
        Signal &signal = event->signal();
        if (!signal.isSet())
            checkCuda(cuda().cuStreamWaitValue32(stream, signal.deviceWord(), signal.target(),
                                                 ze_cuda::CU_STREAM_WAIT_VALUE_GEQ));
    }
}

void Queue::write(ze_cuda::CUstream stream, Signal &signal) {
    signal.writtenBy(device_);
    checkCuda(cuda().cuStreamWriteValue32(stream, signal.deviceWord(), signal.target(),
                                          ze_cuda::CU_STREAM_WRITE_VALUE_DEFAULT));
}

// A word written on stream_ itself makes the stream wait there until the
// work before it is done and flushed, and the next launch's setup does not
// overlap that work's end: back-to-back kernels that each signal an event ran
// 2 us apart on an H200 (benchmarks/README.md, "Signals"). An event record
// costs stream_ nothing; a stream of its own waits for it and writes the
// word. That hop costs latency instead (a launch and the host's wait for its
// signal took 5 us longer), so it is taken only while the device is behind:
// when the last signal written for this queue has not landed. Writes keep
// their order either way: signals_ writes in order, after the work on
// stream_ before each one; a write on stream_ is made only once every
// earlier write has landed (a landing that cannot be seen counts as not
// landed). One event serves every write: a stream's wait takes the event as
// last recorded when the wait is enqueued.
void Queue::signalAfterWork(Signal &signal) {
    const bool caughtUp = !lastWrite_ || lastWrite_->seen();
    lastWrite_ = signal.landing();
    if (caughtUp) {
        write(stream_, signal);
        return;
    }
    if (signals_ == nullptr) {
        checkCuda(cuda().cuEventCreate(&workDone_, ze_cuda::CU_EVENT_DISABLE_TIMING));
        checkCuda(cuda().cuStreamCreate(&signals_, ze_cuda::CU_STREAM_NON_BLOCKING));
    }
    checkCuda(cuda().cuEventRecord(workDone_, stream_));
    checkCuda(cuda().cuStreamWaitEvent(signals_, workDone_, 0));
    write(signals_, signal);
}

void Queue::hostTask(std::function<void()> task) {
    auto *heap = new std::function<void()>(std::move(task));
    auto run = [](void *raw) {
        std::unique_ptr<std::function<void()>> owned(static_cast<std::function<void()> *>(raw));
        (*owned)();
    };
    ze_cuda::CUresult r = cuda().cuLaunchHostFunc(stream_, run, heap);
    if (r != ze_cuda::CUDA_SUCCESS) {
        delete heap;
        checkCuda(r);
    }
}

void *Queue::staging() {
    if (staging_ == nullptr)
        staging_ = device_->native().staging.take(device_);
    return staging_;
}

// The signal whose event asked for the times of the work that sets it.
Signal *Queue::timed(Event *signal) {
    return signal != nullptr && signal->signal().timed() ? &signal->signal() : nullptr;
}

Queue::Memory Queue::memoryOf(const void *pointer) {
    unsigned type = 0;
    if (cuda().cuPointerGetAttribute(&type, ze_cuda::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                     address(pointer)) != ze_cuda::CUDA_SUCCESS)
        return Memory::Pageable; // memory CUDA does not know
    return type == ze_cuda::CU_MEMORYTYPE_HOST ? Memory::Pinned : Memory::Device;
}

// CUDA copies asynchronously only where one side is device (or managed)
// memory and the other is not pageable. Otherwise it copies synchronously
// with respect to the host, after the stream's earlier work, which would
// make the append wait for that work (and never return if the stream waits
// for an event the application sets later). So a copy between two host
// buffers is a host function in stream order, and one between device memory
// and pageable memory goes through the queue's pinned staging buffer, a
// piece at a time: a host function copies between the pageable memory and
// the buffer, CUDA between the buffer and the device. The stream's order
// keeps the buffer's pieces apart.
void Queue::copy(void *dst, const void *src, size_t bytes, Memory dstMemory, Memory srcMemory) {
    if (bytes == 0)
        return;
    if (dstMemory != Memory::Device && srcMemory != Memory::Device)
        return hostTask([dst, src, bytes] { std::memcpy(dst, src, bytes); });
    if (dstMemory != Memory::Pageable && srcMemory != Memory::Pageable)
        return checkCuda(cuda().cuMemcpyAsync(address(dst), address(src), bytes, stream_));
    void *stage = staging();
    for (size_t done = 0; done < bytes; done += StagingPool::kBytes) {
        size_t n = std::min(StagingPool::kBytes, bytes - done);
        auto *to = static_cast<uint8_t *>(dst) + done;
        const auto *from = static_cast<const uint8_t *>(src) + done;
        if (srcMemory == Memory::Pageable) {
            hostTask([stage, from, n] { std::memcpy(stage, from, n); });
            checkCuda(cuda().cuMemcpyHtoDAsync(address(to), stage, n, stream_));
        } else {
            checkCuda(cuda().cuMemcpyDtoHAsync(stage, address(from), n, stream_));
            hostTask([stage, to, n] { std::memcpy(to, stage, n); });
        }
    }
}

// On device memory: cuMemsetD8/D16/D32 for patterns of 1, 2 and 4 bytes on
// aligned whole repetitions; otherwise the pattern is copied to the start of
// the destination and doubled by device-to-device copies (log2 of the
// repetitions), the last one cut short. On host memory, a host function
// writes the pattern in stream order.
void Queue::fill(const Command &c) {
    Memory memory = memoryOf(c.dst);
    if (memory != Memory::Device) {
        auto *dst = static_cast<uint8_t *>(c.dst);
        return hostTask([dst, size = c.size, pattern = c.pattern] {
            for (size_t done = 0; done < size; done += pattern.size())
                std::memcpy(dst + done, pattern.data(), std::min(pattern.size(), size - done));
        });
    }
    CUdeviceptr dst = address(c.dst);
    size_t n = c.pattern.size();
    const uint8_t *p = c.pattern.data();
    if (n == 1)
        return checkCuda(cuda().cuMemsetD8Async(dst, p[0], c.size, stream_));
    if (dst % n == 0 && c.size % n == 0 && (n == 2 || n == 4)) {
        if (n == 2) {
            uint16_t v;
            std::memcpy(&v, p, 2);
            return checkCuda(cuda().cuMemsetD16Async(dst, v, c.size / 2, stream_));
        }
        uint32_t v;
        std::memcpy(&v, p, 4);
        return checkCuda(cuda().cuMemsetD32Async(dst, v, c.size / 4, stream_));
    }
    // The pattern lives in the command, which an immediate list drops when
    // the append returns: the host function that stages it keeps a copy.
    void *stage = staging();
    size_t first = std::min(n, c.size);
    hostTask([stage, pattern = c.pattern, first] { std::memcpy(stage, pattern.data(), first); });
    checkCuda(cuda().cuMemcpyHtoDAsync(dst, stage, first, stream_));
    for (size_t done = n; done < c.size; done *= 2)
        checkCuda(
            cuda().cuMemcpyDtoDAsync(dst + done, dst, std::min(done, c.size - done), stream_));
}

// Between device and pinned memory: one cuMemcpy3DAsync of the whole region
// (CUDA addresses both kinds by their pointers), where each slice pitch is a
// whole number of rows, as CUDA's copies take it; otherwise, and with
// pageable host memory, row by row.
void Queue::copyRegion(const Command &c) {
    Memory dstMemory = memoryOf(c.dst), srcMemory = memoryOf(c.src);
    if (dstMemory != Memory::Device && srcMemory != Memory::Device) {
        // Host to host: every row in one host function.
        hostTask([c] {
            forEachRegionRow(c, [](uint8_t *d, const uint8_t *s, size_t n) { std::memcpy(d, s, n); });
        });
        return;
    }
    const uint32_t depth = std::max(c.srcRegion.depth, 1u),
                   height = std::max(c.srcRegion.height, 1u);
    const bool wholeRows =
        depth == 1 || (c.srcPitch != 0 && c.dstPitch != 0 && c.srcSlicePitch % c.srcPitch == 0 &&
                       c.dstSlicePitch % c.dstPitch == 0);
    constexpr uint32_t kMostPitch = INT32_MAX; // CUDA's limit on every GPU it supports
    if (dstMemory != Memory::Pageable && srcMemory != Memory::Pageable && wholeRows &&
        c.srcPitch <= kMostPitch && c.dstPitch <= kMostPitch) {
        if (c.srcRegion.width == 0)
            return;
        // Each side's slice is folded into its start (a 2D region may lie in
        // any slice); a single row needs no pitch.
        const bool oneRow = height == 1 && depth == 1;
        ze_cuda::CudaMemcpy3D whole = {};
        whole.srcMemoryType = whole.dstMemoryType = ze_cuda::CU_MEMORYTYPE_UNIFIED;
        whole.srcDevice = address(c.src) + size_t(c.srcRegion.originZ) * c.srcSlicePitch;
        whole.srcXInBytes = c.srcRegion.originX;
        whole.srcY = c.srcRegion.originY;
        whole.srcPitch = oneRow ? c.srcRegion.originX + c.srcRegion.width : c.srcPitch;
        whole.srcHeight = depth == 1 ? 0 : c.srcSlicePitch / c.srcPitch;
        whole.dstDevice = address(c.dst) + size_t(c.dstRegion.originZ) * c.dstSlicePitch;
        whole.dstXInBytes = c.dstRegion.originX;
        whole.dstY = c.dstRegion.originY;
        whole.dstPitch = oneRow ? c.dstRegion.originX + c.dstRegion.width : c.dstPitch;
        whole.dstHeight = depth == 1 ? 0 : c.dstSlicePitch / c.dstPitch;
        whole.WidthInBytes = c.srcRegion.width;
        whole.Height = height;
        whole.Depth = depth;
        return checkCuda(cuda().cuMemcpy3DAsync(&whole, stream_));
    }
    forEachRegionRow(c, [&](uint8_t *dst, const uint8_t *src, size_t bytes) {
        copy(dst, src, bytes, dstMemory, srcMemory);
    });
}

// The image side's region is in its pixels' rows and slices; the memory
// side's rows and slices are packed where its pitches are 0.
void Queue::copyImage(const Command &c) {
    const Image *any = c.srcImage != nullptr ? c.srcImage : c.dstImage;
    const uint32_t rowBytes = uint32_t(c.pixels[0] * any->format().bytes);
    // One side of the copy: an image's pixels from `origin`, or `memory`
    // with its pitches; the region's start, its pitches and its place.
    auto side = [&](const Image *image, const size_t origin[3], const void *memory, uint32_t pitch,
                    uint32_t slicePitch, ze_copy_region_t *region, uint32_t *outPitch,
                    uint32_t *outSlicePitch) {
        *region = {0, 0, 0, rowBytes, uint32_t(c.pixels[1]), uint32_t(c.pixels[2])};
        if (image == nullptr) {
            *outPitch = pitch != 0 ? pitch : rowBytes;
            *outSlicePitch = slicePitch != 0 ? slicePitch : *outPitch * uint32_t(c.pixels[1]);
            return memory;
        }
        region->originX = uint32_t(origin[0] * image->format().bytes);
        region->originY = uint32_t(origin[1]);
        region->originZ = uint32_t(origin[2]);
        *outPitch = uint32_t(image->native().rowPitch);
        *outSlicePitch = uint32_t(image->native().slicePitch);
        return static_cast<const void *>(image->native().pixels);
    };
    Command region;
    region.type = Command::Type::CopyRegion;
    region.src = side(c.srcImage, c.srcOrigin, c.src, c.srcPitch, c.srcSlicePitch,
                      &region.srcRegion, &region.srcPitch, &region.srcSlicePitch);
    region.dst =
        const_cast<void *>(side(c.dstImage, c.dstOrigin, c.dst, c.dstPitch, c.dstSlicePitch,
                                &region.dstRegion, &region.dstPitch, &region.dstSlicePitch));
    copyRegion(region);
}

// Work that needs CUDA calls (which host functions may not make) when the
// stream gets there, without making the append wait for the work before:
// the stream reaches a host function, the work's turn, which wakes a thread
// of the work's own; the stream goes on once `done` is set, by the work or
// by a stream it used. A failure there has no one to report to (Level Zero
// has no error state for a command): `done` is set anyway, so the queue
// never stays stuck.
void Queue::offload(std::function<void(Signal &done)> work) {
    auto done = std::make_shared<Signal>(context_, false);
    done->writtenBy(device_);
    auto turn = std::make_shared<std::promise<void>>();
    std::thread([work = std::move(work), done, future = turn->get_future(), device = device_] {
        future.wait();
        try {
            makeCurrent(device);
            work(*done);
        } catch (...) {
            done->set();
        }
    }).detach();
    hostTask([turn] { turn->set_value(); });
    checkCuda(cuda().cuStreamWaitValue32(stream_, done->deviceWord(), done->target(),
                                         ze_cuda::CU_STREAM_WAIT_VALUE_GEQ));
    // The word lives until the stream has passed it.
    hostTask([done] {});
}

// CUDA has no launch whose group counts are read when it runs: the counts
// are read when the launch's turn comes (offload), and the kernels run on a
// stream of their own, which sets `done` after them.
void Queue::launchIndirect(const Command &c) {
    // The thread owns copies of the arguments (an immediate list's launch
    // points at the kernel's current values, which may change meanwhile).
    auto batch = c.batch;
    if (batch.empty())
        batch.emplace_back(c.kernel, c.launch);
    for (auto &entry : batch)
        entry.second = std::make_shared<const KernelLaunch>(*entry.second);
    offload([batch, device = device_, groups = c.indirectGroups,
             count = c.indirectCount](Signal &done) {
        uint32_t n = static_cast<uint32_t>(batch.size());
        if (count != nullptr) {
            uint32_t wanted = 0;
            readAnywhere(&wanted, count, sizeof(wanted));
            n = std::min(n, wanted);
        }
        std::vector<ze_group_count_t> counts(n);
        readAnywhere(counts.data(), groups, n * sizeof(ze_group_count_t));
        ze_cuda::CUstream own = nullptr;
        checkCuda(cuda().cuStreamCreate(&own, ze_cuda::CU_STREAM_NON_BLOCKING));
        std::unique_ptr<ze_cuda::CUstream_st, ze_cuda::CUresult (*)(ze_cuda::CUstream)> hold(
            own, cuda().cuStreamDestroy);
        for (uint32_t i = 0; i < n; ++i)
            if (counts[i].groupCountX && counts[i].groupCountY && counts[i].groupCountZ)
                launchOn(own, device, *batch[i].first, *batch[i].second, counts[i]);
        checkCuda(cuda().cuStreamWriteValue32(own, done.deviceWord(), done.target(),
                                              ze_cuda::CU_STREAM_WRITE_VALUE_DEFAULT));
    });
}

// Reads memory the host may not touch (device memory) through CUDA.
void Queue::readAnywhere(void *to, const void *from, size_t bytes) {
    if (memoryOf(from) == Memory::Device)
        checkCuda(cuda().cuMemcpyDtoH(to, address(from), bytes));
    else
        std::memcpy(to, from, bytes);
}

void Queue::launch(Kernel *kernel, const ze_group_count_t &groups, Event *signal,
                   const std::vector<Event *> &waits) {
    makeCurrent(device_);
    wait(stream_, waits);
    Signal *times = timed(signal);
    if (times != nullptr)
        times->recordStart(device_, stream_);
    launchOn(stream_, device_, *kernel, kernel->launch(), groups);
    if (times != nullptr)
        times->recordEnd(stream_);
    if (signal != nullptr)
        signalAfterWork(signal->signal());
}

void Queue::enqueue(const Command &c) {
    makeCurrent(device_);
    if (c.type == Command::Type::Reset) {
        // Done on the host when the command is reached in submission order,
        // as on the OpenCL backend: a later write of the earlier target no
        // longer sets the event.
        c.signal->signal().reset();
        return;
    }
    wait(stream_, c.waits);
    // The work of a command that sets a timestamp event is timed by CUDA
    // events around it (signal.hpp).
    bool work = c.type == Command::Type::Launch || c.type == Command::Type::LaunchIndirect ||
                c.type == Command::Type::Copy || c.type == Command::Type::Fill ||
                c.type == Command::Type::CopyRegion || c.type == Command::Type::ImageCopy ||
                c.type == Command::Type::ImageToMemory || c.type == Command::Type::ImageFromMemory;
    Signal *times = work ? timed(c.signal) : nullptr;
    if (times != nullptr)
        times->recordStart(device_, stream_);
    switch (c.type) {
    case Command::Type::Launch:
        launchOn(stream_, device_, *c.kernel, *c.launch, c.groups);
        break;
    case Command::Type::LaunchIndirect:
        launchIndirect(c);
        break;
    case Command::Type::Copy:
        if (c.size > 0)
            copy(c.dst, c.src, c.size, memoryOf(c.dst), memoryOf(c.src));
        break;
    case Command::Type::Fill:
        if (c.size > 0)
            fill(c);
        break;
    case Command::Type::CopyRegion:
        copyRegion(c);
        break;
    case Command::Type::ImageCopy:
    case Command::Type::ImageToMemory:
    case Command::Type::ImageFromMemory:
        copyImage(c);
        break;
    case Command::Type::WriteTimestamp: {
        // Written by the host when the stream gets there: the destination
        // must be memory the host can write (not device memory).
        Allocation a;
        check(!context_->find(c.dst, &a) || a.type != ZE_MEMORY_TYPE_DEVICE,
              ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
        auto *dst = static_cast<uint64_t *>(c.dst);
        hostTask([dst] { *dst = deviceTimeNs(); });
        break;
    }
    case Command::Type::QueryTimestamps: {
        // The times come from CUDA events (event_clock.hpp), which a thread
        // may read, not a host function; the thread also reaches device
        // memory.
        std::vector<std::shared_ptr<Signal>> signals;
        for (Event *e : c.queried) {
            wait(stream_, {e});
            signals.push_back(e->sharedSignal());
        }
        size_t bytes = 0;
        for (size_t i = 0; i < signals.size(); ++i)
            bytes = std::max(bytes, (c.offsets.empty() ? i * sizeof(ze_kernel_timestamp_result_t)
                                                       : c.offsets[i]) +
                                        sizeof(ze_kernel_timestamp_result_t));
        auto *dst = static_cast<uint8_t *>(c.dst);
        bool onDevice = memoryOf(c.dst) == Memory::Device;
        offload([signals, dst, bytes, onDevice, offsets = c.offsets](Signal &done) {
            if (onDevice) {
                // Only the results' bytes are written: what lies between
                // them (offsets) is read first and kept.
                std::vector<uint8_t> results(bytes);
                readAnywhere(results.data(), dst, bytes);
                writeKernelTimestamps(signals, results.data(), offsets);
                checkCuda(cuda().cuMemcpyHtoD(address(dst), results.data(), bytes));
            } else {
                writeKernelTimestamps(signals, dst, offsets);
            }
            done.set();
        });
        break;
    }
    case Command::Type::Barrier:
        // A barrier with wait events is gated by those events only, not by
        // the work before it: its signal is written on a stream of its own
        // that waits for the events. Later commands on this stream still
        // wait for the events (above) and for the work before (in order).
        if (!c.waits.empty() && c.signal != nullptr) {
            if (gates_ == nullptr)
                checkCuda(cuda().cuStreamCreate(&gates_, ze_cuda::CU_STREAM_NON_BLOCKING));
            wait(gates_, c.waits);
            write(gates_, c.signal->signal());
            return;
        }
        break;
    case Command::Type::Signal:
    case Command::Type::Wait:
        // The stream is in order: the waits above and the signal below are
        // all there is.
        break;
    case Command::Type::Reset:
        break; // done above
    }
    if (times != nullptr)
        times->recordEnd(stream_);
    if (c.signal != nullptr)
        signalAfterWork(c.signal->signal());
}

// By a signal written after the stream's work, polled as every host wait is
// (Signal::waitFor, which also notices a lost device): cuStreamSynchronize
// waits inside CUDA, holding the stream's lock, which another thread's
// append to the same queue then waits for, while the stream waits for an
// event that thread sets once its append returns (the public suite's
// test_multithread, threads sharing a queue, hung so).
void Queue::finish() {
    makeCurrent(device_);
    auto done = std::make_shared<Signal>(context_, false);
    signalAfterWork(*done);
    done->waitFor(UINT64_MAX);
}

void Queue::signalWhenDone(Signal &signal, Signal *also) {
    makeCurrent(device_);
    signalAfterWork(signal);
    if (also != nullptr)
        signalAfterWork(*also);
}

} // namespace ze_driver
