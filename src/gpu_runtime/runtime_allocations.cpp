#include "gpu_runtime/runtime_allocations.hpp"

#include <mutex>
#include <unordered_set>

namespace imex_l0::runtime_allocations {

namespace {

std::mutex mutex; // guards live
std::unordered_set<void *> live;

} // namespace

void add(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    live.insert(ptr);
}

bool remove(void *ptr) {
    std::lock_guard<std::mutex> lock(mutex);
    return live.erase(ptr) != 0;
}

} // namespace imex_l0::runtime_allocations
