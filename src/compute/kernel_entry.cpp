#include "compute/kernel_entry.hpp"

#include <cstring>

#include "common/status.hpp"
#include "compute/kernel_handles.hpp"

namespace imex_l0 {

void checkGroupSize(const ze_device_compute_properties_t &c, const uint32_t size[3],
                    const char *what) {
    const uint32_t maxDim[3] = {c.maxGroupSizeX, c.maxGroupSizeY, c.maxGroupSizeZ};
    uint64_t total = 1;
    for (int d = 0; d < 3; ++d) {
        if (size[d] > maxDim[d])
            failInvalid(std::string(what) + "[" + std::to_string(d) + "] = " +
                        std::to_string(size[d]) + " exceeds the device's maximum of " +
                        std::to_string(maxDim[d]));
        total *= size[d];
    }
    if (total > c.maxTotalGroupSize)
        failInvalid("the group has " + std::to_string(total) +
                    " work-items, more than the device's maximum of " +
                    std::to_string(c.maxTotalGroupSize));
}

namespace {

// Why the driver refused a launch, when it is the group count: more groups in
// a dimension than the device runs (the CUDA driver's: 2^31 - 1 in each),
// which the caller can only fix by launching differently.
void checkGroupCount(const ze_device_compute_properties_t &c, const ze_group_count_t &count) {
    const uint32_t groups[3] = {count.groupCountX, count.groupCountY, count.groupCountZ};
    const uint32_t maxima[3] = {c.maxGroupCountX, c.maxGroupCountY, c.maxGroupCountZ};
    for (int d = 0; d < 3; ++d)
        if (groups[d] > maxima[d])
            failInvalid("the launch has " + std::to_string(groups[d]) +
                        " work-groups in dimension " + std::to_string(d) +
                        ", more than the device's maximum of " + std::to_string(maxima[d]) +
                        ": launch the work in parts, or lay it out along a dimension with room "
                        "(maxima " +
                        std::to_string(maxima[0]) + ", " + std::to_string(maxima[1]) + ", " +
                        std::to_string(maxima[2]) + ")");
}

} // namespace

void KernelEntry::checkLocalMemory(const ArgValue *values, size_t nvalues) const {
    uint64_t total = 0;
    for (size_t i = 0; i < nvalues && i < args.size(); ++i) {
        const bool local = args[i].kind == imex_l0_arg_kind_local ||
                           (args[i].kind == imex_l0_arg_kind_unknown && values[i].ptr == nullptr);
        if (!local)
            continue;
        total += values[i].size;
        if (total > localMemoryLimit)
            failInvalid("argument " + std::to_string(i) + " of kernel '" + name + "' asks for " +
                        std::to_string(values[i].size) + " bytes of local memory" +
                        (total > values[i].size
                             ? " (" + std::to_string(total) + " with the arguments before it)"
                             : std::string()) +
                        ", but the device has " + std::to_string(localMemoryLimit) +
                        " bytes (ze_device_compute_properties_t.maxSharedLocalMemory): use less "
                        "local memory per work-group");
    }
}

void KernelEntry::append(ze_command_list_handle_t list, const ArgValue *values, size_t nvalues,
                         const uint32_t groupSize[3], const char *sizeName,
                         const ze_group_count_t &count, const size_t *globalOffset,
                         ze_event_handle_t signal, uint32_t ndeps, ze_event_handle_t *deps) {
    if (hasLocalArgs)
        checkLocalMemory(values, nvalues);
    std::array<uint32_t, 3> offset{0, 0, 0};
    if (globalOffset)
        for (int d = 0; d < 3; ++d) {
            if (globalOffset[d] > UINT32_MAX)
                failInvalid("global_offset[" + std::to_string(d) + "] = " +
                            std::to_string(globalOffset[d]) +
                            " exceeds Level Zero's 32-bit offsets");
            offset[d] = uint32_t(globalOffset[d]);
        }
    std::lock_guard<std::mutex> lock(launchMutex_);
    const bool newGroupSize = groupSize_[0] != groupSize[0] || groupSize_[1] != groupSize[1] ||
                              groupSize_[2] != groupSize[2];
    if (newGroupSize) // before any state of the handle changes
        checkGroupSize(*compute, groupSize, sizeName);
    if (setArgs_.size() < nvalues)
        setArgs_.resize(nvalues);
    for (size_t i = 0; i < nvalues; ++i) {
        SetArg &last = setArgs_[i];
        const ArgValue &v = values[i];
        if (last.holds(v))
            continue;
        last.size = SIZE_MAX; // unknown until the driver took the new value
        ze_result_t r = zeKernelSetArgumentValue(handle, uint32_t(i), v.size, v.ptr);
        if (r == ZE_RESULT_SUCCESS) {
            last.keep(v);
            continue;
        }
        std::string message = "argument " + std::to_string(i) + " of kernel '" + name +
                              "': zeKernelSetArgumentValue failed: " + zeResultName(r);
        // The driver's refusal of the value is the caller's to fix; running
        // out of memory or losing the device is not.
        bool refused = r == ZE_RESULT_ERROR_INVALID_ARGUMENT ||
                       r == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE ||
                       r == ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX;
        fail(refused ? imex_l0_invalid_arguments
             : r == ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY || r == ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY
                 ? imex_l0_out_of_memory
                 : imex_l0_runtime_error,
             message);
    }
    if (offset != globalOffset_) {
        ze_result_t r = zeKernelSetGlobalOffsetExp(handle, offset[0], offset[1], offset[2]);
        if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE || r == ZE_RESULT_ERROR_UNINITIALIZED)
            fail(imex_l0_unimplemented, "the driver cannot launch with a global offset "
                                        "(zeKernelSetGlobalOffsetExp): " +
                                            std::string(zeResultName(r)));
        checkZe(r, "zeKernelSetGlobalOffsetExp");
        globalOffset_ = offset;
    }
    if (newGroupSize) {
        IMEX_L0_ZE(zeKernelSetGroupSize(handle, groupSize[0], groupSize[1], groupSize[2]));
        groupSize_ = {groupSize[0], groupSize[1], groupSize[2]};
    }
    ze_result_t r = zeCommandListAppendLaunchKernel(list, handle, &count, signal, ndeps, deps);
    if (r == ZE_RESULT_ERROR_INVALID_ARGUMENT) {
        // Checked only once refused: a launch that runs pays nothing for it.
        if (compute)
            checkGroupCount(*compute, count);
        // The library cannot see which context an event or a user's list
        // belongs to (Level Zero 1.4 has no query); the driver can, and this
        // is what its refusal almost always means otherwise.
        fail(imex_l0_runtime_error,
             "zeCommandListAppendLaunchKernel failed: ZE_RESULT_ERROR_INVALID_ARGUMENT (pass "
             "only live events of the kernel's context as dependencies, and run the kernel on "
             "a stream whose command list belongs to that context and has not been destroyed)");
    }
    checkZe(r, "zeCommandListAppendLaunchKernel");
}

KernelEntry::~KernelEntry() {
    if (imported)
        kernel_handles::release(handle);
    if (ownsHandle)
        zeKernelDestroy(handle);
    if (ownedModule)
        zeModuleDestroy(ownedModule);
}

bool KernelEntry::SetArg::holdsBytes(const ArgValue &v) const {
    return std::memcmp(bytes.data(), v.ptr, v.size) == 0;
}

void KernelEntry::SetArg::keepBytes(const ArgValue &v) {
    const auto *b = static_cast<const uint8_t *>(v.ptr);
    bytes.assign(b, b + v.size);
}

std::array<uint32_t, 3> KernelEntry::suggestGroupSize(const uint32_t global[3]) {
    std::lock_guard<std::mutex> lock(launchMutex_);
    if (suggestedFor_[0] != global[0] || suggestedFor_[1] != global[1] ||
        suggestedFor_[2] != global[2]) {
        uint32_t s[3];
        IMEX_L0_ZE(zeKernelSuggestGroupSize(handle, global[0], global[1], global[2], &s[0], &s[1],
                                            &s[2]));
        suggestion_ = {s[0], s[1], s[2]};
        suggestedFor_ = {global[0], global[1], global[2]};
    }
    return suggestion_;
}

} // namespace imex_l0
