// Kernels: the argument values set so far, the group size and the global
// offset (KernelLaunch), checked here against the kernel's metadata and the
// device's limits, and the backend's kernel object (KernelNative). A launch
// snapshots the values when it is appended.
#pragma once

#include "backend_native.hpp"
#include "kernel_launch.hpp"
#include "program/program_builder.hpp"

#include <vector>

namespace ze_driver {

class Module;

class Kernel : public Object {
public:
    static constexpr Tag kTag = Tag::Kernel;

    // Makes the backend's kernel (backend::initKernel).
    Kernel(Module *module, const KernelInfo *info);

    Module *module() const { return module_; }
    const KernelInfo &info() const { return *info_; }
    const KernelLaunch &launch() const { return launch_; }
    KernelNative &native() { return native_; }
    const KernelNative &native() const { return native_; }

    void setArgument(uint32_t index, size_t size, const void *value);
    void setGroupSize(uint32_t x, uint32_t y, uint32_t z);
    void suggestGroupSize(const uint32_t global[3], uint32_t out[3]) const;
    void setGlobalOffset(uint32_t x, uint32_t y, uint32_t z);
    void setIndirectAccess(ze_kernel_indirect_access_flags_t flags) { indirectAccess_ = flags; }
    ze_kernel_indirect_access_flags_t indirectAccess() const { return indirectAccess_; }
    void getProperties(ze_kernel_properties_t *p) const;
    // Launching requires every argument to be set: INVALID_ARGUMENT otherwise.
    void checkReady() const;

private:
    Ref<Module> module_;
    const KernelInfo *info_;
    size_t maxGroupSize_ = 1; // the most work-items per group the backend allows for this kernel
    KernelLaunch launch_; // the values set so far; changed only by the application's thread
    ze_kernel_indirect_access_flags_t indirectAccess_ = 0;
    KernelNative native_;
};

} // namespace ze_driver
