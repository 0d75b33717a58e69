// gpu* streams on the same device and context share one engine, so a module
// loaded through one stream is cached for all of them. Temporary streams
// (gpuCreateStream(NULL, NULL)) share the default engine, which owns its
// context; streams on a device without a context share that device's engine,
// which owns a context too. An engine lives while some gpu stream uses it.
#pragma once

#include "engine/engine.hpp"

namespace imex_l0 {

// Throws on failure. Every acquire is matched by one releaseEngine.
Engine *acquireDefaultEngine();
// context NULL: an engine with a context of its own on `device`.
Engine *acquireEngine(ze_device_handle_t device, ze_context_handle_t context);
void releaseEngine(Engine *engine) noexcept;

} // namespace imex_l0
