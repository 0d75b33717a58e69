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
        logLine(Verbosity::info, "engine_create," + e->deviceName() + ",context=" +
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
        e->events().release(event);
        return imex_l0_success;
    });
}

} // extern "C"
