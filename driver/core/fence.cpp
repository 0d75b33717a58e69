// Fences and the Fence DDI table.
#include "fence.hpp"

#include "command_queue.hpp"
#include "context.hpp"

#include <level_zero/ze_ddi.h>

#include <memory>

namespace ze_driver {

Fence::Fence(CommandQueue *queue, bool signaled)
    : Object(kTag), queue_(queue),
      signal_(std::make_shared<Signal>(queue->context(), false)) {
    if (signaled)
        signal_->set();
}

namespace {

ze_result_t ZE_APICALL zeFenceCreate(ze_command_queue_handle_t hCommandQueue,
                                     const ze_fence_desc_t *desc, ze_fence_handle_t *phFence) {
    return boundary(__func__, [&] {
        CommandQueue *queue = fromHandle<CommandQueue>(hCommandQueue);
        notNull(desc);
        notNull(phFence);
        auto fence = std::make_unique<Fence>(queue, (desc->flags & ZE_FENCE_FLAG_SIGNALED) != 0);
        *phFence = toHandle<Fence, ze_fence_handle_t>(fence.release());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeFenceDestroy(ze_fence_handle_t hFence) {
    return boundary(__func__, [&] {
        delete fromHandle<Fence>(hFence);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeFenceHostSynchronize(ze_fence_handle_t hFence, uint64_t timeout) {
    return boundary(__func__, [&] {
        return fromHandle<Fence>(hFence)->signal().waitFor(timeout) ? ZE_RESULT_SUCCESS
                                                                    : ZE_RESULT_NOT_READY;
    });
}

ze_result_t ZE_APICALL zeFenceQueryStatus(ze_fence_handle_t hFence) {
    return boundary(__func__, [&] {
        return fromHandle<Fence>(hFence)->signal().isSet() ? ZE_RESULT_SUCCESS
                                                           : ZE_RESULT_NOT_READY;
    });
}

ze_result_t ZE_APICALL zeFenceReset(ze_fence_handle_t hFence) {
    return boundary(__func__, [&] {
        fromHandle<Fence>(hFence)->signal().reset();
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetFenceProcAddrTable(ze_api_version_t version,
                                                                       ze_fence_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnCreate = zeFenceCreate;
    t->pfnDestroy = zeFenceDestroy;
    t->pfnHostSynchronize = zeFenceHostSynchronize;
    t->pfnQueryStatus = zeFenceQueryStatus;
    t->pfnReset = zeFenceReset;
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
