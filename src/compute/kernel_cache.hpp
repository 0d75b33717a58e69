// Per-engine cache of built modules and kernels, so a second create of the
// same source/options/name (or the same SPIR-V) costs a hash lookup. The
// cache owns every ze_module/ze_kernel it holds and destroys them with the
// engine.
#pragma once

#include "imex_l0_interop.h"

#include <level_zero/ze_api.h>

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace imex_l0 {

class Engine;

struct ArgInfo {
    imex_l0_arg_kind_t kind = imex_l0_arg_kind_value;
    size_t size = 0; // bytes the launch passes: 8 for pointers, 0 for local, the value's size
};

// One Level Zero kernel and what every launch needs, resolved once.
struct KernelEntry {
    std::string name;
    ze_kernel_handle_t handle = nullptr;
    std::vector<ArgInfo> args;
    // Serialises argument setting + append: Level Zero kernel arguments are
    // state on the kernel handle, shared by every thread launching it.
    std::mutex launchMutex;
    // Guarded by launchMutex: the group size last set on the handle, and the
    // last suggestion, so steady-state launches make no extra driver calls.
    std::array<uint32_t, 3> groupSize{0, 0, 0};
    std::array<size_t, 3> suggestedFor{0, 0, 0};
    std::array<uint32_t, 3> suggestion{0, 0, 0};
};

class KernelCache {
public:
    explicit KernelCache(Engine &engine) : engine_(engine) {}
    ~KernelCache();

    std::shared_ptr<KernelEntry> fromSpirv(const void *spirv, size_t size, const char *name,
                                           const char *buildOptions);
    // cacheHit reports whether the compiler was skipped, for verbose lines.
    std::shared_ptr<KernelEntry> fromSource(const char *source, const char *name,
                                            const char *buildOptions, size_t ndefines,
                                            const imex_l0_define_t *defines, bool &cacheHit);

private:
    struct Module {
        ze_module_handle_t handle = nullptr;
        std::unordered_map<std::string, std::vector<ArgInfo>> signatures;
        std::map<std::string, std::shared_ptr<KernelEntry>> kernels;
    };
    Module &module(const std::string &spirv, const char *buildOptions); // requires mutex_
    std::shared_ptr<KernelEntry> kernel(Module &module, const char *name); // requires mutex_

    Engine &engine_;
    std::mutex mutex_; // guards modules_ and sources_
    // Key: SPIR-V bytes + '\0' + build options. The full key (not only a hash)
    // is compared, so two modules can never be confused.
    std::unordered_map<std::string, std::unique_ptr<Module>> modules_;
    // Key: source, options and defines -> the module built from them.
    // Modules live as long as the engine, so the pointers stay valid.
    std::unordered_map<std::string, Module *> sources_;
};

} // namespace imex_l0
