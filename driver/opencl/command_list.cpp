// Command lists (regular and immediate) and the CommandList DDI table.
#include "command_list.hpp"

#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "event.hpp"
#include "image.hpp"
#include "module.hpp"

#include <level_zero/ze_ddi.h>

#include <algorithm>
#include <memory>

namespace ze_driver {

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
    finishImmediate(command.type != Command::Type::Reset ? command.signal : nullptr);
}

void CommandList::launchNow(Kernel *kernel, const ze_group_count_t &groups, Event *signal,
                            const std::vector<Event *> &waits) {
    std::lock_guard<std::mutex> lock(mutex_);
    enqueueLaunch(queue_, kernel, kernel->launch(), groups, signal, waits);
    finishImmediate(signal);
}

void CommandList::finishImmediate(Event *signal) {
    if (mode_ == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS) {
        checkCl(clFinish(queue_));
        // A barrier gated by events signals from their completion callbacks,
        // which may run just after clFinish returns.
        if (signal != nullptr)
            signal->signal().waitFor(UINT64_MAX);
    } else {
        checkCl(clFlush(queue_));
    }
}

void CommandList::close() {
    closed_ = true;
}

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

// Memory is coherent (fine-grain SVM): a ranges barrier is a plain barrier.
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

// Every SVM allocation of the platform is host memory, so a copy from another
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

