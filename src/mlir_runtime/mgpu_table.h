/* The one interface between libimex_l0_mlir_runtime.so and the interop
 * library: the mgpu* implementations live in libimex_l0_interop.so, next to
 * the engines and streams they use (one copy of their state per process),
 * and are reached through this table, the only symbol the interop library
 * exports for it. libimex_l0_mlir_runtime.so exports the mgpu* names and
 * forwards each call, so the interop library itself never exports mgpu*
 * symbols that could clash with another MLIR runtime in the process.
 * Not a public API: both libraries are built from the same sources. */
#ifndef IMEX_L0_MGPU_TABLE_H
#define IMEX_L0_MGPU_TABLE_H

#include "imex_l0_mlir_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    size_t size; /* sizeof(imex_l0_mgpu_table_t) of the library that filled it */
    imex_l0_status_t (*bind)(imex_l0_engine_t);
    imex_l0_status_t (*bindStream)(imex_l0_stream_t);
    imex_l0_status_t (*unbind)(void);
    void *(*streamCreate)(void);
    void (*streamSynchronize)(void *);
    void (*streamDestroy)(void *);
    void (*streamWaitEvent)(void *, void *);
    void *(*eventCreate)(void);
    void (*eventDestroy)(void *);
    void (*eventSynchronize)(void *);
    void (*eventRecord)(void *, void *);
    void *(*memAlloc)(uint64_t, void *, bool);
    void (*memFree)(void *, void *);
    void (*memcpy)(void *, void *, size_t, void *);
    void (*memset32)(void *, uint32_t, size_t, void *);
    void (*memset16)(void *, uint16_t, size_t, void *);
    void *(*moduleLoad)(const void *, size_t);
    void (*moduleUnload)(void *);
    void *(*moduleGetFunction)(void *, const char *);
    void (*launchKernel)(void *, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t,
                         int32_t, void *, void **, void **, size_t);
    void (*setDefaultDevice)(int32_t);
    void (*memHostRegisterMemRef)(int64_t, void *, int64_t);
    void (*memHostUnregisterMemRef)(int64_t, void *, int64_t);
} imex_l0_mgpu_table_t;

IMEX_L0_API const imex_l0_mgpu_table_t *imex_l0_mgpu_table(void);

#ifdef __cplusplus
}
#endif

#endif /* IMEX_L0_MGPU_TABLE_H */
