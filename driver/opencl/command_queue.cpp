// Command queues and the CommandQueue DDI table.
#include "command_queue.hpp"

#include "command_list.hpp"
#include "context.hpp"
#include "device.hpp"
#include "driver.hpp"
#include "fence.hpp"

#include <level_zero/ze_ddi.h>

#include <memory>

namespace ze_driver {

CommandQueue::CommandQueue(Context *context, Device *device, ze_command_queue_mode_t mode)
    : Object(kTag), context_(context), device_(device), mode_(mode) {}

// No clFinish: work still waiting for an event that is never signaled would
// hang the destroying thread. OpenCL keeps the queue alive until its
// commands are done; the application must not free what they use.
CommandQueue::~CommandQueue() {
    if (queue_ != nullptr) {
        clFlush(queue_);
        clReleaseCommandQueue(queue_);
    }
}

void CommandQueue::init() {
    queue_ = createClQueue(context_, device_);
}

void CommandQueue::execute(uint32_t count, CommandList *const *lists, Fence *fence) {
    for (uint32_t i = 0; i < count; ++i) {
        check(!lists[i]->immediate(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
        check(lists[i]->closed(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
        check(lists[i]->context()->driver() == context_->driver(),
              ZE_RESULT_ERROR_INVALID_ARGUMENT);
    }
    std::lock_guard<std::mutex> lock(mutex_);
    for (uint32_t i = 0; i < count; ++i)
        lists[i]->replay(queue_);
    // One marker after the lists tells both the fence and synchronize() when
    // this execution (and, the queue being in order, every earlier one) is done.
    cl_event marker = nullptr;
    checkCl(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, &marker));
    try {
        auto done = std::make_shared<Signal>(context_->native().cl, false);
        done->setBy(marker);
        done_ = std::move(done);
        if (fence != nullptr) {
            // Unsignaled again, so that this execution's completion is what
            // the fence reports.
            fence->signal().reset();
            fence->signal().setBy(marker);
        }
    } catch (...) {
        clReleaseEvent(marker);
        throw;
    }
    clReleaseEvent(marker);
    if (mode_ == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS)
        checkCl(clFinish(queue_));
    else
        checkCl(clFlush(queue_));
}

ze_result_t CommandQueue::synchronize(uint64_t timeoutNs) {
    std::shared_ptr<Signal> done;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        done = done_;
    }
    if (done == nullptr)
        return ZE_RESULT_SUCCESS; // nothing was ever executed
    if (timeoutNs == UINT64_MAX) {
        checkCl(clFinish(queue_));
        done->waitFor(UINT64_MAX); // the marker's callback may still be on its way
        return ZE_RESULT_SUCCESS;
    }
    return done->waitFor(timeoutNs) ? ZE_RESULT_SUCCESS : ZE_RESULT_NOT_READY;
}

namespace {

ze_result_t ZE_APICALL zeCommandQueueCreate(ze_context_handle_t hContext,
                                            ze_device_handle_t hDevice,
                                            const ze_command_queue_desc_t *desc,
                                            ze_command_queue_handle_t *phCommandQueue) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        Device *device = context->deviceOf(hDevice);
        notNull(desc);
        notNull(phCommandQueue);
        // One queue group with one queue (zeDeviceGetCommandQueueGroupProperties).
        check(desc->ordinal == 0 && desc->index == 0, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        auto queue = std::make_unique<CommandQueue>(context, device, desc->mode);
        queue->init();
        *phCommandQueue = toHandle<CommandQueue, ze_command_queue_handle_t>(queue.release());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandQueueDestroy(ze_command_queue_handle_t hCommandQueue) {
    return boundary(__func__, [&] {
        CommandQueue::destroyHandle(fromHandle<CommandQueue>(hCommandQueue));
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandQueueExecuteCommandLists(ze_command_queue_handle_t hCommandQueue,
                                                         uint32_t numCommandLists,
                                                         ze_command_list_handle_t *phCommandLists,
                                                         ze_fence_handle_t hFence) {
    return boundary(__func__, [&] {
        CommandQueue *queue = fromHandle<CommandQueue>(hCommandQueue);
        notNull(phCommandLists);
        check(numCommandLists > 0, ZE_RESULT_ERROR_INVALID_SIZE);
        std::vector<CommandList *> lists(numCommandLists);
        for (uint32_t i = 0; i < numCommandLists; ++i)
            lists[i] = fromHandle<CommandList>(phCommandLists[i]);
        Fence *fence = nullptr;
        if (hFence != nullptr) {
            fence = fromHandle<Fence>(hFence);
            check(fence->queue() == queue, ZE_RESULT_ERROR_INVALID_ARGUMENT);
        }
        queue->execute(numCommandLists, lists.data(), fence);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeCommandQueueSynchronize(ze_command_queue_handle_t hCommandQueue,
                                                 uint64_t timeout) {
    return boundary(__func__,
                    [&] { return fromHandle<CommandQueue>(hCommandQueue)->synchronize(timeout); });
}

} // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetCommandQueueProcAddrTable(ze_api_version_t version, ze_command_queue_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnCreate = zeCommandQueueCreate;
    t->pfnDestroy = zeCommandQueueDestroy;
    t->pfnExecuteCommandLists = zeCommandQueueExecuteCommandLists;
    t->pfnSynchronize = zeCommandQueueSynchronize;
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
