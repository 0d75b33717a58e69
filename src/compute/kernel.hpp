// A kernel handed to the user: a reference to an engine-cached Level Zero
// kernel plus the argument metadata every launch is checked against.
#pragma once

#include "common/object.hpp"
#include "compute/kernel_cache.hpp"
#include "engine/engine.hpp"

#include <array>
#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace imex_l0 {

class Stream;

class Kernel : public Tagged<0x4b45524e454cull /* "KERNEL" */> {
public:
    Kernel(Engine *engine, std::shared_ptr<KernelEntry> entry, std::string buildLog = {})
        : child_(engine), entry_(std::move(entry)),
          name_(std::make_shared<const std::string>(entry_->name)),
          buildLog_(std::move(buildLog)), checkedUsm_(entry_->args.size()) {}

    Engine *engine() const { return child_.engine(); }
    const KernelEntry &entry() const { return *entry_; }
    // The compiler's log of the source it was built from ("" for SPIR-V).
    const std::string &buildLog() const { return buildLog_; }
    // The group size launches choose for `global` (cached by the entry).
    std::array<uint32_t, 3> suggestGroupSize(const uint32_t global[3]) {
        return entry_->suggestGroupSize(global);
    }

    // Validates everything first, then sets arguments and appends the launch
    // under the kernel's launch lock. localUsed (optional) receives the group
    // size launched (the library's choice when range.local is all 0).
    // options may be NULL (no offset, the range's groups, no caller's event).
    void execute(Stream &stream, size_t nargs, const imex_l0_exec_arg_t *args,
                 const imex_l0_range_t &range, const imex_l0_launch_options_t *options,
                 size_t ndeps, const ze_event_handle_t *deps, ze_event_handle_t *returnEvent,
                 uint32_t *localUsed = nullptr);

private:
    // Refuses a USM argument that is no allocation of the engine's context;
    // a pointer found to be one at the last launch passes without a lookup,
    // one into an allocation found before (the engine's UsmRanges) without
    // a query.
    void checkUsm(size_t index, const void *ptr) {
        const CheckedUsm &checked = checkedUsm_[index];
        if (checked.recent[0].load(std::memory_order_relaxed) != ptr &&
            checked.recent[1].load(std::memory_order_relaxed) != ptr)
            queryUsm(index, ptr);
    }
    void queryUsm(size_t index, const void *ptr);

    EngineChild child_;
    std::shared_ptr<KernelEntry> entry_;
    // The entry's name, for the streams it is launched on (Stream::launched),
    // which may outlive the kernel and must not keep its entry alive.
    std::shared_ptr<const std::string> name_;
    std::string buildLog_;
    // Per argument, the last two pointers found to be USM of the engine's
    // context (double buffering alternates two): launches that pass one of
    // them again skip the lookup. Relaxed atomics: launches may come from
    // several threads, and a stale entry only costs one more lookup.
    struct CheckedUsm {
        std::atomic<const void *> recent[2] = {nullptr, nullptr};
    };
    std::vector<CheckedUsm> checkedUsm_;
};

} // namespace imex_l0
