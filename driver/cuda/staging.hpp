// Pinned host buffers through which a queue copies between device memory and
// pageable host memory (malloc'ed, not the driver's). CUDA would copy such
// memory synchronously with respect to the host, after the stream's earlier
// work, so an append could wait for work gated by an event the application
// sets later; staged in stream order, the copy stays asynchronous
// (queue.cpp). One pool per device; a queue takes a buffer at its first
// staged copy and gives it back when its stream has finished with it.
// Buffers are reused, never freed: they live as long as the driver's objects.
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

namespace ze_driver {

class Device;

class StagingPool {
public:
    static constexpr size_t kBytes = size_t(4) << 20;

    // A free buffer of kBytes, or a new one (cuMemHostAlloc, with `device`'s
    // context current); throws when CUDA has no pinned memory left.
    void *take(Device *device);
    void giveBack(void *buffer) noexcept;

private:
    std::mutex mutex_;
    std::vector<void *> free_;
};

} // namespace ze_driver
