#include "compute/kernel_handles.hpp"

#include <mutex>
#include <unordered_set>

namespace imex_l0::kernel_handles {
namespace {

std::mutex mutex;
// Leaked on purpose: engines destroyed from static destructors still
// release their handles here.
std::unordered_set<ze_kernel_handle_t> &claimed() {
    static auto *set = new std::unordered_set<ze_kernel_handle_t>;
    return *set;
}

} // namespace

bool claim(ze_kernel_handle_t handle) {
    std::lock_guard<std::mutex> lock(mutex);
    return claimed().insert(handle).second;
}

void release(ze_kernel_handle_t handle) {
    std::lock_guard<std::mutex> lock(mutex);
    claimed().erase(handle);
}

} // namespace imex_l0::kernel_handles
