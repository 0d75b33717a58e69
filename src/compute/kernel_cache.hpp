// Per-engine cache of built modules and kernels, so a second create of the
// same source/options/name (or the same SPIR-V) costs a hash lookup. The
// cache owns every ze_module/ze_kernel it holds and destroys them with the
// engine.
#pragma once

#include "common/object.hpp"
#include "compute/kernel_entry.hpp"
#include "imex_l0_interop.h"

#include <level_zero/ze_api.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace imex_l0 {

class Engine;

class KernelCache {
public:
    // A built module and the kernels created from it; handed to gpu* callers
    // as an opaque pointer, hence the tag.
    struct Module : Tagged<0x4d4f44554c45ull /* "MODULE" */> {
        KernelCache *owner = nullptr;
        ze_module_handle_t handle = nullptr;
        std::unordered_map<std::string, std::vector<ArgInfo>> signatures;
        // std::less<> finds by const char * without building a std::string.
        std::map<std::string, std::shared_ptr<KernelEntry>, std::less<>> kernels;
    };

    explicit KernelCache(Engine &engine) : engine_(engine) {}
    ~KernelCache();

    // The module built from these SPIR-V bytes, options and specialization
    // constants (built on first use).
    Module &loadModule(const void *spirv, size_t size, const char *buildOptions,
                       size_t nconstants = 0, const imex_l0_spec_constant_t *constants = nullptr);
    // The cached kernel `name` of a module of this cache; the reference stays
    // valid as long as the engine.
    const std::shared_ptr<KernelEntry> &kernelOf(Module &module, const char *name);

    // An entry over the caller's own kernel (imex_l0_interop_kernel_create_
    // from_handle), not cached; its owned* members say what it destroys.
    std::shared_ptr<KernelEntry> imported(ze_kernel_handle_t handle);
    std::shared_ptr<KernelEntry> fromSpirv(const void *spirv, size_t size, const char *name,
                                           const char *buildOptions, size_t nconstants = 0,
                                           const imex_l0_spec_constant_t *constants = nullptr);
    // Called after a header was registered: later source creates compile
    // again instead of reusing a build made with the previous headers.
    static void headersChanged();
    // cacheHit reports whether the compiler was skipped, for verbose lines;
    // buildLog receives the compiler's log (its warnings, "" when none).
    // headers: the compile's own (imex_l0_header_t), part of the key.
    std::shared_ptr<KernelEntry> fromSource(const char *source, const char *name,
                                            const char *buildOptions, size_t ndefines,
                                            const imex_l0_define_t *defines, size_t nheaders,
                                            const imex_l0_header_t *headers, bool &cacheHit,
                                            std::string &buildLog);

private:
    // The module of `key` (SPIR-V, options and constants), built from `spirv`
    // when not cached yet; requires mutex_.
    Module &module(const std::string &key, std::string_view spirv, const char *buildOptions,
                   size_t nconstants, const imex_l0_spec_constant_t *constants);
    const std::shared_ptr<KernelEntry> &kernel(Module &module, const char *name); // requires mutex_

    Engine &engine_;
    std::mutex mutex_; // guards modules_, sources_ and every Module's kernels
    // Key: SPIR-V bytes + '\0' + build options (+ '\0' and each
    // specialization constant's id and value). The full key (not only a
    // hash) is compared, so two modules can never be confused.
    std::unordered_map<std::string, std::unique_ptr<Module>> modules_;
    // Key: source, options and defines -> the module built from them and the
    // compiler's log. Modules live as long as the engine, so the pointers
    // stay valid.
    struct SourceBuild {
        Module *module;
        std::string log;
    };
    std::unordered_map<std::string, SourceBuild> sources_;
};

} // namespace imex_l0
