/*
 * What the two flavours of the gpu* runtime wrappers share: the layouts of
 * the kernel parameters and dependencies that lowered code passes, and where
 * failures go. imex_gpu_runtime.h (the Level Zero flavour, exported by
 * libimex_l0_interop.so) and imex_gpu_sycl_runtime.h (the SYCL flavour,
 * libimex_gpu_sycl.so) include it. Both flavours export the same symbol
 * names, so a program links one of them.
 */
#ifndef IMEX_GPU_ABI_H
#define IMEX_GPU_ABI_H

#include <stddef.h>

#if defined(__GNUC__)
#define IMEX_GPU_API __attribute__((visibility("default")))
#else
#define IMEX_GPU_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** One kernel parameter; an array of them ends with {NULL, 0}. */
typedef struct {
    void *data;
    size_t size;
} ParamDesc;

/** One dependency; an array of them ends with {NULL}. */
typedef struct {
    void *event;
} EventDesc;

/** Lowered code cannot check results: every failure goes to this handler,
 *  with a message naming the function and the cause. The default handler
 *  prints the message and aborts; with a handler that returns, the failing
 *  wrapper returns NULL (or does nothing). */
typedef void (*imex_gpu_error_handler_t)(const char *message, void *user_data);
/** handler NULL restores the default (print to stderr and abort). */
IMEX_GPU_API void gpuSetErrorHandler(imex_gpu_error_handler_t handler, void *user_data);

#ifdef __cplusplus
}
#endif

#endif /* IMEX_GPU_ABI_H */
