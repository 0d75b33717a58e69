#include "mlir_runtime/binding.hpp"

#include <map>
#include <mutex>

namespace imex_l0::mgpu {

namespace {

struct Binding {
    Engine *engine = nullptr;
    Stream *stream = nullptr;
    uint32_t defaultDevice = 0;
};
thread_local Binding binding;

// Never destroyed: lowered programs free and unload from global destructors,
// which may run after this library's static objects are gone.
struct Defaults {
    std::mutex mutex; // guards engines
    std::map<uint32_t, Engine *> engines;
};
Defaults &defaults() {
    static Defaults *d = new Defaults;
    return *d;
}

} // namespace

void bindEngine(Engine *engine) {
    binding.engine = engine;
    binding.stream = nullptr;
}

void bindStream(Stream *stream) {
    binding.engine = nullptr;
    binding.stream = stream;
}

void setDefaultDevice(uint32_t index) { binding.defaultDevice = index; }

Stream *boundStream() { return binding.stream; }

Engine &currentEngine() {
    if (binding.stream)
        return *binding.stream->engine();
    if (binding.engine)
        return *binding.engine;
    Defaults &d = defaults();
    std::lock_guard<std::mutex> lock(d.mutex);
    Engine *&e = d.engines[binding.defaultDevice];
    if (!e)
        e = Engine::createDefault(binding.defaultDevice).release();
    return *e;
}

} // namespace imex_l0::mgpu
