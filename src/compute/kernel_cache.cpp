#include "compute/kernel_cache.hpp"
#include "compute/kernel_handles.hpp"

#include "common/status.hpp"
#include "compute/compiler_loader.hpp"
#include "compute/spirv_reflect.hpp"
#include "engine/engine.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <sstream>

namespace imex_l0 {

namespace {

// Advanced by every imex_l0_register_header. A source's build is only valid
// for the headers registered when it was compiled, so the generation is part
// of the source key; the compiler's own cache (keyed by the registry's
// digest) still makes a rebuild with unchanged headers cheap.
std::atomic<uint64_t> headerGeneration{0};

std::string sourceKey(const char *source, const char *options, size_t ndefines,
                      const imex_l0_define_t *defines, size_t nheaders,
                      const imex_l0_header_t *headers) {
    // '\0' cannot occur inside any part, so the parts cannot run together.
    std::string key = source;
    key += '\0';
    key += std::to_string(headerGeneration.load(std::memory_order_acquire));
    key += '\0';
    key += options ? options : "";
    for (size_t i = 0; i < ndefines; ++i) {
        key += '\0';
        key += defines[i].name;
        key += '=';
        key += defines[i].value ? defines[i].value : "<none>";
    }
    // Headers after a separator no define can produce ('\0' twice).
    key += '\0';
    for (size_t i = 0; i < nheaders; ++i) {
        key += '\0';
        key += headers[i].name;
        key += '\0';
        key += headers[i].contents;
    }
    return key;
}

// Frees a compiler-owned buffer when it goes out of scope.
struct Malloced {
    void *ptr = nullptr;
    ~Malloced() { std::free(ptr); }
};

std::string buildLog(ze_module_build_log_handle_t log) {
    if (!log)
        return {};
    size_t size = 0;
    std::string text;
    if (zeModuleBuildLogGetString(log, &size, nullptr) == ZE_RESULT_SUCCESS && size > 0) {
        text.resize(size);
        if (zeModuleBuildLogGetString(log, &size, text.data()) != ZE_RESULT_SUCCESS)
            text.clear();
        while (!text.empty() && text.back() == '\0')
            text.pop_back();
    }
    zeModuleBuildLogDestroy(log);
    return text;
}

// The options of a source build that the device's compiler reads too (the
// floating-point ones: SPIR-V does not carry them all), for zeModuleCreate.
std::string deviceBuildOptions(const char *options) {
    static const char *const kForTheDevice[] = {"-cl-fast-relaxed-math",
                                                "-cl-mad-enable",
                                                "-cl-no-signed-zeros",
                                                "-cl-finite-math-only",
                                                "-cl-denorms-are-zero",
                                                "-cl-unsafe-math-optimizations",
                                                "-cl-fp32-correctly-rounded-divide-sqrt"};
    std::string kept;
    std::istringstream words(options ? options : "");
    for (std::string w; words >> w;)
        if (std::find(std::begin(kForTheDevice), std::end(kForTheDevice), w) !=
            std::end(kForTheDevice))
            kept += (kept.empty() ? "" : " ") + w;
    return kept;
}

} // namespace

void KernelCache::headersChanged() { headerGeneration.fetch_add(1, std::memory_order_acq_rel); }

KernelCache::~KernelCache() {
    for (auto &m : modules_) {
        for (auto &k : m.second->kernels) {
            kernel_handles::release(k.second->handle);
            zeKernelDestroy(k.second->handle);
        }
        zeModuleDestroy(m.second->handle);
    }
}

KernelCache::Module &KernelCache::module(const std::string &key, std::string_view spirv,
                                         const char *buildOptions, size_t nconstants,
                                         const imex_l0_spec_constant_t *constants) {
    auto it = modules_.find(key);
    if (it != modules_.end())
        return *it->second;

    auto module = std::make_unique<Module>();
    module->owner = this;
    std::string problem;
    auto kernels = reflectSpirv(spirv.data(), spirv.size(), problem);
    if (!problem.empty())
        failInvalid("spirv is not a usable SPIR-V module: " + problem);
    for (auto &k : kernels) {
        std::vector<ArgInfo> args;
        for (auto &a : k.args)
            args.push_back({a.kind, a.size});
        module->signatures.emplace(k.name, std::move(args));
    }

    // Level Zero reads each constant's value with its SPIR-V type's size from
    // the pointer: the low bytes of the little-endian 64-bit value.
    std::vector<uint32_t> ids(nconstants);
    std::vector<const void *> values(nconstants);
    for (size_t i = 0; i < nconstants; ++i) {
        ids[i] = constants[i].id;
        values[i] = &constants[i].value;
    }
    ze_module_constants_t moduleConstants = {uint32_t(nconstants), ids.data(), values.data()};
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    desc.inputSize = spirv.size();
    desc.pInputModule = reinterpret_cast<const uint8_t *>(spirv.data());
    desc.pBuildFlags = buildOptions;
    desc.pConstants = nconstants ? &moduleConstants : nullptr;
    ze_module_build_log_handle_t log = nullptr;
    ze_result_t r = zeModuleCreate(engine_.context(), engine_.device(), &desc, &module->handle,
                                   engine_.buildLogsReadable() ? &log : nullptr);
    // The log is read only when the build failed: it is all the caller gets
    // then, and on success nothing would use it.
    if (r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE || r == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
        fail(imex_l0_compile_error,
             "zeModuleCreate failed: " + std::string(zeResultName(r)) + "\n" +
                 (log ? buildLog(log)
                      : "(no build log: the Level Zero loader cannot return it while it "
                        "intercepts handles, ZE_ENABLE_LOADER_INTERCEPT=1 or several drivers)"));
    if (log)
        zeModuleBuildLogDestroy(log);
    checkZe(r, "zeModuleCreate");
    Module &result = *module;
    try {
        modules_.emplace(key, std::move(module));
    } catch (...) {
        zeModuleDestroy(result.handle);
        throw;
    }
    return result;
}

const std::shared_ptr<KernelEntry> &KernelCache::kernel(Module &module, const char *name) {
    auto it = module.kernels.find(name);
    if (it != module.kernels.end())
        return it->second;
    auto signature = module.signatures.find(name);
    if (signature == module.signatures.end()) {
        std::string known;
        for (auto &s : module.signatures)
            known += (known.empty() ? "" : ", ") + s.first;
        fail(imex_l0_not_found, std::string("no kernel named '") + name +
                                    "' in the module; its kernels are: " +
                                    (known.empty() ? "(none)" : known));
    }
    auto entry = std::make_shared<KernelEntry>();
    entry->name = name;
    entry->args = signature->second;
    entry->owner = this;
    entry->localMemoryLimit = engine_.compute().maxSharedLocalMemory;
    entry->compute = &engine_.compute();
    for (const ArgInfo &a : entry->args)
        entry->hasLocalArgs = entry->hasLocalArgs || a.kind == imex_l0_arg_kind_local;
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
    IMEX_L0_ZE(zeKernelCreate(module.handle, &desc, &entry->handle));
    ze_kernel_handle_t created = entry->handle;
    try {
        kernel_handles::claim(created); // a new handle: never claimed before
        return module.kernels.emplace(name, std::move(entry)).first->second;
    } catch (...) {
        kernel_handles::release(created);
        zeKernelDestroy(created);
        throw;
    }
}

std::shared_ptr<KernelEntry> KernelCache::imported(ze_kernel_handle_t handle) {
    if (!kernel_handles::claim(handle))
        failInvalid("the kernel handle is already a library kernel's (the library's own, from "
                    "imex_l0_interop_kernel_get_handle, or imported and not yet destroyed): "
                    "launch that library kernel, or create another handle with zeKernelCreate");
    auto entry = std::make_shared<KernelEntry>();
    entry->handle = handle;
    entry->imported = true; // releases the claim when destroyed
    ze_kernel_properties_t props = {ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    IMEX_L0_ZE(zeKernelGetProperties(handle, &props));
    size_t size = 0;
    IMEX_L0_ZE(zeKernelGetName(handle, &size, nullptr));
    std::string name(size, '\0');
    IMEX_L0_ZE(zeKernelGetName(handle, &size, name.data()));
    while (!name.empty() && name.back() == '\0')
        name.pop_back();
    entry->name = std::move(name);
    entry->args.assign(props.numKernelArgs, ArgInfo{imex_l0_arg_kind_unknown, 0});
    entry->owner = this;
    entry->localMemoryLimit = engine_.compute().maxSharedLocalMemory;
    entry->compute = &engine_.compute();
    entry->hasLocalArgs = props.numKernelArgs > 0; // any may be local memory
    return entry;
}

KernelCache::Module &KernelCache::loadModule(const void *spirv, size_t size,
                                             const char *buildOptions, size_t nconstants,
                                             const imex_l0_spec_constant_t *constants) {
    if (nconstants > 0 && !constants)
        failInvalid("constants is NULL but nconstants is " + std::to_string(nconstants));
    if (nconstants > UINT32_MAX)
        failInvalid("nconstants exceeds Level Zero's 32-bit count");
    std::string key(static_cast<const char *>(spirv), size);
    key += '\0';
    key += buildOptions ? buildOptions : "";
    if (nconstants > 0) {
        key += '\0';
        for (size_t i = 0; i < nconstants; ++i) {
            key.append(reinterpret_cast<const char *>(&constants[i].id), sizeof constants[i].id);
            key.append(reinterpret_cast<const char *>(&constants[i].value),
                       sizeof constants[i].value);
        }
    }
    std::lock_guard<std::mutex> lock(mutex_);
    return module(key, std::string_view(key.data(), size), buildOptions, nconstants, constants);
}

const std::shared_ptr<KernelEntry> &KernelCache::kernelOf(Module &module, const char *name) {
    if (module.owner != this)
        failInvalid("the module was loaded on another engine's stream");
    std::lock_guard<std::mutex> lock(mutex_);
    return kernel(module, name);
}

std::shared_ptr<KernelEntry> KernelCache::fromSpirv(const void *spirv, size_t size,
                                                    const char *name, const char *buildOptions,
                                                    size_t nconstants,
                                                    const imex_l0_spec_constant_t *constants) {
    return kernelOf(loadModule(spirv, size, buildOptions, nconstants, constants), name);
}

std::shared_ptr<KernelEntry> KernelCache::fromSource(const char *source, const char *name,
                                                     const char *buildOptions, size_t ndefines,
                                                     const imex_l0_define_t *defines,
                                                     size_t nheaders,
                                                     const imex_l0_header_t *headers,
                                                     bool &cacheHit, std::string &buildLog) {
    std::string key = sourceKey(source, buildOptions, ndefines, defines, nheaders, headers);
    {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = sources_.find(key);
        if (it != sources_.end()) {
            cacheHit = true;
            buildLog = it->second.log;
            return kernel(*it->second.module, name);
        }
    }
    cacheHit = false;
    // Compile outside the lock: compiling is slow and other kernels of this
    // engine must not wait for it. The compiler has its own caches and locks.
    const imex_l0_compiler_api_t &compiler = compilerApi();
    // The device's features first, so the caller's options can still
    // override them.
    std::string options = engine_.featureOptions();
    if (buildOptions)
        options += std::string(" ") + buildOptions;
    Malloced spirv, log;
    size_t size = 0;
    imex_l0_status_t status = compiler.compile_with_headers(
        source, std::strlen(source), options.c_str(), ndefines, defines, nheaders, headers,
        engine_.spirvVersion(), &spirv.ptr, &size, reinterpret_cast<char **>(&log.ptr));
    if (status != imex_l0_success)
        fail(status, log.ptr ? static_cast<const char *>(log.ptr) : "compilation failed");

    // Keyed as loadModule keys it: a kernel made from this SPIR-V with the
    // same options shares the module.
    const std::string moduleOptions = deviceBuildOptions(buildOptions);
    std::string spirvKey(static_cast<const char *>(spirv.ptr), size);
    spirvKey += '\0';
    spirvKey += moduleOptions;
    std::lock_guard<std::mutex> lock(mutex_);
    Module &m = module(spirvKey, std::string_view(spirvKey.data(), size),
                       moduleOptions.empty() ? nullptr : moduleOptions.c_str(), 0, nullptr);
    buildLog = log.ptr ? static_cast<const char *>(log.ptr) : "";
    sources_.emplace(std::move(key), SourceBuild{&m, buildLog});
    return kernel(m, name);
}

} // namespace imex_l0
