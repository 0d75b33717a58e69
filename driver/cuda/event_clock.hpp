// Kernel timestamps from CUDA events: a command that signals an event of a
// timestamp pool records a CUevent before and after its work, and the
// event's times are those events' times on the driver's clock
// (deviceTimeNs). cuEventElapsedTime measures from a reference event whose
// time on that clock is known. It measures in float milliseconds, which
// lose precision as the distance grows, so the reference is renewed once a
// second; each new one is placed by measuring from the one before (not by
// the host's clock again), so times of events against different references
// stay consistent with each other. One clock per device.
#pragma once

#include "cuda_api.hpp"

#include <cstdint>
#include <memory>
#include <mutex>

namespace ze_driver {

class EventClock {
public:
    struct Reference {
        ze_cuda::CUevent event = nullptr;
        uint64_t ns = 0; // its time on the driver's clock
    };

    // The reference for events recorded from now on, with the clock's
    // device's context current.
    std::shared_ptr<const Reference> current();
    // When `event` (recorded after `reference`, and completed) happened.
    static uint64_t timeOf(const Reference &reference, ze_cuda::CUevent event);

private:
    std::mutex mutex_; // guards what follows
    std::shared_ptr<const Reference> reference_;
    uint64_t renewAt_ = 0;
    ze_cuda::CUstream stream_ = nullptr; // where references are recorded (idle)
};

} // namespace ze_driver
