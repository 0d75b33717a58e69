/*
 * libimex_l0_mlir_runtime.so: upstream MLIR's GPU runtime ABI (the mgpu*
 * functions that `gpu-to-llvm` + `gpu-module-to-binary` programs call) on
 * Level Zero, through the interop library's engines and streams. A drop-in
 * for MLIR's own Level Zero runtime: run lowered programs with
 *   mlir-runner --shared-libs=libimex_l0_mlir_runtime.so,...
 * or link them ahead of time against it.
 *
 * Binding (the reason it exists): by default mgpu* work runs in a context the
 * runtime creates on the first device (mgpuSetDefaultDevice picks another),
 * one asynchronous immediate list per mgpuStreamCreate. A framework makes
 * lowered code run on its own objects instead, per thread:
 *  - imex_l0_mlir_runtime_bind(engine): later mgpuStreamCreate calls on this
 *    thread make streams with a list of their own on the engine's device and
 *    context; memory, events and kernels come from that context.
 *  - imex_l0_mlir_runtime_bind_stream(stream): later mgpuStreamCreate calls
 *    return streams that append to the framework's interop stream (its own
 *    command list), in submission order; memory, events and kernels come from
 *    the stream's engine.
 *  - imex_l0_mlir_runtime_unbind(), or bind(NULL): the default again.
 * A stream keeps the binding it was created under. mgpuStreamDestroy never
 * destroys a framework object; the engine or stream bound must outlive the
 * mgpu streams created under it (destroying an engine with live streams is
 * refused by the interop API).
 *
 * Semantics that differ from a plain translation of the calls:
 *  - mgpuModuleLoad keeps the blob by content (the same bytes are one module)
 *    and builds it once per context, when a kernel of it is first launched
 *    there, so a module loaded by a global constructor (as MLIR's lowering
 *    does) before the framework binds runs in the framework's context.
 *  - mgpuLaunchKernel takes the argument sizes from the kernel's SPIR-V
 *    signature; a paramsCount that disagrees with it is an error.
 *  - mgpuMemFree on a stream with queued work is deferred behind that work
 *    (never a host wait); with a NULL stream it frees at once.
 *  - mgpuEventRecord re-arms a signaled event; mgpuStreamWaitEvent does not
 *    block the host.
 * Errors go to the handler of gpuSetErrorHandler (imex_gpu_runtime.h), with
 * the mgpu function's name; the default prints and aborts, like MLIR's.
 */
#ifndef IMEX_L0_MLIR_RUNTIME_H
#define IMEX_L0_MLIR_RUNTIME_H

#include "imex_l0_interop.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Thread-local; engine NULL restores the default. */
IMEX_L0_API imex_l0_status_t imex_l0_mlir_runtime_bind(imex_l0_engine_t engine);
/** Thread-local; stream must not be NULL. */
IMEX_L0_API imex_l0_status_t imex_l0_mlir_runtime_bind_stream(imex_l0_stream_t stream);
IMEX_L0_API imex_l0_status_t imex_l0_mlir_runtime_unbind(void);

/* The mgpu* ABI, as MLIR 22's lowering declares it. */
IMEX_L0_API void *mgpuStreamCreate(void);
IMEX_L0_API void mgpuStreamSynchronize(void *stream);
IMEX_L0_API void mgpuStreamDestroy(void *stream);
IMEX_L0_API void mgpuStreamWaitEvent(void *stream, void *event);
IMEX_L0_API void *mgpuEventCreate(void);
IMEX_L0_API void mgpuEventDestroy(void *event);
IMEX_L0_API void mgpuEventSynchronize(void *event);
IMEX_L0_API void mgpuEventRecord(void *event, void *stream);
IMEX_L0_API void *mgpuMemAlloc(uint64_t size, void *stream, bool isHostShared);
IMEX_L0_API void mgpuMemFree(void *ptr, void *stream);
IMEX_L0_API void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
IMEX_L0_API void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream);
IMEX_L0_API void mgpuMemset16(void *dst, uint16_t value, size_t count, void *stream);
IMEX_L0_API void *mgpuModuleLoad(const void *data, size_t size);
IMEX_L0_API void mgpuModuleUnload(void *module);
IMEX_L0_API void *mgpuModuleGetFunction(void *module, const char *name);
IMEX_L0_API void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                                  intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                                  int32_t dynamicSharedMemBytes, void *stream, void **params,
                                  void **extra, size_t paramsCount);
IMEX_L0_API void mgpuSetDefaultDevice(int32_t device);
/** gpu.host_register of a ranked memref (MLIR's descriptor {allocated,
 *  aligned, offset, sizes[rank], strides[rank]}): its elements become
 *  memory kernels may use in place. Where the device reaches host
 *  allocations already (sharedSystemAllocCapabilities, as on the project's
 *  CPU driver) nothing is done; else the driver's
 *  zexDriverImportExternalPointer imports the range; else it is an error
 *  (allocate with gpu.alloc host_shared instead). */
IMEX_L0_API void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                                           int64_t elementSizeBytes);
IMEX_L0_API void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                             int64_t elementSizeBytes);

#ifdef __cplusplus
}
#endif

#endif /* IMEX_L0_MLIR_RUNTIME_H */
