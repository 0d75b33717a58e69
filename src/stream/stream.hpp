// A stream: where the library appends work. Over a user immediate list, a
// user regular list (optionally with the queue that executes it), or an
// immediate list the library creates and owns. A stream is used by one thread
// at a time, like the Level Zero command list under it.
#pragma once

#include "common/object.hpp"
#include "engine/engine.hpp"

#include <memory>
#include <string>
#include <vector>

namespace imex_l0 {

class Stream : public Tagged<0x53545245414dull /* "STREAM" */> {
public:
    enum class Kind { userImmediate, userRegular, ownedImmediate };

    Stream(Engine *engine, Kind kind, ze_command_list_handle_t list,
           ze_command_queue_handle_t queue)
        : child_(engine), kind_(kind), list_(list), queue_(queue) {}
    ~Stream();

    // Creates the owned list for Kind::ownedImmediate; checks user handles.
    void init();

    Engine *engine() const { return child_.engine(); }
    ze_command_list_handle_t list() const { return list_; }
    Kind kind() const { return kind_; }
    // Events this stream returns record kernel timestamps (imex_l0_stream_set_profiling).
    void setProfiling(bool on) { profiling_ = on; }

    // Checks a dependency list before anything is appended (see
    // EventPool::checkDependency).
    void checkDeps(size_t ndeps, const ze_event_handle_t *deps) const;
    // Refuses a copy/fill range that wraps the address space or runs past the
    // end of ptr's USM allocation (when ptr is USM of the engine's context).
    void checkExtent(const void *ptr, size_t size, const char *what) const;
    // An event from the engine's pool when the caller asked for one.
    ze_event_handle_t signalEvent(ze_event_handle_t *returnEvent);
    // Refuses a caller's own signal event the library cannot take: one of
    // its own pools, or one asked for together with a returned event.
    static void checkCallerSignal(ze_event_handle_t signal, ze_event_handle_t *returnEvent);
    // Gives back an event taken by signalEvent when the append failed.
    void dropEvent(ze_event_handle_t event) noexcept;
    // After an append of `what` (a kernel's name, "memcpy") that signals
    // `event` (not null): on a regular list the event belongs to the list
    // until listReset() (EventPool::bake), as a replay of the list signals
    // it again; with profiling on, its timestamps' log line names `what`.
    void signaled(ze_event_handle_t event, const std::string &what) {
        if (kind_ == Kind::userRegular)
            bake(event);
        if (profiling_)
            engine()->poolOf(event).label(event, what);
    }
    // The owner of the regular list reset or destroyed it (or wait() reset
    // it): the events it signals can be recycled once released.
    void listReset();
    // A kernel named `name` was appended: a wait that finds the device lost
    // names the last one. Each kernel object shares one copy of its name, so
    // launching the same kernel again costs a comparison.
    void launched(const std::shared_ptr<const std::string> &name) {
        if (lastKernel_ != name)
            lastKernel_ = name;
    }

    // callerSignal: the caller's own event to signal instead (checkCallerSignal).
    void memcpy(void *dst, const void *src, size_t size, size_t ndeps,
                const ze_event_handle_t *deps, ze_event_handle_t *returnEvent,
                ze_event_handle_t callerSignal = nullptr);
    void memset(void *dst, const void *pattern, size_t patternSize, size_t size, size_t ndeps,
                const ze_event_handle_t *deps, ze_event_handle_t *returnEvent);
    // Returns once all work appended is done; after timeoutNs nanoseconds
    // (UINT64_MAX: never) fails with imex_l0_timeout, the work still queued;
    // with imex_l0_device_lost, naming the last kernel, when a kernel faulted.
    void wait(uint64_t timeoutNs = UINT64_MAX);
    // wait() on an immediate list with the caller's event: a barrier signals
    // `done`, the host waits for it; the caller resets it afterwards.
    void waitWith(ze_event_handle_t done);

private:
    // Refuses a user immediate list of another context (Stream::init).
    void checkListContext();
    // checkZe for the result of a wait, a lost device named as such.
    void checkWaited(ze_result_t r, const char *call) const;
    void bake(ze_event_handle_t event);

    EngineChild child_;
    Kind kind_;
    ze_command_list_handle_t list_;
    ze_command_queue_handle_t queue_;
    bool profiling_ = false;
    std::shared_ptr<const std::string> lastKernel_; // launched()
    std::vector<ze_event_handle_t> baked_; // signaled by commands of the regular list
    // A regular list executed by wait() whose queue did not finish it in time:
    // the next wait only synchronizes again.
    bool executing_ = false;
};

} // namespace imex_l0
