#include "gpu_runtime/deferred_frees.hpp"

#include <algorithm>
#include <exception>

namespace imex_l0 {

bool DeferredFrees::contains(const void *ptr) const {
    if (std::find(unfenced_.begin(), unfenced_.end(), ptr) != unfenced_.end())
        return true;
    for (const Fence &f : fenced_)
        if (std::find(f.ptrs.begin(), f.ptrs.end(), ptr) != f.ptrs.end())
            return true;
    return false;
}

void DeferredFrees::freeNow(Stream &stream, void *ptr, std::exception_ptr &failure) noexcept {
    try {
        IMEX_L0_ZE(zeMemFree(stream.engine()->context(), ptr));
    } catch (...) {
        if (!failure)
            failure = std::current_exception();
    }
}

void DeferredFrees::releaseFenced(Stream &stream, bool all) {
    std::exception_ptr failure;
    while (!fenced_.empty()) {
        Fence &f = fenced_.front();
        if (!all && zeEventQueryStatus(f.done) != ZE_RESULT_SUCCESS)
            break; // later barriers come after this one on the stream
        for (void *p : f.ptrs)
            freeNow(stream, p, failure);
        if (f.barrier)
            stream.dropEvent(f.done);
        fenced_.pop_front();
    }
    if (failure)
        std::rethrow_exception(failure);
}

bool DeferredFrees::add(Stream &stream, void *ptr, ze_event_handle_t lastLaunch) {
    if (unfenced_.capacity() < kFenceEvery)
        unfenced_.reserve(kFenceEvery);
    unfenced_.push_back(ptr);
    if (unfenced_.size() < kFenceEvery)
        return false;
    // Earlier fences are checked here, once per kFenceEvery frees, not at
    // every free: an event query costs more than recording a pointer.
    releaseFenced(stream, false);
    if (lastLaunch) {
        fenced_.push_back({lastLaunch, false, std::move(unfenced_)});
        unfenced_.clear();
        return false;
    }
    // One barrier for the pointers recorded so far. If it cannot be appended
    // they stay recorded, to be freed by the next completed wait.
    ze_event_handle_t done = stream.engine()->events().acquire();
    ze_result_t r = zeCommandListAppendBarrier(stream.list(), done, 0, nullptr);
    if (r != ZE_RESULT_SUCCESS) {
        stream.dropEvent(done);
        checkZe(r, "zeCommandListAppendBarrier");
    }
    fenced_.push_back({done, true, std::move(unfenced_)});
    unfenced_.clear();
    return true;
}

void DeferredFrees::releaseAll(Stream &stream) {
    std::exception_ptr failure;
    for (void *p : unfenced_)
        freeNow(stream, p, failure);
    unfenced_.clear();
    try {
        releaseFenced(stream, true);
    } catch (...) {
        if (!failure)
            failure = std::current_exception();
    }
    if (failure)
        std::rethrow_exception(failure);
}

} // namespace imex_l0
