#include "compute/kernel.hpp"

#include "common/c_enum.hpp"
#include "common/small_buffer.hpp"
#include "memory/memory.hpp"
#include "memory/usm.hpp"
#include "stream/stream.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace imex_l0 {

namespace {

std::string argName(size_t i, const std::string &kernel) {
    return "argument " + std::to_string(i) + " of kernel '" + kernel + "'";
}

const char *kindName(imex_l0_arg_kind_t kind) {
    switch (kind) {
    case imex_l0_arg_kind_global:
        return "a global pointer";
    case imex_l0_arg_kind_constant:
        return "a constant pointer";
    case imex_l0_arg_kind_local:
        return "a local memory pointer";
    case imex_l0_arg_kind_value:
        return "a by-value argument";
    case imex_l0_arg_kind_unknown:
        break;
    }
    return "an argument";
}

// Resolves one user argument into what zeKernelSetArgumentValue takes.
// `slot` holds a pointer value when the argument is a memory object.
ArgValue resolve(const imex_l0_exec_arg_t &arg, const ArgInfo &info, size_t i,
                 const KernelEntry &kernel, Engine *engine, void *&slot) {
    const auto type = rawValue(arg.type); // any int from a C caller
    switch (info.kind) {
    case imex_l0_arg_kind_global:
    case imex_l0_arg_kind_constant:
        if (type == imex_l0_arg_memory) {
            auto *memory = reinterpret_cast<Memory *>(arg.memory);
            if (!memory || !memory->tagValid())
                failInvalid(argName(i, kernel.name) +
                            " has no live memory object (NULL, destroyed or another handle type)");
            if (memory->engine() != engine)
                failInvalid(argName(i, kernel.name) +
                            " is a memory object of another engine: create it on the kernel's engine");
            if (arg.size >= memory->count())
                failInvalid(argName(i, kernel.name) + " names buffer " + std::to_string(arg.size) +
                            " of a memory object of " + std::to_string(memory->count()) +
                            " (imex_l0_exec_arg_t.size is the buffer's index for a memory "
                            "argument)");
            slot = memory->get(arg.size);
            if (!slot)
                failInvalid(argName(i, kernel.name) +
                            " is a memory object without a buffer (created with NONE): set one "
                            "with imex_l0_interop_memory_set_mem_object");
            return {sizeof(void *), &slot};
        }
        if (type == imex_l0_arg_usm)
            return {sizeof(void *), &arg.ptr}; // NULL is a valid pointer argument in OpenCL C
        break;
    case imex_l0_arg_kind_local:
        if (type == imex_l0_arg_local) {
            if (arg.size == 0)
                failInvalid(argName(i, kernel.name) + " is local memory of size 0: give its byte size");
            return {arg.size, nullptr};
        }
        break;
    case imex_l0_arg_kind_unknown:
        // An imported kernel's: the argument's own type says what it is, and
        // the driver checks the size of a value.
        if (type == imex_l0_arg_memory || type == imex_l0_arg_usm)
            return resolve(arg, {imex_l0_arg_kind_global, sizeof(void *)}, i, kernel, engine, slot);
        if (type == imex_l0_arg_local)
            return resolve(arg, {imex_l0_arg_kind_local, 0}, i, kernel, engine, slot);
        if (type == imex_l0_arg_value)
            return resolve(arg, {imex_l0_arg_kind_value, arg.size}, i, kernel, engine, slot);
        break;
    case imex_l0_arg_kind_value:
        if (type == imex_l0_arg_value) {
            if (!arg.ptr)
                failInvalid(argName(i, kernel.name) + " is a value with ptr NULL: point at its bytes");
            if (arg.size != info.size)
                failInvalid(argName(i, kernel.name) + " is a " + std::to_string(info.size) +
                            "-byte value but " + std::to_string(arg.size) + " bytes were given");
            return {arg.size, arg.ptr};
        }
        break;
    }
    failInvalid(argName(i, kernel.name) + " is " + kindName(info.kind) +
                " but was passed with a different imex_l0_exec_arg_type_t");
}

// The group size and count of a launch by group count: range.local groups
// of options.group_count.
void groupsByCount(const imex_l0_range_t &range, const uint32_t groupCount[3], uint32_t size[3],
                   ze_group_count_t &count) {
    for (int d = 0; d < 3; ++d) {
        if (groupCount[d] == 0)
            failInvalid("group_count[" + std::to_string(d) +
                        "] is 0: give all three group counts (1 for unused dimensions), or none");
        if (range.local[d] == 0 || range.local[d] > UINT32_MAX)
            failInvalid("local[" + std::to_string(d) + "] = " + std::to_string(range.local[d]) +
                        ": a launch by group count needs the group size, each in 1..2^32-1");
        size[d] = uint32_t(range.local[d]);
    }
    count = {groupCount[0], groupCount[1], groupCount[2]};
}

// Checks the range and derives the group size and count. The global sizes
// are checked to fit 32 bits first, so the arithmetic below is 32-bit: one
// 32-bit division per dimension (count, then count * local == global for
// divisibility), a shift for a power of two, rather than a 64-bit remainder
// and a 64-bit division, which cost tens of cycles each on every launch.
void groups(KernelEntry &k, const imex_l0_range_t &range, Engine *engine, uint32_t size[3],
            ze_group_count_t &count) {
    for (int d = 0; d < 3; ++d)
        if (range.global[d] == 0 || range.global[d] > UINT32_MAX)
            failInvalid("global[" + std::to_string(d) + "] = " + std::to_string(range.global[d]) +
                        " is outside 1..2^32-1 (use 1 for unused dimensions)");
    const uint32_t global[3] = {uint32_t(range.global[0]), uint32_t(range.global[1]),
                                uint32_t(range.global[2])};
    uint32_t groupCount[3];
    bool chooseLocal = range.local[0] == 0 && range.local[1] == 0 && range.local[2] == 0;
    if (chooseLocal) {
        auto suggestion = k.suggestGroupSize(global);
        for (int d = 0; d < 3; ++d) {
            size[d] = suggestion[d];
            groupCount[d] = global[d] / size[d];
        }
    } else {
        for (int d = 0; d < 3; ++d) {
            size_t l = range.local[d];
            // l <= global[d] < 2^32 holds for every local size that divides
            // global[d]; larger ones fail the same check below.
            uint32_t l32 = l <= global[d] ? uint32_t(l) : 0;
            // Group sizes are mostly powers of two: a shift, not a division.
            uint32_t n = l32 == 0                ? 0
                         : (l32 & (l32 - 1)) == 0 ? global[d] >> __builtin_ctz(l32)
                                                  : global[d] / l32;
            if (l32 == 0 || n * l32 != global[d])
                failInvalid("local[" + std::to_string(d) + "] = " + std::to_string(l) +
                            " does not divide global[" + std::to_string(d) + "] = " +
                            std::to_string(range.global[d]) +
                            " (all local sizes 0 lets the library choose)");
            size[d] = l32;
            groupCount[d] = n;
        }
    }
    count = {groupCount[0], groupCount[1], groupCount[2]};
}

} // namespace

