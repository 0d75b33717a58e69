// Fuzz target: imex_l0_compile_opencl_c on arbitrary source text.
//
// The input is the source (up to its first NUL, as the C API reads it). The
// library must answer every input with success and a SPIR-V module, or with
// imex_l0_compile_error and a build log; any other status, a crash, a leak or
// a sanitizer report is a finding. The in-memory cache is off so that every
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
    std::string source(reinterpret_cast<const char *>(data), size);
    void *spirv = nullptr;
    size_t spirvSize = 0;
    char *log = nullptr;
    imex_l0_status_t status =
        imex_l0_compile_opencl_c(source.c_str(), nullptr, 0, nullptr, &spirv, &spirvSize, &log);
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
    }
    imex_l0_free(spirv);
    imex_l0_free(log);
    return 0;
}
