// Fuzz target: imex_l0_compile_opencl_c on arbitrary source text.
//
// An input without a NUL byte is the source, compiled without build options;
// an input with one is "<build options>\0<source>", so the option parser is
// fuzzed too. The library must answer every input with success and a SPIR-V
// module, or with imex_l0_compile_error and a build log that is not an
// internal error; any other status, a crash, a leak or a sanitizer report is
// a finding. The in-memory cache is off so that every
// input is really compiled, and the library does not log the build errors.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fuzz_check.hpp"
#include "imex_l0_interop.h"

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
    setenv("IMEX_L0_COMPILER_CACHE_ENTRIES", "0", 0);
    setenv("IMEX_L0_VERBOSE", "none", 0);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    const char *begin = reinterpret_cast<const char *>(data);
    const char *nul = static_cast<const char *>(std::memchr(begin, '\0', size));
    std::string options = nul ? std::string(begin, nul) : std::string();
    std::string source = nul ? std::string(nul + 1, begin + size) : std::string(begin, size);
    void *spirv = nullptr;
    size_t spirvSize = 0;
    char *log = nullptr;
    imex_l0_status_t status = imex_l0_compile_opencl_c(
        source.c_str(), nul ? options.c_str() : nullptr, 0, nullptr, &spirv, &spirvSize, &log);
    if (status == imex_l0_success) {
        uint32_t magic = 0;
        FUZZ_CHECK(spirv != nullptr && spirvSize >= 20 && spirvSize % 4 == 0,
                   "a successful compile returned %zu bytes of SPIR-V", spirvSize);
        std::memcpy(&magic, spirv, sizeof magic);
        FUZZ_CHECK(magic == 0x07230203u, "the module starts with 0x%08x", magic);
    } else {
        FUZZ_CHECK(status == imex_l0_compile_error, "status %d: %s", int(status),
                   imex_l0_last_error_message());
        FUZZ_CHECK(spirv == nullptr, "a failed compile handed out SPIR-V");
        FUZZ_CHECK(log != nullptr && log[0] != '\0', "a failed compile has no build log");
        // The compiler's boundary replaces the log with this when something
        // threw; diagnostics start with "kernel.cl:" (and may quote the
        // source, so the text is only looked for at the start).
        const char internal[] = "error: internal compiler error";
        FUZZ_CHECK(std::strncmp(log, internal, sizeof internal - 1) != 0, "%s", log);
    }
    imex_l0_free(spirv);
    imex_l0_free(log);
    return 0;
}
