// Modules (a program built for one device by the backend, and its kernels'
// argument metadata) and module build logs.
#pragma once

#include "backend_native.hpp"
#include "program/program_builder.hpp"

#include <string>
#include <vector>

namespace ze_driver {

class Context;
class Device;

class Module : public Object, public Counted<Module> {
public:
    static constexpr Tag kTag = Tag::Module;

    // Empty until the backend builds it (backend::buildModule).
    Module(Context *context, Device *device);
    ~Module();

    Context *context() const { return context_; }
    Device *device() const { return device_; }
    ModuleNative &native() { return native_; }
    const ModuleNative &native() const { return native_; }
    const std::vector<KernelInfo> &kernels() const { return kernels_; }
    void setKernels(std::vector<KernelInfo> kernels) { kernels_ = std::move(kernels); }
    // The kernel's metadata, or null when the module has no such kernel.
    const KernelInfo *findKernel(const char *name) const;

private:
    Ref<Context> context_;
    Device *device_;
    std::vector<KernelInfo> kernels_;
    ModuleNative native_; // released first: it may need the context
};

class ModuleBuildLog : public Object {
public:
    static constexpr Tag kTag = Tag::ModuleBuildLog;
    explicit ModuleBuildLog(std::string text) : Object(kTag), text_(std::move(text)) {}
    const std::string &text() const { return text_; }

private:
    std::string text_;
};

} // namespace ze_driver
