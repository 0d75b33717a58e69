// C entry points of kernels, the compiler and event-based execution.
#include "common/c_enum.hpp"
#include "common/verbose.hpp"
#include "compiler/macro_name.hpp"
#include "compute/compiler_loader.hpp"
#include "compute/kernel.hpp"
#include "stream/stream.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>

using namespace imex_l0;

namespace {

void checkHeaders(size_t nheaders, const imex_l0_header_t *headers) {
    if (nheaders > 0 && !headers)
        failInvalid("headers is NULL but nheaders is " + std::to_string(nheaders));
    for (size_t i = 0; i < nheaders; ++i)
        if (!headers[i].name || !headers[i].contents)
            failInvalid("headers[" + std::to_string(i) + "] has a NULL name or contents");
}

void checkDefines(size_t ndefines, const imex_l0_define_t *defines) {
    if (ndefines > 0 && !defines)
        failInvalid("defines is NULL but ndefines is " + std::to_string(ndefines));
    for (size_t i = 0; i < ndefines; ++i) {
        const char *name = defines[i].name;
        if (!name || !*name)
            failInvalid("defines[" + std::to_string(i) + "].name is NULL or empty");
        if (!isMacroName(name))
            failInvalid("defines[" + std::to_string(i) + "].name '" + name +
                        "' is not a macro name (letters, digits and '_', not starting with a "
                        "digit)");
    }
}

imex_l0_status_t wrapKernel(imex_l0_kernel_t *kernel, Engine *engine,
                            std::shared_ptr<KernelEntry> entry, std::string buildLog = {}) {
    auto k = std::make_unique<Kernel>(engine, std::move(entry), std::move(buildLog));
    *kernel = reinterpret_cast<imex_l0_kernel_t>(k.release());
    return imex_l0_success;
}

// Takes ownership of a malloc()ed message from the compiler.
std::string takeMessage(char *message, const char *fallback) {
    std::string text = message ? message : fallback;
    std::free(message);
    return text;
}

std::string rangeText(const imex_l0_range_t &r) {
    auto dims = [](const size_t *v) {
        return std::to_string(v[0]) + "x" + std::to_string(v[1]) + "x" + std::to_string(v[2]);
    };
    return "global=" + dims(r.global) + ",local=" + dims(r.local);
}

imex_l0_status_t createFromSource(const char *function, imex_l0_kernel_t *kernel,
                                  imex_l0_engine_t engine, const char *source,
                                  const char *kernel_name, const char *build_options,
                                  size_t ndefines, const imex_l0_define_t *defines,
                                  size_t nheaders, const imex_l0_header_t *headers) {
    return guard(function, [&] {
        requireOutput(kernel, "kernel");
        auto *e = validate<Engine>(engine, "engine");
        if (!source)
            failInvalid("source is NULL");
        if (!kernel_name)
            failInvalid("kernel_name is NULL");
        checkDefines(ndefines, defines);
        checkHeaders(nheaders, headers);
        Stopwatch watch;
        bool hit = false;
        std::string buildLog;
        auto entry = e->kernels().fromSource(source, kernel_name, build_options, ndefines,
                                             defines, nheaders, headers, hit, buildLog);
        if (verboseAt(Verbosity::info))
            logLine(Verbosity::info, "kernel_create,source," + csvField(kernel_name) +
                                         ",cache=" + (hit ? "hit" : "miss") + ",time_us=" +
                                         std::to_string(watch.elapsedUs()));
        return wrapKernel(kernel, e, std::move(entry), std::move(buildLog));
    });
}

// What a compile without an engine assumes of the device (include/imex_l0_interop.h).
constexpr const char *kNoEngineFeatures = "-cl-ext=-cl_khr_fp16";

imex_l0_status_t compileOpenClC(const char *function, const char *source,
                                const char *build_options, size_t ndefines,
                                const imex_l0_define_t *defines, size_t nheaders,
                                const imex_l0_header_t *headers, void **spirv, size_t *size,
                                char **log) {
    return guard(function, [&] {
        requireOutput(spirv, "spirv");
        requireOutput(size, "size");
        if (!source)
            failInvalid("source is NULL");
        checkDefines(ndefines, defines);
        checkHeaders(nheaders, headers);
        const imex_l0_compiler_api_t &compiler = compilerApi();
        // No device to ask: fp16 arithmetic, the optional feature devices
        // differ on most (PoCL's CPU device has none), is assumed absent, so
        // code guarded by cl_khr_fp16 takes the path every device runs. The
        // caller's options come after and may add it back.
        std::string options = kNoEngineFeatures;
        if (build_options)
            options += std::string(" ") + build_options;
        Stopwatch watch;
        void *out = nullptr;
        size_t outSize = 0;
        char *buildLog = nullptr;
        imex_l0_status_t status = compiler.compile_with_headers(
            source, std::strlen(source), options.c_str(), ndefines, defines, nheaders, headers, 0,
            &out, &outSize, &buildLog);
        if (verboseAt(Verbosity::info))
            logLine(Verbosity::info, std::string("compile,") + imex_l0_status_str(status) +
                                         ",bytes=" + std::to_string(outSize) + ",time_us=" +
                                         std::to_string(watch.elapsedUs()));
        if (status != imex_l0_success) {
            std::free(out);
            // The build log is what the caller needs most after a failed compile.
            if (log && buildLog)
                *log = strdup(buildLog);
            fail(status, takeMessage(buildLog, "compilation failed"));
        }
        *spirv = out;
        *size = outSize;
        if (log)
            *log = buildLog;
        else
            std::free(buildLog);
        return imex_l0_success;
    });
}

} // namespace

