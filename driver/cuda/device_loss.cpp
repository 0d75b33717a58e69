// Device loss on CUDA (../core/backend.hpp's deviceLost). A kernel that
// faults (an illegal address, an illegal instruction, a trap) poisons the
// CUDA context it ran in: the work queued behind it never runs, so the words
// its commands would write (signal.hpp) are never written, and every later
// call in the context fails with the fault's "sticky" error. The driver
// learns of it by asking the context, which costs a microsecond and never
// waits; a host wait asks while it polls, so it returns
// ZE_RESULT_ERROR_DEVICE_LOST within about a millisecond of the fault instead
// of waiting forever. The devices share their primary contexts with every
// Level Zero context, so a lost device stays lost for the rest of the process.
#include "backend.hpp"
#include "device.hpp"

#include <chrono>

namespace ze_driver {

namespace {

int64_t steadyNs() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Asks the context now, by querying a stream of the device's own that never
// has work, so the query reports nothing but the context's state. (Not the
// legacy stream: its queries take part in CUDA's implicit synchronization.)
bool probe(Device *device) {
    DeviceNative &native = device->native();
    ze_cuda::CUresult r = cuda().cuCtxSetCurrent(primaryContext(device));
    std::call_once(native.probeMade, [&] {
        if (r == ze_cuda::CUDA_SUCCESS)
            r = cuda().cuStreamCreate(&native.probe, ze_cuda::CU_STREAM_NON_BLOCKING);
    });
    if (r == ze_cuda::CUDA_SUCCESS)
        r = cuda().cuStreamQuery(native.probe);
    if (ze_cuda::isStickyError(r))
        native.lost.store(true, std::memory_order_release);
    return native.lost.load(std::memory_order_acquire);
}

} // namespace

bool lost(Device *device) {
    DeviceNative &native = device->native();
    if (native.lost.load(std::memory_order_acquire))
        return true;
    constexpr int64_t kInterval = 1'000'000; // ns
    int64_t now = steadyNs();
    int64_t last = native.lastProbe.load(std::memory_order_relaxed);
    if (now - last < kInterval ||
        !native.lastProbe.compare_exchange_strong(last, now, std::memory_order_relaxed))
        return false; // asked recently, or another thread is asking now
    return probe(device);
}

bool backend::deviceLost(Device &device) {
    return probe(&device);
}

} // namespace ze_driver
