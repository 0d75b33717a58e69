#include "memory_release.hpp"

#include "backend_native.hpp"
#include "device.hpp"

#include <map>
#include <mutex>

namespace ze_driver {

namespace {

// The device's stream for frees, made at its first use (nullptr when it
// cannot be made); its context is current.
ze_cuda::CUstream releaseStream(Device *device) {
    DeviceNative &native = device->native();
    std::call_once(native.releasesMade, [&] {
        if (cuda().cuStreamCreate(&native.releases, ze_cuda::CU_STREAM_NON_BLOCKING) !=
            ze_cuda::CUDA_SUCCESS)
            native.releases = nullptr;
    });
    return native.releases;
}

} // namespace

void releaseDeviceMemory(Device *device, void *pointer) noexcept {
    if (cuda().cuCtxSetCurrent(primaryContext(device)) != ze_cuda::CUDA_SUCCESS)
        return;
    ze_cuda::CUstream releases = releaseStream(device);
    auto address = reinterpret_cast<ze_cuda::CUdeviceptr>(pointer);
    if (releases == nullptr || cuda().cuMemFreeAsync(address, releases) != ze_cuda::CUDA_SUCCESS)
        cuda().cuMemFree(address); // a device without stream-ordered frees
}

ze_cuda::CUresult allocateDeviceMemory(Device *device, ze_cuda::CUdeviceptr *pointer,
                                       size_t bytes) {
    ze_cuda::CUresult r = cuda().cuMemAlloc(pointer, bytes);
    if (r != ze_cuda::CUDA_ERROR_OUT_OF_MEMORY)
        return r;
    ze_cuda::CUstream releases = releaseStream(device);
    if (releases != nullptr && cuda().cuStreamSynchronize(releases) == ze_cuda::CUDA_SUCCESS)
        r = cuda().cuMemAlloc(pointer, bytes);
    return r;
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
