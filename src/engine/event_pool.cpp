#include "engine/event_pool.hpp"

#include "common/status.hpp"

namespace imex_l0 {

EventPool::EventPool(ze_context_handle_t context, ze_device_handle_t device, uint32_t chunk)
    : context_(context), device_(device), chunk_(chunk ? chunk : 64) {}

EventPool::~EventPool() {
    for (auto &entry : handedOut_)
        zeEventDestroy(entry.first);
    for (auto pool : pools_)
        zeEventPoolDestroy(pool);
}

void EventPool::grow() {
    // Events are created one at a time, when first needed, inside pools of
    // chunk_ slots: an engine that launches little creates little.
    if (pools_.empty() || nextIndex_ == chunk_) {
        ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                     ZE_EVENT_POOL_FLAG_HOST_VISIBLE, chunk_};
        ze_event_pool_handle_t pool = nullptr;
        pools_.reserve(pools_.size() + 1); // so that the pool cannot go untracked
        IMEX_L0_ZE(zeEventPoolCreate(context_, &desc, 1, &device_, &pool));
        pools_.push_back(pool);
        nextIndex_ = 0;
    }
    free_.reserve(free_.size() + 1);
    handedOut_.reserve(handedOut_.size() + 1);
    ze_event_desc_t eventDesc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, nextIndex_,
                                 ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t event = nullptr;
    IMEX_L0_ZE(zeEventCreate(pools_.back(), &eventDesc, &event));
    ++nextIndex_;
    handedOut_.emplace(event, false);
    free_.push_back(event);
}

ze_event_handle_t EventPool::acquire() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty() && !unfinished_.empty()) {
        free_.reserve(free_.size() + unfinished_.size());
        recycleFinished();
    }
    if (free_.empty())
        grow();
    ze_event_handle_t event = free_.back();
    free_.pop_back();
    handedOut_[event] = true;
    ++outstanding_;
    return event;
}

std::unordered_map<ze_event_handle_t, bool>::iterator EventPool::handedOut(ze_event_handle_t event) {
    auto it = handedOut_.find(event);
    if (it == handedOut_.end())
        failInvalid("event was not returned by this engine (it belongs to the caller or to "
                    "another engine); release only events the library returned");
    if (!it->second)
        failInvalid("event was already released (double release); release each returned event "
                    "exactly once");
    return it;
}

void EventPool::giveBackReset(ze_event_handle_t event) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = handedOut(event);
    free_.reserve(free_.size() + 1);
    it->second = false;
    --outstanding_;
    free_.push_back(event);
}

void EventPool::release(ze_event_handle_t event) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = handedOut(event);
    // An event whose work is still running would be signaled by that work
    // after its next user reset it: it waits in unfinished_ until it is done.
    ze_result_t status = zeEventQueryStatus(event);
    if (status == ZE_RESULT_NOT_READY) {
        unfinished_.reserve(unfinished_.size() + 1);
        it->second = false;
        --outstanding_;
        unfinished_.push_back(event);
        return;
    }
    checkZe(status, "zeEventQueryStatus");
    // Reset before it can be handed out again, so the next user starts from
    // the unsignaled state the spec requires.
    IMEX_L0_ZE(zeEventHostReset(event));
    it->second = false;
    --outstanding_;
    free_.push_back(event);
}

void EventPool::recycleFinished() {
    for (size_t i = 0; i < unfinished_.size();) {
        ze_event_handle_t event = unfinished_[i];
        if (zeEventQueryStatus(event) != ZE_RESULT_SUCCESS || zeEventHostReset(event) != ZE_RESULT_SUCCESS) {
            ++i; // still running (or unqueryable): it stays until the engine goes
            continue;
        }
        unfinished_[i] = unfinished_.back();
        unfinished_.pop_back();
        free_.push_back(event);
    }
}

size_t EventPool::outstanding() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return outstanding_;
}

size_t EventPool::capacity() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return handedOut_.size();
}

} // namespace imex_l0
