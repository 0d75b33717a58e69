// C entry points of engines and events: validate, convert, call one method.
#include "common/verbose.hpp"
#include "engine/engine.hpp"

#include <memory>

using namespace imex_l0;

namespace {

// Logs the creation and hands the engine to the caller.
imex_l0_status_t publish(imex_l0_engine_t *engine, std::unique_ptr<Engine> e,
                         const Stopwatch &watch, bool ownsContext) {
    if (verboseAt(Verbosity::info))
        logLine(Verbosity::info, "engine_create," + csvField(e->deviceName()) + ",context=" +
                                     (ownsContext ? "owned" : "user") + ",time_us=" +
                                     std::to_string(watch.elapsedUs()));
    *engine = reinterpret_cast<imex_l0_engine_t>(e.release());
    return imex_l0_success;
}

} // namespace

extern "C" {

imex_l0_status_t imex_l0_interop_engine_create(imex_l0_engine_t *engine, ze_driver_handle_t driver,
                                               ze_device_handle_t device,
                                               ze_context_handle_t context) {
    return guard(__func__, [&] {
        requireOutput(engine, "engine");
        Stopwatch watch;
        auto e = std::make_unique<Engine>(driver, device, context);
        e->init();
        return publish(engine, std::move(e), watch, context == nullptr);
    });
}

imex_l0_status_t imex_l0_engine_create(imex_l0_engine_t *engine, uint32_t device_index) {
    return guard(__func__, [&] {
        requireOutput(engine, "engine");
        Stopwatch watch;
        return publish(engine, Engine::createDefault(device_index), watch, true);
    });
}

imex_l0_status_t imex_l0_interop_engine_get_driver(imex_l0_engine_t engine,
                                                   ze_driver_handle_t *driver) {
    return guard(__func__, [&] {
        auto *e = validate<Engine>(engine, "engine");
        requireOutput(driver, "driver");
        *driver = e->driver();
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_interop_engine_get_device(imex_l0_engine_t engine,
                                                   ze_device_handle_t *device) {
    return guard(__func__, [&] {
        auto *e = validate<Engine>(engine, "engine");
        requireOutput(device, "device");
        *device = e->device();
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_interop_engine_get_context(imex_l0_engine_t engine,
                                                    ze_context_handle_t *context) {
    return guard(__func__, [&] {
        auto *e = validate<Engine>(engine, "engine");
        requireOutput(context, "context");
        *context = e->context();
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_engine_get_device_name(imex_l0_engine_t engine, const char **name) {
    return guard(__func__, [&] {
        auto *e = validate<Engine>(engine, "engine");
        requireOutput(name, "name");
        *name = e->deviceName().c_str();
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_engine_destroy(imex_l0_engine_t engine) {
    return guard(__func__, [&] {
        auto *e = validate<Engine>(engine, "engine");
        if (size_t n = e->children())
            failInvalid("the engine still has " + std::to_string(n) +
                        " stream(s), memory object(s) or kernel(s): destroy them first");
        delete e;
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_event_release(imex_l0_engine_t engine, ze_event_handle_t event) {
    return guard(__func__, [&] {
        auto *e = validate<Engine>(engine, "engine");
        if (!event)
            failInvalid("event is NULL");
        e->releaseEvent(event);
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_event_get_timestamps(imex_l0_engine_t engine, ze_event_handle_t event,
                                             uint64_t *start_ns, uint64_t *end_ns) {
    return guard(__func__, [&] {
        auto *e = validate<Engine>(engine, "engine");
        if (!event)
            failInvalid("event is NULL");
        requireOutput(start_ns, "start_ns");
        requireOutput(end_ns, "end_ns");
        EventPool *pool = EventPool::poolOf(event);
        if (!pool || pool != &e->timestampEvents())
            failInvalid("event carries no timestamps: only events returned by a stream with "
                        "profiling on (imex_l0_stream_set_profiling) do");
        ze_kernel_timestamp_result_t t{};
        ze_result_t r = zeEventQueryKernelTimestamp(event, &t);
        if (r == ZE_RESULT_NOT_READY)
            failInvalid("event is not signaled yet: wait for it (zeEventHostSynchronize) first");
        checkZe(r, "zeEventQueryKernelTimestamp");
        // Device ticks -> ns: the tick length and the counter's valid bits.
        uint64_t mask = e->kernelTimestampValidBits() >= 64
                            ? ~uint64_t(0)
                            : (uint64_t(1) << e->kernelTimestampValidBits()) - 1;
        uint64_t start = t.global.kernelStart & mask, end = t.global.kernelEnd & mask;
        if (end < start) // the counter wrapped during the command
            end += mask + 1;
        *start_ns = start * e->timerResolutionNs();
        *end_ns = end * e->timerResolutionNs();
        if (verboseAt(Verbosity::info))
            logLine(Verbosity::info, "event_timestamps," + csvField(pool->labelOf(event)) +
                                         ",device_us=" +
                                         std::to_string(double(*end_ns - *start_ns) / 1000.0));
        return imex_l0_success;
    });
}

} // extern "C"
