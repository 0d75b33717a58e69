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

// The queue goes without waiting for its work (see Queue's destructor).
CommandQueue::~CommandQueue() = default;

void CommandQueue::init() {
    queue_ = std::make_unique<Queue>(context_, device_);
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
        lists[i]->replay(*queue_);
    // A signal set once this execution (and, the queue being in order, every
    // earlier one) is done tells synchronize(); the fence, unsignaled again so
    // that this execution's completion is what it reports, is set with it.
    auto done = std::make_shared<Signal>(context_, false);
    if (fence != nullptr)
        fence->signal().reset();
    queue_->signalWhenDone(*done, fence != nullptr ? &fence->signal() : nullptr);
    done_ = std::move(done);
    if (mode_ == ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS)
        queue_->finish();
    else
        queue_->flush();
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
        queue_->finish();
        done->waitFor(UINT64_MAX); // the signal may be set just after the queue finishes
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
