#include "gpu_runtime/engine_registry.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <utility>

namespace imex_l0 {

namespace {

struct Shared {
    std::unique_ptr<Engine> engine;
    size_t users = 0;
};

using Key = std::pair<ze_device_handle_t, ze_context_handle_t>; // {NULL, NULL}: the default

std::mutex mutex; // guards engines
std::map<Key, Shared> engines;

Engine *acquire(const Key &key) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = engines.find(key);
    if (it == engines.end()) {
        std::unique_ptr<Engine> engine;
        if (key.first) {
            engine = std::make_unique<Engine>(Engine::driverOf(key.first), key.first, key.second);
            engine->init();
        } else {
            engine = Engine::createDefault(0);
        }
        it = engines.emplace(key, Shared{std::move(engine), 0}).first;
    }
    ++it->second.users;
    return it->second.engine.get();
}

} // namespace

Engine *acquireDefaultEngine() { return acquire({nullptr, nullptr}); }

Engine *acquireEngine(ze_device_handle_t device, ze_context_handle_t context) {
    if (!device)
        failInvalid("device is NULL: pass the device the stream runs on");
    return acquire({device, context});
}

void releaseEngine(Engine *engine) noexcept {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto it = engines.begin(); it != engines.end(); ++it) {
        if (it->second.engine.get() != engine)
            continue;
        if (--it->second.users == 0)
            engines.erase(it);
        return;
    }
}

} // namespace imex_l0
