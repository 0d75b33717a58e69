/*
 * The boundary between libimex_l0_interop.so and the OpenCL C compiler,
 * libimex_l0_compiler.so. The library dlopen()s the compiler on first use and
 * looks up one symbol, imex_l0_compiler_api, so that a process that only
 * launches SPIR-V never loads clang or LLVM. A C struct of function pointers
 * keeps that boundary free of C++ ABI concerns.
 */
#ifndef IMEX_L0_COMPILER_API_H
#define IMEX_L0_COMPILER_API_H

#include "imex_l0_interop.h"

#ifdef __cplusplus
extern "C" {
#endif

#define IMEX_L0_COMPILER_API_VERSION 2u
#define IMEX_L0_COMPILER_SYMBOL "imex_l0_compiler_api"

typedef struct {
    uint32_t version; /* IMEX_L0_COMPILER_API_VERSION */

    /* Identity of the toolchain ("clang 15.0.6; LLVMSPIRVLib 15.0.0; imex_l0 0.1.0"),
       part of every cache key. Static storage. */
    const char *(*identity)(void);

    /* OpenCL C (source_size bytes, not necessarily NUL-terminated) -> SPIR-V no
       newer than spirv_max_version (0x00010200 for 1.2; 0 = 1.2). On success
       *spirv and *size hold the module; on imex_l0_compile_error *log holds the build
       log (and on success the warnings, or NULL when there are none). Every
       output buffer is malloc()ed: the caller frees it with free(). */
    imex_l0_status_t (*compile)(const char *source, size_t source_size, const char *options,
                                size_t ndefines, const imex_l0_define_t *defines,
                                uint32_t spirv_max_version, void **spirv, size_t *size,
                                char **log);

    /* Process-wide header registry for #include "name". *error (malloc()ed) says why
       on failure. */
    imex_l0_status_t (*register_header)(const char *name, const char *contents, char **error);

    /* Persistent cache directory; NULL disables it. */
    imex_l0_status_t (*set_cache_dir)(const char *dir, char **error);

    void (*get_cache_stats)(imex_l0_cache_stats_t *stats);

    /* compile, with headers of this compile only, over the registry's. An
       invalid header name, or one of the library's own, is
       imex_l0_invalid_arguments with the reason in *log. (Version 2.) */
    imex_l0_status_t (*compile_with_headers)(const char *source, size_t source_size,
                                             const char *options, size_t ndefines,
                                             const imex_l0_define_t *defines, size_t nheaders,
                                             const imex_l0_header_t *headers,
                                             uint32_t spirv_max_version, void **spirv,
                                             size_t *size, char **log);
} imex_l0_compiler_api_t;

/* The one exported symbol. Returns NULL if the library cannot serve `version`. */
__attribute__((visibility("default"))) const imex_l0_compiler_api_t *
imex_l0_compiler_api(uint32_t version);

#ifdef __cplusplus
}
#endif

#endif /* IMEX_L0_COMPILER_API_H */
