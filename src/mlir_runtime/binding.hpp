// What mgpu* calls on a thread run on: the framework's engine or stream bound
// with imex_l0_mlir_runtime_bind*, or a default engine (one per device index,
// chosen by mgpuSetDefaultDevice) that the runtime creates on first use and
// keeps until the process exits, because lowered code allocates before it
// creates its first stream and frees after destroying its last.
#pragma once

#include "engine/engine.hpp"
#include "stream/stream.hpp"

namespace imex_l0::mgpu {

void bindEngine(Engine *engine); // NULL: the default
void bindStream(Stream *stream);
void setDefaultDevice(uint32_t index);

// The bound stream, or NULL.
Stream *boundStream();
// The engine of the bound stream, the bound engine, or the default one.
Engine &currentEngine();

} // namespace imex_l0::mgpu
