#include "compute/compiler_loader.hpp"

#include "common/options.hpp"
#include "common/status.hpp"

#include <dlfcn.h>

#include <atomic>
#include <mutex>
#include <string>

namespace imex_l0 {

namespace {

constexpr const char *kCompilerFile = "libimex_l0_compiler.so";

// The directory of libimex_l0_interop.so itself: the compiler is installed
// next to it, whatever the process's working directory or rpath.
std::string libraryDirectory() {
    Dl_info info{};
    if (dladdr(reinterpret_cast<void *>(&compilerApi), &info) == 0 || !info.dli_fname)
        return {};
    std::string path = info.dli_fname;
    auto slash = path.rfind('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

const imex_l0_compiler_api_t *load(std::string &error) {
    std::string candidates[2];
    if (!options().compilerLibrary.empty()) {
        candidates[0] = options().compilerLibrary;
    } else {
        candidates[0] = libraryDirectory() + kCompilerFile;
        candidates[1] = kCompilerFile;
    }
    for (const std::string &path : candidates) {
        if (path.empty())
            continue;
        void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!handle) {
            error += std::string(error.empty() ? "" : "; ") + dlerror();
            continue;
        }
        using Entry = const imex_l0_compiler_api_t *(*)(uint32_t);
        auto entry = reinterpret_cast<Entry>(dlsym(handle, IMEX_L0_COMPILER_SYMBOL));
        const imex_l0_compiler_api_t *api = entry ? entry(IMEX_L0_COMPILER_API_VERSION) : nullptr;
        if (api)
            return api;
        error += "; " + path + " does not provide compiler API version " +
                 std::to_string(IMEX_L0_COMPILER_API_VERSION);
        dlclose(handle);
    }
    return nullptr;
}

} // namespace

namespace {
std::once_flag once;
std::atomic<const imex_l0_compiler_api_t *> loaded{nullptr};
std::string loadError; // written once, inside call_once
} // namespace

const imex_l0_compiler_api_t *loadedCompilerApi() { return loaded.load(); }

const imex_l0_compiler_api_t &compilerApi() {
    std::call_once(once, [] { loaded = load(loadError); });
    const imex_l0_compiler_api_t *api = loaded.load();
    if (!api)
        fail(imex_l0_unimplemented,
             "the OpenCL C compiler library could not be loaded (" + loadError +
                 "); install libimex_l0_compiler.so next to libimex_l0_interop.so or set "
                 "IMEX_L0_COMPILER_LIBRARY");
    return *api;
}

} // namespace imex_l0
