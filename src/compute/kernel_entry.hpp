// One Level Zero kernel and what every launch of it needs, resolved once at
// creation: argument metadata, the group size last set on the handle, the
// last group-size suggestion. Shared by every user of the kernel (interop
// kernels and gpu* callers), so launching serialises on its mutex.
#pragma once

#include "common/object.hpp"
#include "imex_l0_interop.h"

#include <level_zero/ze_api.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

namespace imex_l0 {

struct ArgInfo {
    imex_l0_arg_kind_t kind = imex_l0_arg_kind_value;
    size_t size = 0; // bytes the launch passes: 8 for pointers, 0 for local, the value's size
};

// What zeKernelSetArgumentValue takes for one argument (ptr NULL: local memory).
struct ArgValue {
    size_t size;
    const void *ptr;
};

// Refuses a work-group shape the device cannot run (per-dimension and total
// maxima of ze_device_compute_properties_t), naming `what` ("local", "block").
void checkGroupSize(const ze_device_compute_properties_t &device, const uint32_t size[3],
                    const char *what);

struct KernelEntry : Tagged<0x4b454e545259ull /* "KENTRY" */> {
    std::string name;
    ze_kernel_handle_t handle = nullptr;
    std::vector<ArgInfo> args;
    // The cache (so the engine) that built it: a gpu* kernel handle may be
    // passed to a stream of another engine, whose lists cannot launch it.
    const void *owner = nullptr;
    // The device's local memory (ze_device_compute_properties_t.
    // maxSharedLocalMemory): launches asking for more are refused before
    // they reach the driver, whose device may not survive them.
    uint64_t localMemoryLimit = UINT64_MAX;
    // The device's group-size maxima (the engine's, which outlives the entry).
    const ze_device_compute_properties_t *compute = nullptr;
    bool hasLocalArgs = false; // any argument of kind imex_l0_arg_kind_local
    // An imported kernel transferred to the library: the entry destroys the
    // handle, then ownedModule (if not NULL). The cache's entries own
    // nothing themselves: the cache destroys their kernels and modules.
    bool ownsHandle = false;
    ze_module_handle_t ownedModule = nullptr;
    bool imported = false; // holds a kernel_handles claim

    KernelEntry() = default;
    KernelEntry(const KernelEntry &) = delete;
    KernelEntry &operator=(const KernelEntry &) = delete;
    ~KernelEntry();

    // Sets the arguments and group size and appends the launch, all under
    // launchMutex: Level Zero kernel arguments are state on the handle, and
    // the spec captures them at append time, so holding the lock across
    // set + append makes concurrent launches from several threads safe. A
    // group size other than the last one set is checked against the device
    // first (checkGroupSize, naming it sizeName): the check is made once per
    // size change, not per launch.
    // Argument values, the group size and globalOffset (NULL: 0 0 0) are
    // state of the handle that persists between appends: each is set only
    // when it differs from what the last launch set (the handle's state
    // belongs to the library, imex_l0_interop_kernel_get_handle).
    void append(ze_command_list_handle_t list, const ArgValue *values, size_t nvalues,
                const uint32_t groupSize[3], const char *sizeName, const ze_group_count_t &count,
                const size_t *globalOffset, ze_event_handle_t signal, uint32_t ndeps,
                ze_event_handle_t *deps);

    // zeKernelSuggestGroupSize for a global size, remembered for the next
    // launch of the same size.
    std::array<uint32_t, 3> suggestGroupSize(const uint32_t global[3]);

private:
    // Refuses local-memory arguments that together exceed localMemoryLimit.
    void checkLocalMemory(const ArgValue *values, size_t nvalues) const;

    // The value last set for one argument (size SIZE_MAX: none, or its
    // setting failed): up to 8 bytes (pointers, most scalars) in `word`,
    // larger ones in `bytes`; local memory (no value) is its size alone.
    struct SetArg {
        size_t size = SIZE_MAX;
        bool local = false;
        uint64_t word = 0;
        std::vector<uint8_t> bytes;

        // Both run for every argument of every launch: inline, with the
        // word case (pointers) first.
        bool holds(const ArgValue &v) const {
            if (size != v.size || local != (v.ptr == nullptr))
                return false;
            if (local)
                return true;
            return v.size <= sizeof word ? wordAt(v.ptr, v.size) == word : holdsBytes(v);
        }
        void keep(const ArgValue &v) {
            local = v.ptr == nullptr;
            size = v.size;
            word = !local && v.size <= sizeof word ? wordAt(v.ptr, v.size) : 0;
            if (!local && v.size > sizeof word)
                keepBytes(v);
        }

    private:
        bool holdsBytes(const ArgValue &v) const;
        void keepBytes(const ArgValue &v);
        // The value of 1, 2, 4 or 8 bytes at p, zero-extended: copies of a
        // constant size compile to one load, not a call.
        static uint64_t wordAt(const void *p, size_t size) {
            uint64_t w = 0;
            switch (size) {
            case 8:
                std::memcpy(&w, p, 8);
                break;
            case 4:
                std::memcpy(&w, p, 4);
                break;
            case 2:
                std::memcpy(&w, p, 2);
                break;
            default:
                std::memcpy(&w, p, size);
            }
            return w;
        }
    };

    std::mutex launchMutex_; // guards the handle's argument state and the members below
    std::vector<SetArg> setArgs_;
    std::array<uint32_t, 3> groupSize_{0, 0, 0};
    std::array<uint32_t, 3> globalOffset_{0, 0, 0};
    std::array<uint32_t, 3> suggestedFor_{0, 0, 0};
    std::array<uint32_t, 3> suggestion_{0, 0, 0};
};

} // namespace imex_l0
