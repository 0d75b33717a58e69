// mgpuModuleLoad's modules and mgpuModuleGetFunction's functions. MLIR's
// lowering loads modules in a global constructor, before any stream exists
// and before a framework can bind its context, so a module here is only the
// SPIR-V (kept by content: the same bytes are one module) and a function only
// a name in it. The Level Zero kernel is built per engine when a launch first
// needs it there (the engine's kernel cache makes that one build per
// context), and remembered in the function by the engine's serial number.
#pragma once

#include "common/object.hpp"
#include "compute/kernel_entry.hpp"
#include "engine/engine.hpp"

#include <atomic>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>

namespace imex_l0::mgpu {

class Module;

class Function : public Tagged<0x4d475055464eull /* "MGPUFN" */> {
public:
    Function(Module *module, std::string name) : module_(module), name_(std::move(name)) {}
    // The kernel on `engine` (built on first use there). Thread-safe.
    KernelEntry &on(Engine &engine);

private:
    struct Built {
        uint64_t engineSerial;
        KernelEntry *kernel;
    };
    Module *module_;
    const std::string name_;
    std::mutex mutex_; // guards kernels_
    std::deque<Built> kernels_; // one per engine; never moved, so last_ may point in
    // The entry a launch found last: read without the lock (launches of one
    // function usually go to one engine).
    std::atomic<const Built *> last_{nullptr};
};

class Module : public Tagged<0x4d4750554d44ull /* "MGPUMD" */> {
public:
    // The module of these bytes (one per content; each load counts).
    static Module *load(const void *data, size_t size);
    // Drops one load; the last one destroys the module and its functions.
    static void unload(Module *module);

    Function &function(const char *name);
    const std::string &spirv() const { return spirv_; }

private:
    explicit Module(std::string spirv) : spirv_(std::move(spirv)) {}

    const std::string spirv_;
    std::set<std::string, std::less<>> kernelNames_; // set once, before the module is shared
    size_t loads_ = 0; // guarded by the registry's mutex
    std::mutex mutex_; // guards functions_
    std::map<std::string, std::unique_ptr<Function>, std::less<>> functions_;
};

} // namespace imex_l0::mgpu
