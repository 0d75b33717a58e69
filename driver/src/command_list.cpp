// Command lists (regular and immediate), the one function that turns a
// command into OpenCL work, and the CommandList DDI table.
#include "command_list.hpp"

#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "event.hpp"
#include "module.hpp"

#include <level_zero/ze_ddi.h>

#include <memory>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <thread>

namespace ze_opencl {

cl_command_queue createClQueue(Context *context, Device *device) {
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    cl_int err = CL_SUCCESS;
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context->cl(), device->id(), props, &err);
    checkCl(err);
    return queue;
}

namespace {

// The OpenCL events a command waits for: one per L0 event that is not
// signaled yet (see Signal::waitEvent). Owns its references.
class WaitList {
public:
    explicit WaitList(const std::vector<Event *> &waits) {
        events_.reserve(waits.size());
        for (Event *e : waits)
            if (cl_event ev = e->signal().waitEvent())
                events_.push_back(ev);
    }
    ~WaitList() {
        for (cl_event ev : events_)
            clReleaseEvent(ev);
    }
    WaitList(const WaitList &) = delete;
    WaitList &operator=(const WaitList &) = delete;
    cl_uint size() const { return static_cast<cl_uint>(events_.size()); }
    const cl_event *data() const { return events_.empty() ? nullptr : events_.data(); }

private:
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
    const auto *src = static_cast<const uint8_t *>(c.src);
    auto *dst = static_cast<uint8_t *>(c.dst);
    // A 2D region may say depth 0, a 1D one height 0: one slice, one row.
    uint32_t depth = std::max(c.srcRegion.depth, 1u), height = std::max(c.srcRegion.height, 1u);
    for (uint32_t z = 0; z < depth; ++z) {
        for (uint32_t y = 0; y < height; ++y) {
            size_t s = size_t(c.srcRegion.originZ + z) * c.srcSlicePitch +
                       size_t(c.srcRegion.originY + y) * c.srcPitch + c.srcRegion.originX;
            size_t d = size_t(c.dstRegion.originZ + z) * c.dstSlicePitch +
                       size_t(c.dstRegion.originY + y) * c.dstPitch + c.dstRegion.originX;
            if (c.srcRegion.width > 0)
                checkCl(clEnqueueSVMMemcpy(queue, CL_FALSE, dst + d, src + s, c.srcRegion.width, 0,
                                           nullptr, nullptr));
        }
    }
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
    cl_int err = clEnqueueNativeKernel(queue, run, &args, sizeof(args), 0, nullptr, nullptr,
                                       waits.size(), waits.data(),
                                       signal != nullptr ? &ev : nullptr);
    if (err != CL_SUCCESS) {
        delete heap;
        checkCl(err);
    }
    finishSignal(signal, ev);
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
    enqueueHostTask(queue, waits, c.signal, [signals, dst, offsets] {
        for (size_t i = 0; i < signals.size(); ++i) {
            ze_kernel_timestamp_result_t r = {};
            if (signals[i]->isSet()) {
                uint64_t start, end;
                signals[i]->timestamps(&start, &end);
                r.global.kernelStart = r.context.kernelStart = start;
                r.global.kernelEnd = r.context.kernelEnd = end;
            }
            size_t at = offsets.empty() ? i * sizeof(r) : offsets[i];
            std::memcpy(dst + at, &r, sizeof(r));
        }
    });
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
    // The thread owns a copy of the arguments (an immediate list's launch
    // points at the kernel's current values, which may change meanwhile).
    auto launch = std::make_shared<const KernelLaunch>(*c.launch);
    Kernel *kernel = c.kernel;
    const ze_group_count_t *counts = c.indirectGroups;
    clRetainContext(context);
    std::thread([=] {
        if (clWaitForEvents(1, &turn) == CL_SUCCESS) {
            cl_int e = CL_SUCCESS;
            cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
            cl_command_queue own = clCreateCommandQueueWithProperties(context, device, props, &e);
            if (e == CL_SUCCESS) {
                try {
                    cl_event ran = kernel->enqueue(own, *launch, *counts, 0, nullptr, true);
                    clWaitForEvents(1, &ran);
                    clReleaseEvent(ran);
                } catch (...) {
                    // Nothing to report to: L0 has no error state for a launch.
                }
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

} // namespace

void enqueueCommand(cl_command_queue queue, const Command &c) {
    switch (c.type) {
    case Command::Type::Launch: {
        WaitList waits(c.waits);
        cl_event ev = c.kernel->enqueue(queue, *c.launch, c.groups, waits.size(), waits.data(),
                                        c.signal != nullptr);
        finishSignal(c.signal, ev);
        break;
    }
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
        bool openclCan = reinterpret_cast<uintptr_t>(c.dst) % patternSize == 0 &&
                         c.size % patternSize == 0;
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
    case Command::Type::Reset:
        // Done on the host when the command is reached in submission order:
        // the queue is in order, and a signal attached earlier is dropped by
        // the reset (Signal's generation), which is what running it would do.
        c.signal->signal().reset();
        break;
    }
}

CommandList::CommandList(Context *context, Device *device, bool immediate,
                         ze_command_queue_mode_t mode)
    : Object(kTag), context_(context), device_(device), immediate_(immediate), mode_(mode) {}

// No clFinish: work still waiting for an event that is never signaled would
// hang the destroying thread. OpenCL keeps the queue alive until its
// commands are done; the application must not free what they use.
CommandList::~CommandList() {
    if (queue_ != nullptr) {
        clFlush(queue_);
        clReleaseCommandQueue(queue_);
    }
}

void CommandList::init() {
    if (immediate_)
        queue_ = createClQueue(context_, device_);
}

void CommandList::append(Command command) {
    if (!immediate_) {
        check(!closed_, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        commands_.push_back(std::move(command));
        return;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    enqueueCommand(queue_, command);
    if (mode_ == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS) {
        checkCl(clFinish(queue_));
        // A barrier gated by events signals from their completion callbacks,
        // which may run just after clFinish returns.
        if (command.signal != nullptr && command.type != Command::Type::Reset)
            command.signal->signal().waitFor(UINT64_MAX);
    } else {
        checkCl(clFlush(queue_));
    }
}

void CommandList::close() { closed_ = true; }

void CommandList::reset() {
    if (immediate_) {
        std::lock_guard<std::mutex> lock(mutex_);
        checkCl(clFinish(queue_));
        return;
    }
    commands_.clear();
    closed_ = false;
}

void CommandList::replay(cl_command_queue queue) const {
    for (const Command &c : commands_)
        enqueueCommand(queue, c);
}

namespace {

CommandList *listOf(ze_command_list_handle_t h) { return fromHandle<CommandList>(h); }

Event *eventOf(CommandList *list, ze_event_handle_t h) {
    Event *e = fromHandle<Event>(h);
    check(e->pool()->context() == list->context(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    return e;
}

// The common part of every append: the optional signal event and the wait list.
Command makeCommand(CommandList *list, Command::Type type, ze_event_handle_t hSignal,
                    uint32_t numWaits, ze_event_handle_t *phWaits) {
    check(numWaits == 0 || phWaits != nullptr, ZE_RESULT_ERROR_INVALID_SIZE);
    Command c;
    c.type = type;
    if (hSignal != nullptr)
        c.signal = eventOf(list, hSignal);
    c.waits.reserve(numWaits);
    for (uint32_t i = 0; i < numWaits; ++i)
        c.waits.push_back(eventOf(list, phWaits[i]));
    return c;
}

ze_result_t ZE_APICALL zeCommandListCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                           const ze_command_list_desc_t *desc,
                                           ze_command_list_handle_t *phCommandList) {
    return boundary([&] {
        Context *context = fromHandle<Context>(hContext);
        Device *device = fromHandle<Device>(hDevice);
        check(context->driver()->owns(device), ZE_RESULT_ERROR_INVALID_ARGUMENT);
        notNull(desc);
        notNull(phCommandList);
        check(desc->commandQueueGroupOrdinal == 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        auto list = std::make_unique<CommandList>(context, device, false,
                                                  ZE_COMMAND_QUEUE_MODE_DEFAULT);
        list->init();
        *phCommandList = toHandle<CommandList, ze_command_list_handle_t>(list.release());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListCreateImmediate(ze_context_handle_t hContext,
                                                    ze_device_handle_t hDevice,
                                                    const ze_command_queue_desc_t *desc,
                                                    ze_command_list_handle_t *phCommandList) {
    return boundary([&] {
        Context *context = fromHandle<Context>(hContext);
        Device *device = fromHandle<Device>(hDevice);
        check(context->driver()->owns(device), ZE_RESULT_ERROR_INVALID_ARGUMENT);
        notNull(desc);
        notNull(phCommandList);
        check(desc->ordinal == 0 && desc->index == 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        auto list = std::make_unique<CommandList>(context, device, true, desc->mode);
        list->init();
        *phCommandList = toHandle<CommandList, ze_command_list_handle_t>(list.release());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListDestroy(ze_command_list_handle_t hCommandList) {
    return boundary([&] {
        delete listOf(hCommandList);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListClose(ze_command_list_handle_t hCommandList) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        if (!list->immediate())
            list->close();
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListReset(ze_command_list_handle_t hCommandList) {
    return boundary([&] {
        listOf(hCommandList)->reset();
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendBarrier(ze_command_list_handle_t hCommandList,
                                                  ze_event_handle_t hSignalEvent,
                                                  uint32_t numWaitEvents,
                                                  ze_event_handle_t *phWaitEvents) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        list->append(makeCommand(list, Command::Type::Barrier, hSignalEvent, numWaitEvents,
                                 phWaitEvents));
        return ZE_RESULT_SUCCESS;
    });
}

// Memory is coherent (fine-grain SVM): a ranges barrier is a plain barrier.
ze_result_t ZE_APICALL zeCommandListAppendMemoryRangesBarrier(
    ze_command_list_handle_t hCommandList, uint32_t numRanges, const size_t *pRangeSizes,
    const void **pRanges, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        check(numRanges == 0 || (pRangeSizes != nullptr && pRanges != nullptr),
              ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        list->append(makeCommand(list, Command::Type::Barrier, hSignalEvent, numWaitEvents,
                                 phWaitEvents));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendMemoryCopy(ze_command_list_handle_t hCommandList,
                                                     void *dstptr, const void *srcptr, size_t size,
                                                     ze_event_handle_t hSignalEvent,
                                                     uint32_t numWaitEvents,
                                                     ze_event_handle_t *phWaitEvents) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        notNull(dstptr);
        notNull(srcptr);
        Command c =
            makeCommand(list, Command::Type::Copy, hSignalEvent, numWaitEvents, phWaitEvents);
        c.dst = dstptr;
        c.src = srcptr;
        c.size = size;
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

// Every SVM allocation of the platform is host memory, so a copy from another
// context's allocation is an ordinary copy.
ze_result_t ZE_APICALL zeCommandListAppendMemoryCopyFromContext(
    ze_command_list_handle_t hCommandList, void *dstptr, ze_context_handle_t hContextSrc,
    const void *srcptr, size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return boundary([&] {
        fromHandle<Context>(hContextSrc);
        return ze_opencl::zeCommandListAppendMemoryCopy(hCommandList, dstptr, srcptr, size, hSignalEvent,
                                             numWaitEvents, phWaitEvents);
    });
}

ze_result_t ZE_APICALL zeCommandListAppendMemoryFill(ze_command_list_handle_t hCommandList,
                                                     void *ptr, const void *pattern,
                                                     size_t patternSize, size_t size,
                                                     ze_event_handle_t hSignalEvent,
                                                     uint32_t numWaitEvents,
                                                     ze_event_handle_t *phWaitEvents) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        notNull(ptr);
        notNull(pattern);
        // A power-of-two pattern of at most the queue group's
        // maxMemoryFillPatternSize; the size need not be a multiple of it.
        check(patternSize > 0 && patternSize <= 128 && (patternSize & (patternSize - 1)) == 0,
              ZE_RESULT_ERROR_INVALID_SIZE);
        Command c =
            makeCommand(list, Command::Type::Fill, hSignalEvent, numWaitEvents, phWaitEvents);
        c.dst = ptr;
        c.size = size;
        c.pattern.assign(static_cast<const uint8_t *>(pattern),
                         static_cast<const uint8_t *>(pattern) + patternSize);
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendMemoryCopyRegion(
    ze_command_list_handle_t hCommandList, void *dstptr, const ze_copy_region_t *dstRegion,
    uint32_t dstPitch, uint32_t dstSlicePitch, const void *srcptr,
    const ze_copy_region_t *srcRegion, uint32_t srcPitch, uint32_t srcSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        notNull(dstptr);
        notNull(srcptr);
        notNull(dstRegion);
        notNull(srcRegion);
        check(dstRegion->width == srcRegion->width && dstRegion->height == srcRegion->height &&
                  dstRegion->depth == srcRegion->depth,
              ZE_RESULT_ERROR_INVALID_ARGUMENT);
        check(srcRegion->originX + uint64_t(srcRegion->width) <= srcPitch &&
                  dstRegion->originX + uint64_t(dstRegion->width) <= dstPitch,
              ZE_RESULT_ERROR_INVALID_ARGUMENT);
        Command c = makeCommand(list, Command::Type::CopyRegion, hSignalEvent, numWaitEvents,
                                phWaitEvents);
        c.dst = dstptr;
        c.src = srcptr;
        c.dstRegion = *dstRegion;
        c.srcRegion = *srcRegion;
        c.dstPitch = dstPitch;
        c.srcPitch = srcPitch;
        // A 2D copy (depth 1) need not give a slice pitch.
        c.dstSlicePitch = dstSlicePitch != 0 ? dstSlicePitch : dstPitch * (dstRegion->originY + dstRegion->height);
        c.srcSlicePitch = srcSlicePitch != 0 ? srcSlicePitch : srcPitch * (srcRegion->originY + srcRegion->height);
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

// Memory is already where every device can reach it: hints change nothing.
ze_result_t ZE_APICALL zeCommandListAppendMemoryPrefetch(ze_command_list_handle_t hCommandList,
                                                         const void *ptr, size_t) {
    return boundary([&] {
        listOf(hCommandList);
        notNull(ptr);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendMemAdvise(ze_command_list_handle_t hCommandList,
                                                    ze_device_handle_t hDevice, const void *ptr,
                                                    size_t, ze_memory_advice_t) {
    return boundary([&] {
        listOf(hCommandList);
        fromHandle<Device>(hDevice);
        notNull(ptr);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendSignalEvent(ze_command_list_handle_t hCommandList,
                                                      ze_event_handle_t hEvent) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        check(hEvent != nullptr, ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        list->append(makeCommand(list, Command::Type::Signal, hEvent, 0, nullptr));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendWaitOnEvents(ze_command_list_handle_t hCommandList,
                                                       uint32_t numEvents,
                                                       ze_event_handle_t *phEvents) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        notNull(phEvents);
        list->append(makeCommand(list, Command::Type::Wait, nullptr, numEvents, phEvents));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendEventReset(ze_command_list_handle_t hCommandList,
                                                     ze_event_handle_t hEvent) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        check(hEvent != nullptr, ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        list->append(makeCommand(list, Command::Type::Reset, hEvent, 0, nullptr));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendWriteGlobalTimestamp(
    ze_command_list_handle_t hCommandList, uint64_t *dstptr, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        notNull(dstptr);
        Command c = makeCommand(list, Command::Type::WriteTimestamp, hSignalEvent, numWaitEvents,
                                phWaitEvents);
        c.dst = dstptr;
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendQueryKernelTimestamps(
    ze_command_list_handle_t hCommandList, uint32_t numEvents, ze_event_handle_t *phEvents,
    void *dstptr, const size_t *pOffsets, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        notNull(phEvents);
        notNull(dstptr);
        Command c = makeCommand(list, Command::Type::QueryTimestamps, hSignalEvent, numWaitEvents,
                                phWaitEvents);
        for (uint32_t i = 0; i < numEvents; ++i) {
            Event *e = eventOf(list, phEvents[i]);
            check(e->pool()->timestamps(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
            c.queried.push_back(e);
        }
        if (pOffsets != nullptr)
            c.offsets.assign(pOffsets, pOffsets + numEvents);
        c.dst = dstptr;
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

Command makeLaunch(CommandList *list, Command::Type type, ze_kernel_handle_t hKernel,
                   ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                   ze_event_handle_t *phWaitEvents) {
    Kernel *kernel = fromHandle<Kernel>(hKernel);
    check(kernel->module()->context() == list->context(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    kernel->checkReady();
    Command c = makeCommand(list, type, hSignalEvent, numWaitEvents, phWaitEvents);
    c.kernel = kernel;
    if (list->immediate()) {
        // Enqueued before the append returns: the kernel's own values can be
        // used in place (a shared_ptr that owns nothing).
        c.launch = std::shared_ptr<const KernelLaunch>(std::shared_ptr<void>(), &kernel->launch());
    } else {
        c.launch = std::make_shared<const KernelLaunch>(kernel->launch());
    }
    return c;
}

ze_result_t ZE_APICALL zeCommandListAppendLaunchKernel(ze_command_list_handle_t hCommandList,
                                                       ze_kernel_handle_t hKernel,
                                                       const ze_group_count_t *pLaunchFuncArgs,
                                                       ze_event_handle_t hSignalEvent,
                                                       uint32_t numWaitEvents,
                                                       ze_event_handle_t *phWaitEvents) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        notNull(pLaunchFuncArgs);
        Command c = makeLaunch(list, Command::Type::Launch, hKernel, hSignalEvent, numWaitEvents,
                               phWaitEvents);
        c.groups = *pLaunchFuncArgs;
        // An empty launch has nothing to run; OpenCL rejects a zero global size.
        if (c.groups.groupCountX == 0 || c.groups.groupCountY == 0 || c.groups.groupCountZ == 0) {
            c.type = Command::Type::Barrier;
            c.kernel = nullptr;
            c.launch.reset();
        }
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

// Groups of a launch run concurrently as long as there are no more of them
// than zeKernelSuggestMaxCooperativeGroupCount says; the launch itself is an
// ordinary one.
ze_result_t ZE_APICALL zeCommandListAppendLaunchCooperativeKernel(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return ze_opencl::zeCommandListAppendLaunchKernel(hCommandList, hKernel, pLaunchFuncArgs, hSignalEvent,
                                           numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeCommandListAppendLaunchKernelIndirect(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchArgumentsBuffer, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary([&] {
        CommandList *list = listOf(hCommandList);
        notNull(pLaunchArgumentsBuffer);
        Command c = makeLaunch(list, Command::Type::LaunchIndirect, hKernel, hSignalEvent,
                               numWaitEvents, phWaitEvents);
        c.indirectGroups = pLaunchArgumentsBuffer;
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetCommandListProcAddrTable(ze_api_version_t version, ze_command_list_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnCreate = zeCommandListCreate;
    t->pfnCreateImmediate = zeCommandListCreateImmediate;
    t->pfnDestroy = zeCommandListDestroy;
    t->pfnClose = zeCommandListClose;
    t->pfnReset = zeCommandListReset;
    t->pfnAppendWriteGlobalTimestamp = zeCommandListAppendWriteGlobalTimestamp;
    t->pfnAppendBarrier = zeCommandListAppendBarrier;
    t->pfnAppendMemoryRangesBarrier = zeCommandListAppendMemoryRangesBarrier;
    t->pfnAppendMemoryCopy = zeCommandListAppendMemoryCopy;
    t->pfnAppendMemoryFill = zeCommandListAppendMemoryFill;
    t->pfnAppendMemoryCopyRegion = zeCommandListAppendMemoryCopyRegion;
    t->pfnAppendMemoryCopyFromContext = zeCommandListAppendMemoryCopyFromContext;
    setUnsupported(t->pfnAppendImageCopy);
    setUnsupported(t->pfnAppendImageCopyRegion);
    setUnsupported(t->pfnAppendImageCopyToMemory);
    setUnsupported(t->pfnAppendImageCopyFromMemory);
    t->pfnAppendMemoryPrefetch = zeCommandListAppendMemoryPrefetch;
    t->pfnAppendMemAdvise = zeCommandListAppendMemAdvise;
    t->pfnAppendSignalEvent = zeCommandListAppendSignalEvent;
    t->pfnAppendWaitOnEvents = zeCommandListAppendWaitOnEvents;
    t->pfnAppendEventReset = zeCommandListAppendEventReset;
    t->pfnAppendQueryKernelTimestamps = zeCommandListAppendQueryKernelTimestamps;
    t->pfnAppendLaunchKernel = zeCommandListAppendLaunchKernel;
    t->pfnAppendLaunchCooperativeKernel = zeCommandListAppendLaunchCooperativeKernel;
    t->pfnAppendLaunchKernelIndirect = zeCommandListAppendLaunchKernelIndirect;
    setUnsupported(t->pfnAppendLaunchMultipleKernelsIndirect);
    setUnsupported(t->pfnAppendImageCopyToMemoryExt);
    setUnsupported(t->pfnAppendImageCopyFromMemoryExt);
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_opencl