// Image copies. Regions are in pixels; a null region is the whole image.
// The regions of a copy between images must be the same size; the copy
// goes where the destination region starts.
ze_result_t appendImageCopy(const char *entry, ze_command_list_handle_t hCommandList,
                            ze_image_handle_t hDstImage, ze_image_handle_t hSrcImage,
                            const ze_image_region_t *pDstRegion,
                            const ze_image_region_t *pSrcRegion, ze_event_handle_t hSignalEvent,
                            uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary(entry, [&] {
        CommandList *list = listOf(hCommandList);
        Image *dst = fromHandle<Image>(hDstImage);
        Image *src = fromHandle<Image>(hSrcImage);
        Command c =
            makeCommand(list, Command::Type::ImageCopy, hSignalEvent, numWaitEvents, phWaitEvents);
        size_t dstRegion[3];
        src->clRegion(pSrcRegion, c.srcOrigin, c.region);
        dst->clRegion(pDstRegion, c.dstOrigin, dstRegion);
        check(std::equal(c.region, c.region + 3, dstRegion), ZE_RESULT_ERROR_INVALID_ARGUMENT);
        c.dstImage = dst->cl();
        c.srcImage = src->cl();
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopyRegion(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage,
    ze_image_handle_t hSrcImage, const ze_image_region_t *pDstRegion,
    const ze_image_region_t *pSrcRegion, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return appendImageCopy(__func__, hCommandList, hDstImage, hSrcImage, pDstRegion, pSrcRegion,
                           hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopy(ze_command_list_handle_t hCommandList,
                                                    ze_image_handle_t hDstImage,
                                                    ze_image_handle_t hSrcImage,
                                                    ze_event_handle_t hSignalEvent,
                                                    uint32_t numWaitEvents,
                                                    ze_event_handle_t *phWaitEvents) {
    return appendImageCopy(__func__, hCommandList, hDstImage, hSrcImage, nullptr, nullptr,
                           hSignalEvent, numWaitEvents, phWaitEvents);
}

// Pitches of 0 are rows and slices packed.
ze_result_t appendImageToMemory(const char *entry, ze_command_list_handle_t hCommandList,
                                void *dstptr, ze_image_handle_t hSrcImage,
                                const ze_image_region_t *pSrcRegion, uint32_t destRowPitch,
                                uint32_t destSlicePitch, ze_event_handle_t hSignalEvent,
                                uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary(entry, [&] {
        CommandList *list = listOf(hCommandList);
        Image *src = fromHandle<Image>(hSrcImage);
        Command c = makeCommand(list, Command::Type::ImageToMemory, hSignalEvent, numWaitEvents,
                                phWaitEvents);
        c.dst = notNull(dstptr);
        src->clRegion(pSrcRegion, c.srcOrigin, c.region);
        c.srcImage = src->cl();
        c.rowPitch = destRowPitch;
        c.slicePitch = destSlicePitch;
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopyToMemory(
    ze_command_list_handle_t hCommandList, void *dstptr, ze_image_handle_t hSrcImage,
    const ze_image_region_t *pSrcRegion, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return appendImageToMemory(__func__, hCommandList, dstptr, hSrcImage, pSrcRegion, 0, 0,
                               hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopyToMemoryExt(
    ze_command_list_handle_t hCommandList, void *dstptr, ze_image_handle_t hSrcImage,
    const ze_image_region_t *pSrcRegion, uint32_t destRowPitch, uint32_t destSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return appendImageToMemory(__func__, hCommandList, dstptr, hSrcImage, pSrcRegion,
                               destRowPitch, destSlicePitch, hSignalEvent, numWaitEvents,
                               phWaitEvents);
}

ze_result_t appendImageFromMemory(const char *entry, ze_command_list_handle_t hCommandList,
                                  ze_image_handle_t hDstImage, const void *srcptr,
                                  const ze_image_region_t *pDstRegion, uint32_t srcRowPitch,
                                  uint32_t srcSlicePitch, ze_event_handle_t hSignalEvent,
                                  uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary(entry, [&] {
        CommandList *list = listOf(hCommandList);
        Image *dst = fromHandle<Image>(hDstImage);
        Command c = makeCommand(list, Command::Type::ImageFromMemory, hSignalEvent, numWaitEvents,
                                phWaitEvents);
        c.src = notNull(srcptr);
        dst->clRegion(pDstRegion, c.dstOrigin, c.region);
        c.dstImage = dst->cl();
        c.rowPitch = srcRowPitch;
        c.slicePitch = srcSlicePitch;
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopyFromMemory(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage, const void *srcptr,
    const ze_image_region_t *pDstRegion, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return appendImageFromMemory(__func__, hCommandList, hDstImage, srcptr, pDstRegion, 0, 0,
                                 hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeCommandListAppendImageCopyFromMemoryExt(
    ze_command_list_handle_t hCommandList, ze_image_handle_t hDstImage, const void *srcptr,
    const ze_image_region_t *pDstRegion, uint32_t srcRowPitch, uint32_t srcSlicePitch,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return appendImageFromMemory(__func__, hCommandList, hDstImage, srcptr, pDstRegion,
                                 srcRowPitch, srcSlicePitch, hSignalEvent, numWaitEvents,
                                 phWaitEvents);
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

// A kernel the list can launch now: of the list's driver, every argument set.
Kernel *launchable(CommandList *list, ze_kernel_handle_t hKernel) {
    Kernel *kernel = fromHandle<Kernel>(hKernel);
    check(kernel->module()->context()->driver() == list->context()->driver(),
          ZE_RESULT_ERROR_INVALID_ARGUMENT);
    kernel->checkReady();
    return kernel;
}

Command makeLaunch(CommandList *list, Command::Type type, ze_kernel_handle_t hKernel,
                   ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
                   ze_event_handle_t *phWaitEvents) {
    Kernel *kernel = launchable(list, hKernel);
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
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        const ze_group_count_t &groups = *notNull(pLaunchFuncArgs);
        const bool empty =
            groups.groupCountX == 0 || groups.groupCountY == 0 || groups.groupCountZ == 0;
        if (list->immediate() && !empty) {
            Kernel *kernel = launchable(list, hKernel);
            list->launchNow(kernel, groups, signalOf(hSignalEvent),
                            waitsOf(list, numWaitEvents, phWaitEvents));
            return ZE_RESULT_SUCCESS;
        }
        Command c = makeLaunch(list, Command::Type::Launch, hKernel, hSignalEvent, numWaitEvents,
                               phWaitEvents);
        c.groups = groups;
        // An empty launch has nothing to run; OpenCL rejects a zero global size.
        if (empty) {
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
    const ze_group_count_t *pLaunchFuncArgs, ze_event_handle_t hSignalEvent, uint32_t numWaitEvents,
    ze_event_handle_t *phWaitEvents) {
    return ze_driver::zeCommandListAppendLaunchKernel(hCommandList, hKernel, pLaunchFuncArgs,
                                                      hSignalEvent, numWaitEvents, phWaitEvents);
}

ze_result_t ZE_APICALL zeCommandListAppendLaunchKernelIndirect(
    ze_command_list_handle_t hCommandList, ze_kernel_handle_t hKernel,
    const ze_group_count_t *pLaunchArgumentsBuffer, ze_event_handle_t hSignalEvent,
    uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        notNull(pLaunchArgumentsBuffer);
        Command c = makeLaunch(list, Command::Type::LaunchIndirect, hKernel, hSignalEvent,
                               numWaitEvents, phWaitEvents);
        c.indirectGroups = pLaunchArgumentsBuffer;
        list->append(std::move(c));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandListAppendLaunchMultipleKernelsIndirect(
    ze_command_list_handle_t hCommandList, uint32_t numKernels, ze_kernel_handle_t *phKernels,
    const uint32_t *pCountBuffer, const ze_group_count_t *pLaunchArgumentsBuffer,
    ze_event_handle_t hSignalEvent, uint32_t numWaitEvents, ze_event_handle_t *phWaitEvents) {
    return boundary(__func__, [&] {
        CommandList *list = listOf(hCommandList);
        notNull(phKernels);
        notNull(pCountBuffer);
        notNull(pLaunchArgumentsBuffer);
        Command c = makeCommand(list, Command::Type::LaunchIndirect, hSignalEvent, numWaitEvents,
                                phWaitEvents);
        for (uint32_t i = 0; i < numKernels; ++i) {
            Command one =
                makeLaunch(list, Command::Type::LaunchIndirect, phKernels[i], nullptr, 0, nullptr);
            c.batch.emplace_back(one.kernel, std::move(one.launch));
        }
        c.indirectGroups = pLaunchArgumentsBuffer;
        c.indirectCount = pCountBuffer;
        if (numKernels == 0)
            c.type = Command::Type::Barrier; // nothing can run: only waits and the signal
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
    t->pfnAppendImageCopy = zeCommandListAppendImageCopy;
    t->pfnAppendImageCopyRegion = zeCommandListAppendImageCopyRegion;
    t->pfnAppendImageCopyToMemory = zeCommandListAppendImageCopyToMemory;
    t->pfnAppendImageCopyFromMemory = zeCommandListAppendImageCopyFromMemory;
    t->pfnAppendMemoryPrefetch = zeCommandListAppendMemoryPrefetch;
    t->pfnAppendMemAdvise = zeCommandListAppendMemAdvise;
    t->pfnAppendSignalEvent = zeCommandListAppendSignalEvent;
    t->pfnAppendWaitOnEvents = zeCommandListAppendWaitOnEvents;
    t->pfnAppendEventReset = zeCommandListAppendEventReset;
    t->pfnAppendQueryKernelTimestamps = zeCommandListAppendQueryKernelTimestamps;
    t->pfnAppendLaunchKernel = zeCommandListAppendLaunchKernel;
    t->pfnAppendLaunchCooperativeKernel = zeCommandListAppendLaunchCooperativeKernel;
    t->pfnAppendLaunchKernelIndirect = zeCommandListAppendLaunchKernelIndirect;
    t->pfnAppendLaunchMultipleKernelsIndirect = zeCommandListAppendLaunchMultipleKernelsIndirect;
    t->pfnAppendImageCopyToMemoryExt = zeCommandListAppendImageCopyToMemoryExt;
    t->pfnAppendImageCopyFromMemoryExt = zeCommandListAppendImageCopyFromMemoryExt;
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
