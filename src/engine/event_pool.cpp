#include "engine/event_pool.hpp"

#include "common/status.hpp"

#include <algorithm>
#include <exception>

namespace imex_l0 {

namespace {

// Every event of every engine's pool, and the pool it belongs to, so a
// dependency can be traced to its pool whatever engine it is passed to.
std::mutex registryMutex; // guards registry
std::unordered_map<ze_event_handle_t, EventPool *> registry;

} // namespace

EventPool::EventPool(ze_context_handle_t context, ze_device_handle_t device, uint32_t chunk,
                     ze_event_pool_flags_t flags)
    : context_(context), device_(device), chunk_(chunk ? chunk : 64),
      flags_(flags | ZE_EVENT_POOL_FLAG_HOST_VISIBLE) {}

EventPool::~EventPool() {
    {
        std::lock_guard<std::mutex> lock(registryMutex);
        for (auto &entry : states_)
            registry.erase(entry.first);
    }
    for (auto &entry : states_)
        zeEventDestroy(entry.first);
    for (auto pool : pools_)
        zeEventPoolDestroy(pool);
}

void EventPool::grow() {
    // Events are created one at a time, when first needed, inside pools of
    // chunk_ slots: an engine that launches little creates little.
    if (pools_.empty() || nextIndex_ == chunk_) {
        ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr, flags_, chunk_};
        ze_event_pool_handle_t pool = nullptr;
        pools_.reserve(pools_.size() + 1); // so that the pool cannot go untracked
        IMEX_L0_ZE(zeEventPoolCreate(context_, &desc, 1, &device_, &pool));
        pools_.push_back(pool);
        nextIndex_ = 0;
    }
    free_.reserve(free_.size() + 1);
    states_.reserve(states_.size() + 1);
    ze_event_desc_t eventDesc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, nextIndex_,
                                 ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t event = nullptr;
    IMEX_L0_ZE(zeEventCreate(pools_.back(), &eventDesc, &event));
    ++nextIndex_;
    State &state = states_.emplace(event, State{}).first->second;
    free_.push_back({event, &state});
    try {
        std::lock_guard<std::mutex> lock(registryMutex);
        registry.emplace(event, this);
    } catch (...) {
        // Unregistered, the event is only not traced as a dependency.
    }
}

ze_event_handle_t EventPool::acquire() {
    std::lock_guard<std::mutex> lock(mutex_);
    if (free_.empty() && !unfinished_.empty()) {
        free_.reserve(free_.size() + unfinished_.size());
        recycleFinished();
    }
    if (free_.empty())
        grow();
    FreeEvent free = free_.back();
    free_.pop_back();
    free.state->handedOut = true;
    ++outstanding_;
    return free.event;
}

EventPool::State &EventPool::handedOut(ze_event_handle_t event) {
    auto it = states_.find(event);
    if (it == states_.end())
        failInvalid("event was not returned by this engine (it belongs to the caller or to "
                    "another engine); release only events the library returned");
    if (!it->second.handedOut)
        failInvalid("event was already released (double release); release each returned event "
                    "exactly once");
    return it->second;
}

void EventPool::giveBackReset(ze_event_handle_t event) {
    std::lock_guard<std::mutex> lock(mutex_);
    State &state = handedOut(event);
    free_.reserve(free_.size() + 1);
    state.handedOut = false;
    --outstanding_;
    free_.push_back({event, &state});
}

void EventPool::release(ze_event_handle_t event) {
    std::lock_guard<std::mutex> lock(mutex_);
    State &state = handedOut(event);
    if (state.baked) {
        parked_.reserve(parked_.size() + 1);
        state.handedOut = false;
        --outstanding_;
        parked_.push_back(event);
        return;
    }
    recycle(event, state);
    state.handedOut = false;
    --outstanding_;
}

void EventPool::recycle(ze_event_handle_t event, State &state) {
    // An event whose work is still running would be signaled by that work
    // after its next user reset it: it waits in unfinished_ until it is done.
    ze_result_t status = zeEventQueryStatus(event);
    if (status == ZE_RESULT_NOT_READY) {
        unfinished_.reserve(unfinished_.size() + 1);
        unfinished_.push_back(event);
        return;
    }
    checkZe(status, "zeEventQueryStatus");
    // Reset before it can be handed out again, so the next user starts from
    // the unsignaled state the spec requires.
    IMEX_L0_ZE(zeEventHostReset(event));
    free_.reserve(free_.size() + 1);
    free_.push_back({event, &state});
}

void EventPool::bake(ze_event_handle_t event) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = states_.find(event);
    if (it != states_.end())
        it->second.baked = true;
}

void EventPool::unbake(const ze_event_handle_t *events, size_t count) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::exception_ptr failure;
    for (size_t i = 0; i < count; ++i) {
        auto it = states_.find(events[i]);
        if (it == states_.end() || !it->second.baked)
            continue;
        it->second.baked = false;
        if (it->second.handedOut)
            continue;
        // Parked: released while its list could replay; recycled now. One
        // that fails stays parked, for the engine to destroy.
        try {
            recycle(events[i], it->second);
            parked_.erase(std::find(parked_.begin(), parked_.end(), events[i]));
        } catch (...) {
            it->second.baked = true;
            if (!failure)
                failure = std::current_exception();
        }
    }
    if (failure)
        std::rethrow_exception(failure);
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
        free_.push_back({event, &states_.find(event)->second});
    }
}

void EventPool::label(ze_event_handle_t event, const std::string &what) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = states_.find(event);
    if (it != states_.end())
        it->second.label = what;
}

std::string EventPool::labelOf(ze_event_handle_t event) const {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = states_.find(event);
    return it == states_.end() ? std::string() : it->second.label;
}

EventPool *EventPool::poolOf(ze_event_handle_t event) {
    std::lock_guard<std::mutex> lock(registryMutex);
    auto it = registry.find(event);
    return it == registry.end() ? nullptr : it->second;
}

void EventPool::checkDependency(ze_event_handle_t event, ze_context_handle_t context,
                                size_t index) {
    auto what = [index] { return "deps[" + std::to_string(index) + "]"; };
    const EventPool *pool = poolOf(event);
    if (!pool)
        return;
    // The pool lives while its events are registered; its engine is in use
    // by the caller or by another thread that owns it.
    if (pool->context_ != context)
        failInvalid(what() + " is an event the library returned for another context: a "
                           "dependency must be an event of this engine's context");
    std::lock_guard<std::mutex> lock(pool->mutex_);
    auto it = pool->states_.find(event);
    if (it != pool->states_.end() && !it->second.handedOut)
        failInvalid(what() + " is an event already given back with imex_l0_event_release (it "
                           "was reset and may never signal again): keep an event until every "
                           "submission that depends on it has been made");
}

size_t EventPool::outstanding() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return outstanding_;
}

size_t EventPool::capacity() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return states_.size();
}

} // namespace imex_l0
