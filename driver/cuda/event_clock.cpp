#include "event_clock.hpp"

#include "backend_native.hpp"
#include "device.hpp" // deviceTimeNs

namespace ze_driver {

namespace {

constexpr uint64_t kRenewNs = 1000000000; // a second: about 0.1 us of float precision

} // namespace

std::shared_ptr<const EventClock::Reference> EventClock::current() {
    std::lock_guard<std::mutex> lock(mutex_);
    uint64_t now = deviceTimeNs();
    if (reference_ && now < renewAt_)
        return reference_;
    if (stream_ == nullptr)
        checkCuda(cuda().cuStreamCreate(&stream_, ze_cuda::CU_STREAM_NON_BLOCKING));
    ze_cuda::CUevent event = nullptr;
    checkCuda(cuda().cuEventCreate(&event, 0));
    // Destroyed with the last signal that measures from it; nothing here
    // may throw then.
    std::shared_ptr<Reference> next(new Reference{event, 0}, [](Reference *r) {
        cuda().cuEventDestroy(r->event);
        delete r;
    });
    uint64_t before = deviceTimeNs();
    checkCuda(cuda().cuEventRecord(event, stream_));
    checkCuda(cuda().cuEventSynchronize(event));
    uint64_t after = deviceTimeNs();
    // The first reference happened while the host waited for it; later ones
    // are placed by the one before.
    next->ns = reference_ ? timeOf(*reference_, event) : before + (after - before) / 2;
    reference_ = std::move(next);
    renewAt_ = after + kRenewNs;
    return reference_;
}

uint64_t EventClock::timeOf(const Reference &reference, ze_cuda::CUevent event) {
    float ms = 0;
    checkCuda(cuda().cuEventElapsedTime(&ms, reference.event, event));
    return reference.ns + static_cast<uint64_t>(double(ms) * 1e6 + 0.5);
}

} // namespace ze_driver
