// The engine's events: handed out by submissions that return an event,
// released by the user, recycled with zeEventHostReset. Grows by whole Level
// Zero pools on demand (no fixed cap, never a pool per launch); in steady
// state acquire/release allocate nothing.
#pragma once

#include <level_zero/ze_api.h>

#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace imex_l0 {

class EventPool {
public:
    // flags: ZE_EVENT_POOL_FLAG_HOST_VISIBLE always, plus e.g. KERNEL_TIMESTAMP.
    EventPool(ze_context_handle_t context, ze_device_handle_t device, uint32_t chunk,
              ze_event_pool_flags_t flags = 0);
    ~EventPool(); // destroys every event and pool, handed out or not

    ze_event_handle_t acquire();
    // Throws invalid_arguments for an event not handed out (never, or released already).
    void release(ze_event_handle_t event);
    // Takes back an event its holder has reset after its work was seen
    // complete (no status query, no reset). Throws like release.
    void giveBackReset(ze_event_handle_t event);
    // The event is signaled by a command of a regular list, which may be
    // executed again: released, it is parked instead of recycled (a replay
    // would signal it for its next user) until unbake() says the list was
    // reset or destroyed. Ignores events this pool did not hand out.
    void bake(ze_event_handle_t event);
    // The list that signaled these events was reset or destroyed: parked
    // ones are recycled like released ones, the others are plain again.
    void unbake(const ze_event_handle_t *events, size_t count);
    // What signals the event (a kernel's name, "memcpy"), for the log line of
    // its timestamps; kept until the event is handed out again.
    void label(ze_event_handle_t event, const std::string &what);
    std::string labelOf(ze_event_handle_t event) const;
    // Refuses a dependency the library knows cannot complete: an event of
    // some engine's pool that is not handed out now (released, so reset and
    // possibly never signaled again), or one of a pool in another context
    // than `context`. Events the library never made pass: they are the
    // caller's. The message names deps[index].
    static void checkDependency(ze_event_handle_t event, ze_context_handle_t context,
                                size_t index);
    // The pool an event of some engine came from, or null for an event the
    // library did not make. The pool lives while its engine does.
    static EventPool *poolOf(ze_event_handle_t event);
    // Events currently handed out, for tests and the engine's destroy rule.
    size_t outstanding() const;
    size_t capacity() const;

private:
    void grow(); // adds one event; requires mutex_
    // Moves released events whose work has finished to free_; requires mutex_
    // and room in free_ for all of them.
    void recycleFinished();
    struct State {
        bool handedOut = false; // to a user (or a stream) now
        bool baked = false;     // signaled by a command of a regular list
        std::string label;      // see label(); its capacity is reused
    };
    // The state of an event handed out now, or an error; requires mutex_.
    State &handedOut(ze_event_handle_t event);
    // Recycles a released event: into free_ (reset) when its work is done,
    // else unfinished_; requires mutex_.
    void recycle(ze_event_handle_t event, State &state);

    ze_context_handle_t context_;
    ze_device_handle_t device_;
    uint32_t chunk_;
    ze_event_pool_flags_t flags_;
    mutable std::mutex mutex_; // guards every member below
    std::vector<ze_event_pool_handle_t> pools_;
    uint32_t nextIndex_ = 0; // the next unused slot of pools_.back()
    // Free events with their states (an unordered_map's elements stay where
    // they are), so that handing one out, once per launch, needs no lookup.
    struct FreeEvent {
        ze_event_handle_t event;
        State *state;
    };
    std::vector<FreeEvent> free_;
    std::vector<ze_event_handle_t> unfinished_; // released while their work still ran
    std::vector<ze_event_handle_t> parked_;     // released while baked into a regular list
    std::unordered_map<ze_event_handle_t, State> states_; // every event of the pool
    size_t outstanding_ = 0;
};

} // namespace imex_l0
