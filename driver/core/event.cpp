// Event pools, events and their DDI tables.
#include "event.hpp"

#include "backend.hpp"
#include "context.hpp"
#include "device.hpp"
#include "event_ipc.hpp"
#include "newer_api.hpp"

#include <level_zero/ze_ddi.h>

#include <algorithm>
#include <memory>

namespace ze_driver {

void EventSlots::acquire(uint32_t index) {
    std::lock_guard<std::mutex> lock(mutex_);
    check(index < used_.size(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
    check(!used_[index], ZE_RESULT_ERROR_INVALID_ARGUMENT);
    used_[index] = true;
}

void EventSlots::release(uint32_t index) {
    std::lock_guard<std::mutex> lock(mutex_);
    used_[index] = false;
}

EventPool::EventPool(Context *context, ze_event_pool_flags_t flags, uint32_t count,
                     bool counterBased)
    : Object(kTag), context_(context), flags_(flags), counterBased_(counterBased),
      slots_(std::make_shared<EventSlots>(count)) {
    if (flags & ZE_EVENT_POOL_FLAG_IPC)
        shared_ = std::make_shared<SharedEventStates>(count);
}

EventPool::EventPool(Context *context, ze_event_pool_flags_t flags, uint32_t count,
                     std::shared_ptr<SharedEventStates> opened)
    : Object(kTag), context_(context), flags_(flags), slots_(std::make_shared<EventSlots>(count)),
      shared_(std::move(opened)), opened_(true) {}

Event::Event(EventPool *pool, uint32_t index)
    : Object(kTag), context_(pool->context()), timestamps_(pool->timestamps()),
      counterBased_(pool->counterBased()), slots_(pool->slots()), index_(index),
      signal_(std::make_shared<Signal>(pool->context(), pool->timestamps())) {
    if (const std::shared_ptr<SharedEventStates> &states = pool->sharedStates()) {
        // The word lives as long as the mapping: the pointer shares its owner.
        std::shared_ptr<std::atomic<uint32_t>> word(states, states->word(index));
        // A new event of the pool's own process starts unsignaled; one
        // created in a process that opened the pool takes the state as it is.
        if (!pool->opened())
            word->store(0, std::memory_order_release);
        signal_->shareState(std::move(word));
    }
}

Event::~Event() {
    slots_->release(index_);
}

void Event::beforeSignalingCommand() {
    if (!counterBased_)
        return;
    retired_.erase(std::remove_if(retired_.begin(), retired_.end(),
                                  [](const std::shared_ptr<Signal> &s) { return s->isSet(); }),
                   retired_.end());
    if (!signal_->isSet())
        retired_.push_back(signal_);
    std::atomic_store(&signal_, std::make_shared<Signal>(context_, timestamps_));
}

namespace {

ze_result_t ZE_APICALL zeEventPoolCreate(ze_context_handle_t hContext,
                                         const ze_event_pool_desc_t *desc, uint32_t numDevices,
                                         ze_device_handle_t *phDevices,
                                         ze_event_pool_handle_t *phEventPool) {
    return boundary(__func__, [&] {
        Context *context = fromHandle<Context>(hContext);
        notNull(desc);
        notNull(phEventPool);
        check(desc->count > 0, ZE_RESULT_ERROR_INVALID_SIZE);
        check(numDevices == 0 || phDevices != nullptr, ZE_RESULT_ERROR_INVALID_NULL_POINTER);
        for (uint32_t i = 0; i < numDevices; ++i)
            fromHandle<Device>(phDevices[i]);
        check(!(desc->flags & ZE_EVENT_POOL_FLAG_IPC) || backend::eventPoolIpcSupported(),
              ZE_RESULT_ERROR_UNSUPPORTED_FEATURE);
        bool counterBased = false;
        for (auto *ext = static_cast<const ze_base_desc_t *>(desc->pNext); ext;
             ext = static_cast<const ze_base_desc_t *>(ext->pNext)) {
            if (ext->stype != kCounterBasedEventPoolDescType)
                continue;
            uint32_t flags = reinterpret_cast<const CounterBasedEventPoolDesc *>(ext)->flags;
            check((flags & ~(kCounterBasedImmediate | kCounterBasedNonImmediate)) == 0,
                  ZE_RESULT_ERROR_INVALID_ENUMERATION);
            // A state shared between processes has no counter to follow.
            check(!(desc->flags & ZE_EVENT_POOL_FLAG_IPC), ZE_RESULT_ERROR_INVALID_ARGUMENT);
            counterBased = true;
        }
        // Every pool is host visible.
        auto pool = std::make_unique<EventPool>(context, desc->flags, desc->count, counterBased);
        *phEventPool = toHandle<EventPool, ze_event_pool_handle_t>(pool.release());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeEventPoolDestroy(ze_event_pool_handle_t hEventPool) {
    return boundary(__func__, [&] {
        delete fromHandle<EventPool>(hEventPool);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeEventCreate(ze_event_pool_handle_t hEventPool, const ze_event_desc_t *desc,
                                     ze_event_handle_t *phEvent) {
    return boundary(__func__, [&] {
        EventPool *pool = fromHandle<EventPool>(hEventPool);
        notNull(desc);
        notNull(phEvent);
        pool->slots()->acquire(desc->index);
        std::unique_ptr<Event> event;
        try {
            event = std::make_unique<Event>(pool, desc->index);
        } catch (...) {
            pool->slots()->release(desc->index);
            throw;
        }
        *phEvent = toHandle<Event, ze_event_handle_t>(event.release());
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeEventDestroy(ze_event_handle_t hEvent) {
    return boundary(__func__, [&] {
        delete fromHandle<Event>(hEvent);
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeEventHostSignal(ze_event_handle_t hEvent) {
    return boundary(__func__, [&] {
        fromHandle<Event>(hEvent)->currentSignal()->set();
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeEventHostSynchronize(ze_event_handle_t hEvent, uint64_t timeout) {
    return boundary(__func__, [&] {
        return fromHandle<Event>(hEvent)->currentSignal()->waitFor(timeout) ? ZE_RESULT_SUCCESS
                                                                            : ZE_RESULT_NOT_READY;
    });
}

ze_result_t ZE_APICALL zeEventQueryStatus(ze_event_handle_t hEvent) {
    return boundary(__func__, [&] {
        return fromHandle<Event>(hEvent)->currentSignal()->isSet() ? ZE_RESULT_SUCCESS
                                                                   : ZE_RESULT_NOT_READY;
    });
}

ze_result_t ZE_APICALL zeEventHostReset(ze_event_handle_t hEvent) {
    return boundary(__func__, [&] {
        fromHandle<Event>(hEvent)->currentSignal()->reset();
        return ZE_RESULT_SUCCESS;
    });
}

ze_result_t ZE_APICALL zeEventQueryKernelTimestamp(ze_event_handle_t hEvent,
                                                   ze_kernel_timestamp_result_t *dst) {
    return boundary(__func__, [&] {
        Event *event = fromHandle<Event>(hEvent);
        notNull(dst);
        check(event->timestamps(), ZE_RESULT_ERROR_INVALID_ARGUMENT);
        std::shared_ptr<Signal> signal = event->currentSignal();
        if (!signal->isSet())
            return ZE_RESULT_NOT_READY;
        uint64_t start, end;
        signal->timestamps(&start, &end);
        dst->global.kernelStart = dst->context.kernelStart = start;
        dst->global.kernelEnd = dst->context.kernelEnd = end;
        return ZE_RESULT_SUCCESS;
    });
}

} // namespace

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL
zeGetEventPoolProcAddrTable(ze_api_version_t version, ze_event_pool_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnCreate = zeEventPoolCreate;
    t->pfnDestroy = zeEventPoolDestroy;
    if (backend::eventPoolIpcSupported()) {
        t->pfnGetIpcHandle = zeEventPoolGetIpcHandle;
        t->pfnOpenIpcHandle = zeEventPoolOpenIpcHandle;
        t->pfnCloseIpcHandle = zeEventPoolCloseIpcHandle;
    } else {
        setUnsupported(t->pfnGetIpcHandle);
        setUnsupported(t->pfnOpenIpcHandle);
        setUnsupported(t->pfnCloseIpcHandle);
    }
    return ZE_RESULT_SUCCESS;
}

extern "C" ZE_DLLEXPORT ze_result_t ZE_APICALL zeGetEventProcAddrTable(ze_api_version_t version,
                                                                       ze_event_dditable_t *t) {
    if (ze_result_t r = checkTableRequest(version, t))
        return r;
    t->pfnCreate = zeEventCreate;
    t->pfnDestroy = zeEventDestroy;
    t->pfnHostSignal = zeEventHostSignal;
    t->pfnHostSynchronize = zeEventHostSynchronize;
    t->pfnQueryStatus = zeEventQueryStatus;
    t->pfnHostReset = zeEventHostReset;
    t->pfnQueryKernelTimestamp = zeEventQueryKernelTimestamp;
    return ZE_RESULT_SUCCESS;
}

} // namespace ze_driver