extern "C" {

imex_l0_status_t imex_l0_kernel_create_from_source(imex_l0_kernel_t *kernel,
                                                   imex_l0_engine_t engine, const char *source,
                                                   const char *kernel_name,
                                                   const char *build_options, size_t ndefines,
                                                   const imex_l0_define_t *defines) {
    return createFromSource(__func__, kernel, engine, source, kernel_name, build_options,
                            ndefines, defines, 0, nullptr);
}

imex_l0_status_t imex_l0_kernel_create_from_source_with_headers(
    imex_l0_kernel_t *kernel, imex_l0_engine_t engine, const char *source, const char *kernel_name,
    const char *build_options, size_t ndefines, const imex_l0_define_t *defines, size_t nheaders,
    const imex_l0_header_t *headers) {
    return createFromSource(__func__, kernel, engine, source, kernel_name, build_options,
                            ndefines, defines, nheaders, headers);
}

namespace {

imex_l0_status_t createFromSpirv(const char *function, imex_l0_kernel_t *kernel,
                                 imex_l0_engine_t engine, const void *spirv, size_t size,
                                 const char *kernel_name, const char *build_options,
                                 size_t nconstants, const imex_l0_spec_constant_t *constants) {
    return guard(function, [&] {
        requireOutput(kernel, "kernel");
        auto *e = validate<Engine>(engine, "engine");
        if (!spirv || size == 0)
            failInvalid("spirv is NULL or size is 0");
        if (!kernel_name)
            failInvalid("kernel_name is NULL");
        Stopwatch watch;
        auto entry =
            e->kernels().fromSpirv(spirv, size, kernel_name, build_options, nconstants, constants);
        if (verboseAt(Verbosity::info))
            logLine(Verbosity::info, "kernel_create,spirv," + csvField(kernel_name) +
                                         ",bytes=" + std::to_string(size) + ",time_us=" +
                                         std::to_string(watch.elapsedUs()));
        return wrapKernel(kernel, e, std::move(entry));
    });
}

} // namespace

imex_l0_status_t imex_l0_kernel_create_from_spirv(imex_l0_kernel_t *kernel,
                                                  imex_l0_engine_t engine, const void *spirv,
                                                  size_t size, const char *kernel_name,
                                                  const char *build_options) {
    return createFromSpirv(__func__, kernel, engine, spirv, size, kernel_name, build_options, 0,
                           nullptr);
}

imex_l0_status_t imex_l0_kernel_create_from_spirv_specialized(
    imex_l0_kernel_t *kernel, imex_l0_engine_t engine, const void *spirv, size_t size,
    const char *kernel_name, const char *build_options, size_t nconstants,
    const imex_l0_spec_constant_t *constants) {
    return createFromSpirv(__func__, kernel, engine, spirv, size, kernel_name, build_options,
                           nconstants, constants);
}

imex_l0_status_t imex_l0_compile_opencl_c(const char *source, const char *build_options,
                                          size_t ndefines, const imex_l0_define_t *defines,
                                          void **spirv, size_t *size, char **log) {
    return compileOpenClC(__func__, source, build_options, ndefines, defines, 0, nullptr, spirv,
                          size, log);
}

imex_l0_status_t imex_l0_compile_opencl_c_with_headers(
    const char *source, const char *build_options, size_t ndefines,
    const imex_l0_define_t *defines, size_t nheaders, const imex_l0_header_t *headers,
    void **spirv, size_t *size, char **log) {
    return compileOpenClC(__func__, source, build_options, ndefines, defines, nheaders, headers,
                          spirv, size, log);
}

imex_l0_status_t imex_l0_register_header(const char *name, const char *contents) {
    return guard(__func__, [&] {
        if (!name || !*name)
            failInvalid("name is NULL or empty");
        if (!contents)
            failInvalid("contents is NULL");
        char *error = nullptr;
        imex_l0_status_t status = compilerApi().register_header(name, contents, &error);
        if (status != imex_l0_success)
            fail(status, takeMessage(error, "register_header failed"));
        KernelCache::headersChanged();
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_set_cache_dir(const char *dir) {
    return guard(__func__, [&] {
        char *error = nullptr;
        imex_l0_status_t status = compilerApi().set_cache_dir(dir, &error);
        if (status != imex_l0_success)
            fail(status, takeMessage(error, "set_cache_dir failed"));
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_get_cache_stats(imex_l0_cache_stats_t *stats) {
    return guard(__func__, [&] {
        requireOutput(stats, "stats");
        // Statistics never load the compiler: not loaded means nothing compiled.
        *stats = {};
        if (const imex_l0_compiler_api_t *compiler = loadedCompilerApi())
            compiler->get_cache_stats(stats);
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_kernel_get_arg_count(imex_l0_kernel_t kernel, size_t *nargs) {
    return guard(__func__, [&] {
        auto *k = validate<Kernel>(kernel, "kernel");
        requireOutput(nargs, "nargs");
        *nargs = k->entry().args.size();
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_kernel_get_arg_info(imex_l0_kernel_t kernel, size_t index,
                                             imex_l0_arg_kind_t *kind, size_t *size) {
    return guard(__func__, [&] {
        auto *k = validate<Kernel>(kernel, "kernel");
        requireOutput(kind, "kind");
        requireOutput(size, "size");
        const auto &args = k->entry().args;
        if (index >= args.size())
            failInvalid("index " + std::to_string(index) + " is out of range: kernel '" +
                        k->entry().name + "' has " + std::to_string(args.size()) + " argument(s)");
        *kind = args[index].kind;
        *size = args[index].size;
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_kernel_get_properties(imex_l0_kernel_t kernel,
                                               imex_l0_kernel_properties_t *props) {
    return guard(__func__, [&] {
        auto *k = validate<Kernel>(kernel, "kernel");
        requireOutput(props, "props");
        ze_kernel_properties_t p = {ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
        IMEX_L0_ZE(zeKernelGetProperties(k->entry().handle, &p));
        uint32_t deviceMax = k->engine()->compute().maxTotalGroupSize;
        uint64_t bySubgroups = uint64_t(p.maxSubgroupSize) * p.maxNumSubgroups;
        *props = {};
        props->max_group_size = bySubgroups ? uint32_t(std::min<uint64_t>(bySubgroups, deviceMax))
                                            : deviceMax;
        props->required_group_size[0] = p.requiredGroupSizeX;
        props->required_group_size[1] = p.requiredGroupSizeY;
        props->required_group_size[2] = p.requiredGroupSizeZ;
        props->local_mem_size = p.localMemSize;
        props->private_mem_size = p.privateMemSize;
        props->max_subgroup_size = p.maxSubgroupSize;
        props->max_num_subgroups = p.maxNumSubgroups;
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_kernel_suggest_group_size(imex_l0_kernel_t kernel,
                                                   const size_t global[3], size_t local[3]) {
    return guard(__func__, [&] {
        auto *k = validate<Kernel>(kernel, "kernel");
        if (!global)
            failInvalid("global is NULL");
        requireOutput(local, "local");
        uint32_t g[3];
        for (int d = 0; d < 3; ++d) {
            if (global[d] == 0 || global[d] > UINT32_MAX)
                failInvalid("global[" + std::to_string(d) + "] = " + std::to_string(global[d]) +
                            " is outside 1..2^32-1 (use 1 for unused dimensions)");
            g[d] = uint32_t(global[d]);
        }
        auto suggestion = k->suggestGroupSize(g);
        for (int d = 0; d < 3; ++d)
            local[d] = suggestion[d];
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_interop_kernel_create_from_handle(imex_l0_kernel_t *kernel,
                                                           imex_l0_engine_t engine,
                                                           ze_module_handle_t module,
                                                           ze_kernel_handle_t handle,
                                                           imex_l0_ownership_t ownership) {
    return guard(__func__, [&] {
        requireOutput(kernel, "kernel");
        auto *e = validate<Engine>(engine, "engine");
        if (!handle)
            failInvalid("handle is NULL");
        const auto own = rawValue(ownership);
        if (own != imex_l0_ownership_keep && own != imex_l0_ownership_transfer)
            failInvalid("ownership " + std::to_string(own) +
                        " is neither imex_l0_ownership_keep nor imex_l0_ownership_transfer");
        auto entry = e->kernels().imported(handle);
        KernelEntry &imported = *entry;
        if (verboseAt(Verbosity::info))
            logLine(Verbosity::info, "kernel_create,handle," + csvField(entry->name) +
                                         ",args=" + std::to_string(entry->args.size()));
        wrapKernel(kernel, e, std::move(entry));
        // Only a call that succeeds takes ownership.
        if (own == imex_l0_ownership_transfer) {
            imported.ownsHandle = true;
            imported.ownedModule = module;
        }
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_interop_kernel_get_handle(imex_l0_kernel_t kernel,
                                                   ze_kernel_handle_t *handle) {
    return guard(__func__, [&] {
        auto *k = validate<Kernel>(kernel, "kernel");
        requireOutput(handle, "handle");
        *handle = k->entry().handle;
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_kernel_get_build_log(imex_l0_kernel_t kernel, const char **log) {
    return guard(__func__, [&] {
        requireOutput(log, "log");
        *log = validate<Kernel>(kernel, "kernel")->buildLog().c_str();
        return imex_l0_success;
    });
}

imex_l0_status_t imex_l0_kernel_destroy(imex_l0_kernel_t kernel) {
    return guard(__func__, [&] {
        delete validate<Kernel>(kernel, "kernel");
        return imex_l0_success;
    });
}

namespace {

imex_l0_status_t execute(const char *function, imex_l0_kernel_t kernel, imex_l0_stream_t stream,
                         size_t nargs, const imex_l0_exec_arg_t *args,
                         const imex_l0_range_t *range, const imex_l0_launch_options_t *options,
                         size_t ndeps, const ze_event_handle_t *deps,
                         ze_event_handle_t *return_event) {
    return guard(function, [&] {
        auto *k = validate<Kernel>(kernel, "kernel");
        auto *s = validate<Stream>(stream, "stream");
        if (!range)
            failInvalid("range is NULL");
        if (!verboseAt(Verbosity::info)) {
            k->execute(*s, nargs, args, *range, options, ndeps, deps, return_event);
            return imex_l0_success;
        }
        Stopwatch watch;
        uint32_t used[3];
        k->execute(*s, nargs, args, *range, options, ndeps, deps, return_event, used);
        logLine(Verbosity::info, "kernel_execute," + csvField(k->entry().name) + "," +
                                     rangeText(*range) +
                                     ",local_used=" + std::to_string(used[0]) + "x" +
                                     std::to_string(used[1]) + "x" + std::to_string(used[2]) +
                                     ",deps=" + std::to_string(ndeps) +
                                     ",event=" + (return_event ? "yes" : "no") + ",time_us=" +
                                     std::to_string(watch.elapsedUs()));
        return imex_l0_success;
    });
}

} // namespace

imex_l0_status_t imex_l0_interop_kernel_execute(imex_l0_kernel_t kernel, imex_l0_stream_t stream,
                                                size_t nargs, const imex_l0_exec_arg_t *args,
                                                const imex_l0_range_t *range, size_t ndeps,
                                                const ze_event_handle_t *deps,
                                                ze_event_handle_t *return_event) {
    return execute(__func__, kernel, stream, nargs, args, range, nullptr, ndeps, deps,
                   return_event);
}

imex_l0_status_t imex_l0_interop_kernel_execute_ex(
    imex_l0_kernel_t kernel, imex_l0_stream_t stream, size_t nargs,
    const imex_l0_exec_arg_t *args, const imex_l0_range_t *range,
    const imex_l0_launch_options_t *options, size_t ndeps, const ze_event_handle_t *deps,
    ze_event_handle_t *return_event) {
    return execute(__func__, kernel, stream, nargs, args, range, options, ndeps, deps,
                   return_event);
}

} // extern "C"
