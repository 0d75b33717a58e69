#include "staging.hpp"

#include "backend_native.hpp"

namespace ze_driver {

void *StagingPool::take(Device *device) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!free_.empty()) {
            void *buffer = free_.back();
            free_.pop_back();
            return buffer;
        }
    }
    makeCurrent(device);
    void *buffer = nullptr;
    checkCuda(cuda().cuMemHostAlloc(&buffer, kBytes, ze_cuda::CU_MEMHOSTALLOC_PORTABLE));
    return buffer;
}

void StagingPool::giveBack(void *buffer) noexcept {
    std::lock_guard<std::mutex> lock(mutex_);
    try {
        free_.push_back(buffer);
    } catch (...) {
        // No room to remember it: the buffer is lost, nothing else.
    }
}

} // namespace ze_driver