void Kernel::queryUsm(size_t index, const void *ptr) {
    UsmRanges &known = engine()->usmRanges();
    if (!known.contains(ptr)) {
        UsmAllocation usm = usmAllocation(engine()->context(), ptr);
        if (usm.type == ZE_MEMORY_TYPE_UNKNOWN)
            failInvalid(argName(index, entry_->name) +
                        " is not USM of the engine's context (a malloc() or stack pointer, freed "
                        "memory, or USM of another context): allocate it with zeMemAlloc* on "
                        "that context, or pass a memory object");
        known.add(usm.base, usm.size);
    }
    CheckedUsm &checked = checkedUsm_[index];
    checked.recent[1].store(checked.recent[0].load(std::memory_order_relaxed),
                            std::memory_order_relaxed);
    checked.recent[0].store(ptr, std::memory_order_relaxed);
}

void Kernel::execute(Stream &stream, size_t nargs, const imex_l0_exec_arg_t *args,
                     const imex_l0_range_t &range, const imex_l0_launch_options_t *options,
                     size_t ndeps, const ze_event_handle_t *deps, ze_event_handle_t *returnEvent,
                     uint32_t *localUsed) {
    KernelEntry &k = *entry_;
    if (stream.engine() != engine())
        failInvalid("stream and kernel belong to different engines");
    if (nargs != k.args.size())
        failInvalid("kernel '" + k.name + "' takes " + std::to_string(k.args.size()) +
                    " argument(s) but " + std::to_string(nargs) + " were given");
    if (nargs > 0 && !args)
        failInvalid("args is NULL but nargs is " + std::to_string(nargs));
    stream.checkDeps(ndeps, deps);

    SmallBuffer<ArgValue> values(nargs);
    SmallBuffer<void *> slots(nargs); // pointer values of memory-object arguments
    for (size_t i = 0; i < nargs; ++i) {
        const imex_l0_exec_arg_t &arg = args[i];
        const bool usm = rawValue(arg.type) == imex_l0_arg_usm;
        const imex_l0_arg_kind_t kind = k.args[i].kind;
        // A USM pointer for a pointer argument, the common case, needs none
        // of resolve()'s checks: only the pointer's own (checkUsm).
        if (usm && (kind == imex_l0_arg_kind_global || kind == imex_l0_arg_kind_constant))
            values[i] = {sizeof(void *), &arg.ptr};
        else
            values[i] = resolve(arg, k.args[i], i, k, engine(), slots[i]);
        if (usm && arg.ptr)
            checkUsm(i, arg.ptr);
    }

    uint32_t size[3];
    ze_group_count_t count;
    const uint32_t *groupCount = options ? options->group_count : nullptr;
    if (groupCount && (groupCount[0] | groupCount[1] | groupCount[2]))
        groupsByCount(range, groupCount, size, count);
    else
        groups(k, range, engine(), size, count);
    ze_event_handle_t callerSignal = options ? options->signal_event : nullptr;
    Stream::checkCallerSignal(callerSignal, returnEvent);
    ze_event_handle_t signal = callerSignal ? callerSignal : stream.signalEvent(returnEvent);
    try {
        k.append(stream.list(), values.data(), nargs, size, "local", count,
                 options ? options->global_offset : nullptr, signal, uint32_t(ndeps),
                 const_cast<ze_event_handle_t *>(deps));
    } catch (...) {
        if (!callerSignal)
            stream.dropEvent(signal);
        throw;
    }
    stream.launched(name_);
    if (returnEvent) {
        stream.signaled(signal, k.name);
        *returnEvent = signal;
    }
    if (localUsed)
        std::copy(size, size + 3, localUsed);
}

} // namespace imex_l0
