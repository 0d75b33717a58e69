// The OpenCL backend's Queue: how a command becomes OpenCL work (waits, the
// work, then the signal) on an in-order OpenCL queue with profiling (kernel
// timestamps are real). Shared by regular lists (at execution) and immediate
// lists (at append).
#include "queue.hpp"

#include "context.hpp"
#include "device.hpp"
#include "event.hpp"
#include "image.hpp"
#include "kernel.hpp"
#include "kernel_enqueue.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>

namespace ze_driver {

namespace {

// The OpenCL events a command waits for: one per L0 event that is not
// signaled yet (see Signal::waitEvent). Owns its references.
class WaitList {
public:
    explicit WaitList(const std::vector<Event *> &waits) {
        try {
            events_.reserve(waits.size());
            for (Event *e : waits)
                if (cl_event ev = e->signal().waitEvent())
                    events_.push_back(ev);
        } catch (...) {
            release();
            throw;
        }
    }
    ~WaitList() { release(); }
    WaitList(const WaitList &) = delete;
    WaitList &operator=(const WaitList &) = delete;
    cl_uint size() const { return static_cast<cl_uint>(events_.size()); }
    const cl_event *data() const { return events_.empty() ? nullptr : events_.data(); }

private:
    void release() {
        for (cl_event ev : events_)
            clReleaseEvent(ev);
        events_.clear();
    }
    std::vector<cl_event> events_;
};

// Takes the event of an enqueued command: the L0 event (if any) is signaled
// when it completes.
void finishSignal(Event *signal, cl_event event) {
    struct Release {
        cl_event e;
        ~Release() {
            if (e != nullptr)
                clReleaseEvent(e);
        }
    } release{event};
    if (signal != nullptr && event != nullptr)
        signal->signal().setBy(event);
}

// A command without work of its own that only signals: in an in-order queue a
// marker completes after everything enqueued before it.
void enqueueMarker(cl_command_queue queue, const WaitList &waits, Event *signal) {
    if (signal == nullptr && waits.size() == 0)
        return;
    cl_event ev = nullptr;
    checkCl(clEnqueueBarrierWithWaitList(queue, waits.size(), waits.data(),
                                         signal != nullptr ? &ev : nullptr));
    finishSignal(signal, ev);
}

void enqueueCopyRegion(cl_command_queue queue, const Command &c) {
    WaitList waits(c.waits);
    if (waits.size() > 0)
        checkCl(clEnqueueBarrierWithWaitList(queue, waits.size(), waits.data(), nullptr));
    // One copy per row; the queue is in order, so the rows need no waits of
    // their own and a final marker signals after the last one.
    forEachRegionRow(c, [&](uint8_t *dst, const uint8_t *src, size_t bytes) {
        checkCl(clEnqueueSVMMemcpy(queue, CL_FALSE, dst, src, bytes, 0, nullptr, nullptr));
    });
    enqueueMarker(queue, WaitList({}), c.signal);
}

// A barrier with wait events is gated by those events only, not by the work
// before it in the list: its signal is set on the host as soon as every wait
// event is signaled. Later commands still wait for the events (through the
// queue) and for the work before (the queue is in order).
void enqueueGatedBarrier(cl_command_queue queue, const Command &c) {
    if (c.signal != nullptr) {
        auto remaining = std::make_shared<std::atomic<size_t>>(c.waits.size());
        std::shared_ptr<Signal> target = c.signal->sharedSignal();
        for (Event *e : c.waits)
            e->signal().whenSet([remaining, target] {
                if (--*remaining == 0)
                    target->set();
            });
    }
    WaitList waits(c.waits);
    if (waits.size() > 0)
        checkCl(clEnqueueBarrierWithWaitList(queue, waits.size(), waits.data(), nullptr));
}

// Runs `task` on the device, in queue order, as an OpenCL native kernel: for
// commands whose work is host code that must happen when the command is
// reached (after earlier commands, before later ones).
void enqueueHostTask(cl_command_queue queue, const WaitList &waits, Event *signal,
                     std::function<void()> task) {
    using Task = std::function<void()>;
    auto *heap = new Task(std::move(task));
    struct Args {
        Task *task;
    } args{heap};
    auto run = [](void *raw) {
        std::unique_ptr<Task> t(static_cast<Args *>(raw)->task);
        (*t)();
    };
    cl_event ev = nullptr;
    cl_int err =
        clEnqueueNativeKernel(queue, run, &args, sizeof(args), 0, nullptr, nullptr, waits.size(),
                              waits.data(), signal != nullptr ? &ev : nullptr);
    if (err != CL_SUCCESS) {
        delete heap;
        checkCl(err);
    }
    finishSignal(signal, ev);
}

void enqueueImageCommand(cl_command_queue queue, const Command &c) {
    WaitList waits(c.waits);
    cl_event ev = nullptr;
    cl_event *out = c.signal != nullptr ? &ev : nullptr;
    switch (c.type) {
    case Command::Type::ImageCopy:
        checkCl(clEnqueueCopyImage(queue, c.srcImage->native().cl, c.dstImage->native().cl,
                                   c.srcOrigin, c.dstOrigin, c.pixels, waits.size(), waits.data(),
                                   out));
        break;
    case Command::Type::ImageToMemory:
        checkCl(clEnqueueReadImage(queue, c.srcImage->native().cl, CL_FALSE, c.srcOrigin, c.pixels,
                                   c.dstPitch, c.dstSlicePitch, c.dst, waits.size(), waits.data(),
                                   out));
        break;
    default: // ImageFromMemory
        checkCl(clEnqueueWriteImage(queue, c.dstImage->native().cl, CL_FALSE, c.dstOrigin,
                                    c.pixels, c.srcPitch, c.srcSlicePitch, c.src, waits.size(),
                                    waits.data(), out));
        break;
    }
    finishSignal(c.signal, ev);
}

void enqueueQueryTimestamps(cl_command_queue queue, const Command &c) {
    // The task runs after the queried events' commands (they are in its wait
    // list), but their completion callbacks may still be on the way: isSet()
    // asks OpenCL directly and records the times.
    std::vector<Event *> all(c.waits);
    all.insert(all.end(), c.queried.begin(), c.queried.end());
    WaitList waits(all);
    std::vector<std::shared_ptr<Signal>> signals;
    for (Event *e : c.queried)
        signals.push_back(e->sharedSignal());
    auto *dst = static_cast<uint8_t *>(c.dst);
    std::vector<size_t> offsets = c.offsets;
    enqueueHostTask(queue, waits, c.signal,
                    [signals, dst, offsets] { writeKernelTimestamps(signals, dst, offsets); });
}

// OpenCL has no indirect dispatch: the group counts can only be read once
// the work before the launch is done, and the host must not block for it at
// append time (the counts may be written by work that waits on an event the
// host signals later). So the queue gets a marker (the launch's turn) and a
// barrier on a user event (the launch's end); a helper thread waits for the
// marker, reads the counts, runs the kernel on a queue of its own, then
// completes the user event, which lets the queue move on.
void enqueueIndirectLaunch(cl_command_queue queue, const Command &c) {
    cl_context context = nullptr;
    cl_device_id device = nullptr;
    checkCl(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof(context), &context, nullptr));
    checkCl(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof(device), &device, nullptr));
    cl_int err = CL_SUCCESS;
    cl_event done = clCreateUserEvent(context, &err);
    checkCl(err);
    cl_event turn = nullptr;
    {
        WaitList waits(c.waits);
        err = clEnqueueMarkerWithWaitList(queue, waits.size(), waits.data(), &turn);
    }
    if (err != CL_SUCCESS) {
        clReleaseEvent(done);
        checkCl(err);
    }
    cl_event end = nullptr;
    err = clEnqueueBarrierWithWaitList(queue, 1, &done, c.signal != nullptr ? &end : nullptr);
    if (err != CL_SUCCESS) {
        clSetUserEventStatus(done, CL_COMPLETE);
        clReleaseEvent(done);
        clReleaseEvent(turn);
        checkCl(err);
    }
    finishSignal(c.signal, end);
    clFlush(queue);
    // The thread owns copies of the arguments (an immediate list's launch
    // points at the kernel's current values, which may change meanwhile).
    auto batch = c.batch;
    if (batch.empty())
        batch.emplace_back(c.kernel, c.launch);
    for (auto &entry : batch)
        entry.second = std::make_shared<const KernelLaunch>(*entry.second);
    const ze_group_count_t *groups = c.indirectGroups;
    const uint32_t *count = c.indirectCount;
    clRetainContext(context);
    std::thread([=] {
        if (clWaitForEvents(1, &turn) == CL_SUCCESS) {
            cl_int e = CL_SUCCESS;
            cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
            cl_command_queue own = clCreateCommandQueueWithProperties(context, device, props, &e);
            if (e == CL_SUCCESS) {
                size_t n = batch.size();
                if (count != nullptr)
                    n = std::min<size_t>(n, *count);
                try {
                    for (size_t i = 0; i < n; ++i)
                        enqueueKernel(own, *batch[i].first, *batch[i].second, groups[i], 0, nullptr,
                                      false);
                } catch (...) {
                    // Nothing to report to: L0 has no error state for a launch.
                }
                clFinish(own);
                clReleaseCommandQueue(own);
            }
        }
        // Completed whatever happened, so the queue is never stuck.
        clSetUserEventStatus(done, CL_COMPLETE);
        clReleaseEvent(done);
        clReleaseEvent(turn);
        clReleaseContext(context);
    }).detach();
}

