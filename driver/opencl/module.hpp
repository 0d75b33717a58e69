// Modules (a built OpenCL program and its kernels' argument metadata) and
// module build logs.
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

    Module(Context *context, Device *device, ProgramBuildResult built);
    ~Module();

    Context *context() const { return context_; }
    Device *device() const { return device_; }
    cl_program program() const { return program_; }
    const std::vector<KernelInfo> &kernels() const { return kernels_; }
    // The kernel's metadata, or null when the module has no such kernel.
    const KernelInfo *findKernel(const char *name) const;

private:
    Ref<Context> context_;
    Device *device_;
    cl_program program_;
    std::vector<KernelInfo> kernels_;
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
