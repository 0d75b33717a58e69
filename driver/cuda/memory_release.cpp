#include "memory_release.hpp"

#include "backend_native.hpp"
#include "device.hpp"

#include <map>
#include <mutex>

namespace ze_driver {

void releaseDeviceMemory(Device *device, void *pointer) noexcept {
    DeviceNative &native = device->native();
    if (cuda().cuCtxSetCurrent(primaryContext(device)) != ze_cuda::CUDA_SUCCESS)
        return;
    std::call_once(native.releasesMade, [&] {
        if (cuda().cuStreamCreate(&native.releases, ze_cuda::CU_STREAM_NON_BLOCKING) !=
            ze_cuda::CUDA_SUCCESS)
            native.releases = nullptr;
    });
    auto address = reinterpret_cast<ze_cuda::CUdeviceptr>(pointer);
    if (native.releases == nullptr ||
        cuda().cuMemFreeAsync(address, native.releases) != ze_cuda::CUDA_SUCCESS)
        cuda().cuMemFree(address); // a device without stream-ordered frees
}

namespace {

// Pinned blocks given back, by size. A block is reused for a request of at
// least half its size, so a small request does not hold a large block.
class HostCache {
public:
    static HostCache &instance() {
        static auto *cache = new HostCache; // outlives every allocation
        return *cache;
    }
    void *take(size_t bytes, size_t *size) {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            auto it = blocks_.lower_bound(bytes);
            if (it != blocks_.end() && it->first / 2 <= bytes) {
                *size = it->first;
                void *block = it->second;
                blocks_.erase(it);
                return block;
            }
        }
        void *block = nullptr;
        if (allocate(bytes, &block) != ze_cuda::CUDA_SUCCESS) {
            flush(); // what was kept, for this allocation
            checkCuda(allocate(bytes, &block));
        }
        *size = bytes;
        return block;
    }
    void give(void *block, size_t size) {
        std::lock_guard<std::mutex> lock(mutex_);
        blocks_.emplace(size, block);
    }

private:
    static ze_cuda::CUresult allocate(size_t bytes, void **block) {
        return cuda().cuMemHostAlloc(
            block, bytes, ze_cuda::CU_MEMHOSTALLOC_PORTABLE | ze_cuda::CU_MEMHOSTALLOC_DEVICEMAP);
    }
    void flush() {
        std::multimap<size_t, void *> blocks;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            blocks.swap(blocks_);
        }
        for (auto &[size, block] : blocks)
            cuda().cuMemFreeHost(block);
    }
    std::mutex mutex_; // guards blocks_
    std::multimap<size_t, void *> blocks_;
};

} // namespace

void *takeHostMemory(size_t bytes, size_t *size) {
    return HostCache::instance().take(bytes, size);
}

void giveHostMemory(void *pointer, size_t size) noexcept {
    try {
        HostCache::instance().give(pointer, size);
    } catch (...) {
        cuda().cuMemFreeHost(pointer); // no room to keep it
    }
}

} // namespace ze_driver