void enqueueLaunch(cl_command_queue queue, Kernel *kernel, const KernelLaunch &launch,
                   const ze_group_count_t &groups, Event *signal,
                   const std::vector<Event *> &waitEvents) {
    WaitList waits(waitEvents);
    cl_event ev = enqueueKernel(queue, *kernel, launch, groups, waits.size(), waits.data(),
                                signal != nullptr);
    finishSignal(signal, ev);
}

void enqueueCommand(cl_command_queue queue, const Command &c) {
    switch (c.type) {
    case Command::Type::Launch:
        enqueueLaunch(queue, c.kernel, *c.launch, c.groups, c.signal, c.waits);
        break;
    case Command::Type::LaunchIndirect:
        enqueueIndirectLaunch(queue, c);
        break;
    case Command::Type::Copy: {
        WaitList waits(c.waits);
        if (c.size == 0) {
            enqueueMarker(queue, waits, c.signal);
            break;
        }
        cl_event ev = nullptr;
        checkCl(clEnqueueSVMMemcpy(queue, CL_FALSE, c.dst, c.src, c.size, waits.size(),
                                   waits.data(), c.signal != nullptr ? &ev : nullptr));
        finishSignal(c.signal, ev);
        break;
    }
    case Command::Type::Fill: {
        WaitList waits(c.waits);
        if (c.size == 0) {
            enqueueMarker(queue, waits, c.signal);
            break;
        }
        size_t patternSize = c.pattern.size();
        bool openclCan =
            reinterpret_cast<uintptr_t>(c.dst) % patternSize == 0 && c.size % patternSize == 0;
        if (!openclCan) {
            // OpenCL wants the destination aligned to the pattern and whole
            // repetitions; L0 does not. The device is the host's CPU, so the
            // fill runs as host code in queue order, the last repetition cut short.
            auto *dst = static_cast<uint8_t *>(c.dst);
            size_t size = c.size;
            enqueueHostTask(queue, waits, c.signal, [dst, size, pattern = c.pattern] {
                for (size_t at = 0; at < size; at += pattern.size())
                    std::memcpy(dst + at, pattern.data(), std::min(pattern.size(), size - at));
            });
            break;
        }
        cl_event ev = nullptr;
        checkCl(clEnqueueSVMMemFill(queue, c.dst, c.pattern.data(), patternSize, c.size,
                                    waits.size(), waits.data(),
                                    c.signal != nullptr ? &ev : nullptr));
        finishSignal(c.signal, ev);
        break;
    }
    case Command::Type::CopyRegion:
        enqueueCopyRegion(queue, c);
        break;
    case Command::Type::Barrier:
        if (c.waits.empty())
            enqueueMarker(queue, WaitList({}), c.signal);
        else
            enqueueGatedBarrier(queue, c);
        break;
    case Command::Type::Signal: {
        cl_event ev = nullptr;
        checkCl(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &ev));
        finishSignal(c.signal, ev);
        break;
    }
    case Command::Type::Wait: {
        WaitList waits(c.waits);
        if (waits.size() > 0)
            checkCl(clEnqueueBarrierWithWaitList(queue, waits.size(), waits.data(), nullptr));
        break;
    }
    case Command::Type::WriteTimestamp: {
        auto *dst = static_cast<uint64_t *>(c.dst);
        enqueueHostTask(queue, WaitList(c.waits), c.signal, [dst] { *dst = deviceTimeNs(); });
        break;
    }
    case Command::Type::QueryTimestamps:
        enqueueQueryTimestamps(queue, c);
        break;
    case Command::Type::ImageCopy:
    case Command::Type::ImageToMemory:
    case Command::Type::ImageFromMemory:
        enqueueImageCommand(queue, c);
        break;
    case Command::Type::Reset:
        // Done on the host when the command is reached in submission order:
        // the queue is in order, and a signal attached earlier is dropped by
        // the reset (Signal's generation), which is what running it would do.
        c.signal->signal().reset();
        break;
    }
}

} // namespace

