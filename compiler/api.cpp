// The C boundary of libimex_l0_compiler.so (compiler_api.h). Every function
// here catches every exception: nothing but a status crosses the boundary.
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>

#include "compiler.hpp"
#include "compiler_api.h"
#include "header_registry.hpp"
#include "service.hpp"

namespace imex_l0::compiler {
namespace {

// A malloc()ed copy the caller releases with free(); NULL if out of memory.
char *mallocString(const std::string &s) {
    char *p = static_cast<char *>(std::malloc(s.size() + 1));
    if (p)
        std::memcpy(p, s.c_str(), s.size() + 1);
    return p;
}

void setError(char **error, const std::string &message) {
    if (error)
        *error = mallocString(message);
}

const char *apiIdentity() { return identity(); }

imex_l0_status_t apiCompileWithHeaders(const char *source, size_t sourceSize,
                                       const char *options, size_t ndefines,
                                       const imex_l0_define_t *defines, size_t nheaders,
                                       const imex_l0_header_t *headers, uint32_t spirvMaxVersion,
                                       void **spirv, size_t *size, char **log) {
    if (log)
        *log = nullptr;
    try {
        if ((!source && sourceSize) || !spirv || !size || (ndefines && !defines) ||
            (nheaders && !headers)) {
            setError(log, "error: invalid arguments to compile (null source, output, defines or "
                          "headers)\n");
            return imex_l0_invalid_arguments;
        }
        Service::Outcome out = Service::instance().compile(
            std::string_view(source ? source : "", sourceSize), options, ndefines, defines,
            nheaders, headers, spirvMaxVersion);
        if (out.status != imex_l0_success) {
            setError(log, out.result->log);
            return out.status;
        }
        void *copy = std::malloc(out.result->spirv.size());
        if (!copy)
            return imex_l0_out_of_memory;
        std::memcpy(copy, out.result->spirv.data(), out.result->spirv.size());
        if (log && !out.result->log.empty()) {
            *log = mallocString(out.result->log);
            if (!*log) {
                std::free(copy);
                return imex_l0_out_of_memory;
            }
        }
        *spirv = copy;
        *size = out.result->spirv.size();
        return imex_l0_success;
    } catch (const std::bad_alloc &) {
        return imex_l0_out_of_memory;
    } catch (const std::exception &e) {
        setError(log, std::string("error: internal compiler error: ") + e.what() + "\n");
        return imex_l0_compile_error;
    } catch (...) {
        setError(log, "error: internal compiler error\n");
        return imex_l0_compile_error;
    }
}

imex_l0_status_t apiCompile(const char *source, size_t sourceSize, const char *options,
                            size_t ndefines, const imex_l0_define_t *defines,
                            uint32_t spirvMaxVersion, void **spirv, size_t *size, char **log) {
    return apiCompileWithHeaders(source, sourceSize, options, ndefines, defines, 0, nullptr,
                                 spirvMaxVersion, spirv, size, log);
}

imex_l0_status_t apiRegisterHeader(const char *name, const char *contents, char **error) {
    if (error)
        *error = nullptr;
    try {
        if (!name || !contents) {
            setError(error, "register_header: name and contents must not be NULL");
            return imex_l0_invalid_arguments;
        }
        std::string why = HeaderRegistry::instance().add(name, contents);
        if (!why.empty()) {
            setError(error, why);
            return imex_l0_invalid_arguments;
        }
        return imex_l0_success;
    } catch (const std::bad_alloc &) {
        return imex_l0_out_of_memory;
    } catch (...) {
        setError(error, "register_header: internal error");
        return imex_l0_runtime_error;
    }
}

imex_l0_status_t apiSetCacheDir(const char *dir, char **error) {
    if (error)
        *error = nullptr;
    try {
        std::string why = Service::instance().setCacheDir(dir ? dir : "");
        if (!why.empty()) {
            setError(error, why);
            return imex_l0_invalid_arguments;
        }
        return imex_l0_success;
    } catch (const std::bad_alloc &) {
        return imex_l0_out_of_memory;
    } catch (...) {
        setError(error, "set_cache_dir: internal error");
        return imex_l0_runtime_error;
    }
}

void apiGetCacheStats(imex_l0_cache_stats_t *stats) {
    if (!stats)
        return;
    try {
        Service::instance().stats(stats);
    } catch (...) {
        *stats = imex_l0_cache_stats_t{};
    }
}

const imex_l0_compiler_api_t kApi = {
    IMEX_L0_COMPILER_API_VERSION, apiIdentity, apiCompile, apiRegisterHeader, apiSetCacheDir,
    apiGetCacheStats, apiCompileWithHeaders,
};

} // namespace
} // namespace imex_l0::compiler

extern "C" const imex_l0_compiler_api_t *imex_l0_compiler_api(uint32_t version) {
    return version == IMEX_L0_COMPILER_API_VERSION ? &imex_l0::compiler::kApi : nullptr;
}
