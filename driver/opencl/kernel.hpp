// Kernels: a cl_kernel, the argument values set so far, the group size and
// the global offset. A launch snapshots these (KernelLaunch) when it is
// appended, so later changes do not affect it.
#pragma once

#include "backend_native.hpp"
#include "program/program_builder.hpp"

#include <mutex>
#include <vector>

namespace ze_driver {

class Module;

struct ArgValue {
    bool set = false;
    std::vector<uint8_t> bytes; // the value, or the pointer's 8 bytes
    size_t localSize = 0;       // local memory arguments

    bool operator==(const ArgValue &o) const {
        return set == o.set && localSize == o.localSize && bytes == o.bytes;
    }
};

struct KernelLaunch {
    std::vector<ArgValue> args;
    uint32_t groupSize[3] = {1, 1, 1};
    uint32_t offset[3] = {0, 0, 0};
};

class Kernel : public Object {
public:
    static constexpr Tag kTag = Tag::Kernel;

    Kernel(Module *module, const KernelInfo *info);
    ~Kernel();
    void init();

    Module *module() const { return module_; }
    const KernelInfo &info() const { return *info_; }
    const KernelLaunch &launch() const { return launch_; }

    void setArgument(uint32_t index, size_t size, const void *value);
    void setGroupSize(uint32_t x, uint32_t y, uint32_t z);
    void suggestGroupSize(const uint32_t global[3], uint32_t out[3]) const;
    void setGlobalOffset(uint32_t x, uint32_t y, uint32_t z);
    void setIndirectAccess(ze_kernel_indirect_access_flags_t flags) { indirectAccess_ = flags; }
    ze_kernel_indirect_access_flags_t indirectAccess() const { return indirectAccess_; }
    void getProperties(ze_kernel_properties_t *p) const;
    // Launching requires every argument to be set: INVALID_ARGUMENT otherwise.
    void checkReady() const;

    // Sets `launch`'s arguments on the shared cl_kernel and enqueues it, under
    // the kernel's lock (OpenCL captures the arguments at enqueue time).
    // Returns the command's event when `wantEvent`, else null.
    cl_event enqueue(cl_command_queue queue, const KernelLaunch &launch,
                     const ze_group_count_t &groups, cl_uint numWaits, const cl_event *waits,
                     bool wantEvent);

private:
    Ref<Module> module_;
    const KernelInfo *info_;
    cl_kernel cl_ = nullptr;
    size_t maxGroupSize_ = 1;
    KernelLaunch launch_; // the values set so far; changed only by the application's thread
    ze_kernel_indirect_access_flags_t indirectAccess_ = 0;
    std::mutex enqueueMutex_; // guards the cl_kernel's argument state and applied_
    // The values last set on the cl_kernel: setting an argument costs about
    // as much as the launch on PoCL, so unchanged ones are not set again.
    std::vector<ArgValue> applied_;
};

} // namespace ze_driver