Queue::Queue(Context *context, Device *device) {
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int err = CL_SUCCESS;
    queue_ =
        clCreateCommandQueueWithProperties(context->native().cl, device->native().id, props, &err);
    checkCl(err);
}

// No clFinish: work still waiting for an event that is never signaled would
// hang the destroying thread. OpenCL keeps the queue alive until its
// commands are done; the application must not free what they use.
Queue::~Queue() {
    clFlush(queue_);
    clReleaseCommandQueue(queue_);
}

void Queue::enqueue(const Command &command) {
    enqueueCommand(queue_, command);
}

void Queue::launch(Kernel *kernel, const ze_group_count_t &groups, Event *signal,
                   const std::vector<Event *> &waits) {
    enqueueLaunch(queue_, kernel, kernel->launch(), groups, signal, waits);
}

void Queue::flush() {
    checkCl(clFlush(queue_));
}

void Queue::finish() {
    checkCl(clFinish(queue_));
}

void Queue::signalWhenDone(Signal &signal, Signal *also) {
    // In an in-order queue a marker completes after everything before it.
    cl_event marker = nullptr;
    checkCl(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &marker));
    try {
        signal.setBy(marker);
        if (also != nullptr)
            also->setBy(marker);
    } catch (...) {
        clReleaseEvent(marker);
        throw;
    }
    clReleaseEvent(marker);
}

} // namespace ze_driver
