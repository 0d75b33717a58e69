// Command lists (regular and immediate) and the CommandList DDI table.
#include "command_list.hpp"

#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "event.hpp"
#include "image.hpp"
#include "newer_api.hpp"

#include <level_zero/ze_ddi.h>

#include <algorithm>
#include <memory>

namespace ze_driver {

CommandList::CommandList(Context *context, Device *device, bool immediate,
                         ze_command_queue_mode_t mode)
    : Object(kTag), context_(context), device_(device), immediate_(immediate), mode_(mode) {}

// The queue goes without waiting for its work (see Queue's destructor).
CommandList::~CommandList() = default;

void CommandList::init() {
    if (immediate_)
        queue_ = std::make_unique<Queue>(context_, device_);
}

void CommandList::append(Command command) {
    if (!immediate_) {
        check(!closed_, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        commands_.push_back(std::move(command));
        return;
    }
    Event *signal = command.type != Command::Type::Reset ? command.signal : nullptr;
    immediately([&](Queue &queue) { queue.enqueue(command); }, signal);
}

void CommandList::finishImmediate(Event *signal) {
    if (mode_ == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS) {
        queue_->finish();
        // A barrier gated by events signals from their completion callbacks,
        // which may run just after the queue finishes.
        if (signal != nullptr)
            signal->signal().waitFor(UINT64_MAX);
    } else {
        queue_->flush();
    }
}

ze_result_t CommandList::hostSynchronize(uint64_t timeoutNs) {
    check(immediate_, ZE_RESULT_ERROR_INVALID_ARGUMENT);
    // A signal behind everything appended so far (the list's queue is in
    // order), as a command queue's synchronize has; one per batch of appends.
    std::shared_ptr<Signal> done;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (syncMarker_ == nullptr) {
            syncMarker_ = std::make_shared<Signal>(context_, false);
            queue_->signalWhenDone(*syncMarker_, nullptr);
            queue_->flush();
        }
        done = syncMarker_;
    }
    if (timeoutNs == UINT64_MAX) {
        queue_->finish();
        done->waitFor(UINT64_MAX); // the signal may be set just after the queue finishes
        return ZE_RESULT_SUCCESS;
    }
    return done->waitFor(timeoutNs) ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

void CommandList::close() {
    closed_ = true;
}

void CommandList::reset() {
    if (immediate_) {
        std::lock_guard<std::mutex> lock(mutex_);
        queue_->finish();
        return;
    }
    commands_.clear();
    closed_ = false;
}

void CommandList::replay(Queue &queue) const {
    for (const Command &c : commands_) {
        if (c.signal != nullptr && c.type != Command::Type::Reset)
            c.signal->beforeSignalingCommand();
        queue.enqueue(c);
    }
}

CommandList *listOf(ze_command_list_handle_t h) {
    return fromHandle<CommandList>(h);
}

Event *eventOf(CommandList *list, ze_event_handle_t h) {
    Event *e = fromHandle<Event>(h);
    check(e->context() == list->context(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    return e;
}

// The common part of every append: the optional signal event and the wait
// list. Wait events must be of the list's context, as the specification
// says: OpenCL would allow more (the driver's contexts share one OpenCL
// context), but callers rely on the refusal to find a list of the wrong
// context, since Level Zero 1.4 cannot query a list's context. The signal
// event may be of any context of the driver, since a completion callback
// sets it wherever it lives (IMEX's runtime signals events of one
// process-wide pool from the lists of every context).
Event *signalOf(ze_event_handle_t hSignal) {
    return hSignal != nullptr ? fromHandle<Event>(hSignal) : nullptr;
}

std::vector<Event *> waitsOf(CommandList *list, uint32_t numWaits, ze_event_handle_t *phWaits) {
    check(numWaits == 0 || phWaits != nullptr, ZE_RESULT_ERROR_INVALID_SIZE);
    std::vector<Event *> waits;
    waits.reserve(numWaits);
    for (uint32_t i = 0; i < numWaits; ++i)
        waits.push_back(eventOf(list, phWaits[i]));
    return waits;
}

Command makeCommand(CommandList *list, Command::Type type, ze_event_handle_t hSignal,
                    uint32_t numWaits, ze_event_handle_t *phWaits) {
    Command c;
    c.type = type;
    c.waits = waitsOf(list, numWaits, phWaits);
    c.signal = signalOf(hSignal);
    return c;
}

namespace {

ze_result_t ZE_APICALL zeCommandListCreate(ze_context_handle_t hContext, ze_device_handle_t hDevice,
                                           const ze_command_list_desc_t *desc,
                                           ze_command_list_handle_t *phCommandList) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        Device *device = context->deviceOf(hDevice);
        notNull(desc);
        notNull(phCommandList);
        check(desc->commandQueueGroupOrdinal == 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        auto list =
            std::make_unique<CommandList>(context, device, false, ZE_COMMAND_QUEUE_MODE_DEFAULT);
        list->init();
        *phCommandList = toHandle<CommandList, ze_command_list_handle_t>(list.release());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListCreateImmediate(ze_context_handle_t hContext,
                                                    ze_device_handle_t hDevice,
                                                    const ze_command_queue_desc_t *desc,
                                                    ze_command_list_handle_t *phCommandList) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        Device *device = context->deviceOf(hDevice);
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
    return boundary(__func__, [&] {
        delete listOf(hCommandList);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListClose(ze_command_list_handle_t hCommandList) {
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        if (!list->immediate())
            list->close();
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListHostSynchronize(ze_command_list_handle_t hCommandList,
                                                    uint64_t timeout) {
    return boundary(
        __func__, [&] { return fromHandle<CommandList>(hCommandList)->hostSynchronize(timeout); });
}

ze_result_t ZE_APICALL zeCommandListReset(ze_command_list_handle_t hCommandList) {
    return boundary(__func__, [&] {
        listOf(hCommandList)->reset();
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendBarrier(ze_command_list_handle_t hCommandList,
                                                  ze_event_handle_t hSignalEvent,
                                                  uint32_t numWaitEvents,
                                                  ze_event_handle_t *phWaitEvents) {
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        list->append(
            makeCommand(list, Command::Type::Barrier, hSignalEvent, numWaitEvents, phWaitEvents));
        return ZE_RESULT_SUCCESS;
    });
}

// A ranges barrier is a plain barrier: every command's writes are visible to
// the commands after it (coherent SVM on OpenCL, stream order on CUDA).
ze_result_t ZE_APICALL zeCommandListAppendMemoryRangesBarrier(
    ze_command_list_handle_t hCommandList, uint32_t numRanges, const size_t *pRangeSizes,
    const void **pRanges, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        check(numRanges == 0 || (pRangeSizes != nullptr && pRanges != nullptr),
              ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        list->append(
            makeCommand(list, Command::Type::Barrier, hSignalEvent, numWaitEvents, phWaitEvents));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendMemoryCopy(ze_command_list_handle_t hCommandList,
                                                     void *dstptr, const void *srcptr, size_t size,
                                                     ze_event_handle_t hSignalEvent,
                                                     uint32_t numWaitEvents,
                                                     ze_event_handle_t *phWaitEvents) {
    return boundary(__func__, [&] {
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

// The contexts of a driver share their memory, so a copy from another
// context's allocation is an ordinary copy.
ze_result_t ZE_APICALL zeCommandListAppendMemoryCopyFromContext(
    ze_command_list_handle_t hCommandList, void *dstptr, ze_context_handle_t hContextSrc,
    const void *srcptr, size_t size, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return boundary(__func__, [&] {
        fromHandle<Context>(hContextSrc);
        return ze_driver::zeCommandListAppendMemoryCopy(hCommandList, dstptr, srcptr, size,
                                                        hSignalEvent, numWaitEvents, phWaitEvents);
    });
}

ze_result_t ZE_APICALL zeCommandListAppendMemoryFill(ze_command_list_handle_t hCommandList,
                                                     void *ptr, const void *pattern,
                                                     size_t patternSize, size_t size,
                                                     ze_event_handle_t hSignalEvent,
                                                     uint32_t numWaitEvents,
                                                     ze_event_handle_t *phWaitEvents) {
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        notNull(ptr);
        notNull(pattern);
        // A power-of-two pattern of at most the queue group's
        // maxMemoryFillPatternSize; the size need not be a multiple of it.
        check(patternSize > 0 &&
                  patternSize <= list->device()->info().queueGroup.maxMemoryFillPatternSize &&
                  (patternSize & (patternSize - 1)) == 0,
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
    return boundary(__func__, [&] {
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
        Command c =
            makeCommand(list, Command::Type::CopyRegion, hSignalEvent, numWaitEvents, phWaitEvents);
        c.dst = dstptr;
        c.src = srcptr;
        c.dstRegion = *dstRegion;
        c.srcRegion = *srcRegion;
        c.dstPitch = dstPitch;
        c.srcPitch = srcPitch;
        // A 2D copy (depth 1) need not give a slice pitch.
        c.dstSlicePitch = dstSlicePitch != 0 ? dstSlicePitch
                                             : dstPitch * (dstRegion->originY + dstRegion->height);
        c.srcSlicePitch = srcSlicePitch != 0 ? srcSlicePitch
                                             : srcPitch * (srcRegion->originY + srcRegion->height);
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

// Memory is already where every device can reach it: hints change nothing.
ze_result_t ZE_APICALL zeCommandListAppendMemoryPrefetch(ze_command_list_handle_t hCommandList,
                                                         const void *ptr, size_t) {
    return boundary(__func__, [&] {
        listOf(hCommandList);
        notNull(ptr);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendMemAdvise(ze_command_list_handle_t hCommandList,
                                                    ze_device_handle_t hDevice, const void *ptr,
                                                    size_t, ze_memory_advice_t) {
    return boundary(__func__, [&] {
        listOf(hCommandList);
        fromHandle<Device>(hDevice);
        notNull(ptr);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendSignalEvent(ze_command_list_handle_t hCommandList,
                                                      ze_event_handle_t hEvent) {
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        check(hEvent != nullptr, ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        list->append(makeCommand(list, Command::Type::Signal, hEvent, 0, nullptr));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendWaitOnEvents(ze_command_list_handle_t hCommandList,
                                                       uint32_t numEvents,
                                                       ze_event_handle_t *phEvents) {
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        notNull(phEvents);
        list->append(makeCommand(list, Command::Type::Wait, nullptr, numEvents, phEvents));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendEventReset(ze_command_list_handle_t hCommandList,
                                                     ze_event_handle_t hEvent) {
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        check(hEvent != nullptr, ZE_RESULT_ERROR_INVALID_NULL_HANDLE);
        list->append(makeCommand(list, Command::Type::Reset, hEvent, 0, nullptr));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendWriteGlobalTimestamp(
    ze_command_list_handle_t hCommandList, uint64_t *dstptr, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary(__func__, [&] {
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
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        notNull(phEvents);
        notNull(dstptr);
        Command c = makeCommand(list, Command::Type::QueryTimestamps, hSignalEvent, numWaitEvents,
                                phWaitEvents);
        for (uint32_t i = 0; i < numEvents; ++i) {
            Event *e = eventOf(list, phEvents[i]);
            check(e->timestamps(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
            c.queried.push_back(e);
        }
        if (pOffsets != nullptr)
            c.offsets.assign(pOffsets, pOffsets + numEvents);
        c.dst = dstptr;
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
    t->pfnAppendMemoryPrefetch = zeCommandListAppendMemoryPrefetch;
    t->pfnAppendMemAdvise = zeCommandListAppendMemAdvise;
    t->pfnAppendSignalEvent = zeCommandListAppendSignalEvent;
    t->pfnAppendWaitOnEvents = zeCommandListAppendWaitOnEvents;
    t->pfnAppendEventReset = zeCommandListAppendEventReset;
    t->pfnAppendQueryKernelTimestamps = zeCommandListAppendQueryKernelTimestamps;
    setLaunchAppends(t);
    imageCommandListEntries(t);
    if (auto *newer = newerTable<CommandListTable1_6>(t, version, kApiVersion1_6))
        newer->pfnHostSynchronize = zeCommandListHostSynchronize;
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
