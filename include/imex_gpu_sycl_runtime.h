/*
 * The SYCL flavour of the gpu* runtime wrappers: the same symbols, argument
 * lists and ParamDesc/EventDesc layouts (imex_gpu_abi.h) as the Level Zero
 * flavour (imex_gpu_runtime.h), so code lowered by the IMEX/MLIR GPU pipeline
 * runs on either; exported by libimex_gpu_sycl.so, which a program links
 * instead of libimex_l0_interop.so's wrappers. A stream holds a sycl::queue
 * of any backend whose devices take SPIR-V: modules are kernel bundles of
 * SPIR-V (the kernel_compiler extension), launches nd_range submissions,
 * events sycl::events, memory SYCL USM.
 *
 * Pointers: a device is a sycl::device *, a context a sycl::context *, a
 * queue a sycl::queue * (all C++ objects behind void *); streams, modules,
 * kernels and events are the library's, opaque.
 *
 * Order: a stream runs its work in submission order, on any queue: on an
 * out-of-order queue each submission depends on the one before.
 *
 * Ownership: what gpuCreate* returns is destroyed by the matching
 * gpuDestroy*; the caller's device, context and queue are never destroyed
 * (a stream keeps its own sycl::queue object, a copy of the caller's: the
 * same queue). Modules and kernels belong to the stream. Events returned by
 * gpuLaunchKernel and gpuRecordEvent belong to the stream, under the rule of
 * the Level Zero flavour: usable as dependencies (of any stream of the same
 * context) until the stream's next gpuWait, and after it only until its next
 * launch or record, which may take the event over.
 *
 * Errors go to the handler of gpuSetErrorHandler (imex_gpu_abi.h).
 * Threads: a stream is used by one thread at a time.
 */
#ifndef IMEX_GPU_SYCL_RUNTIME_H
#define IMEX_GPU_SYCL_RUNTIME_H

#include "imex_gpu_abi.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A stream on a new in-order queue: device and context both NULL (SYCL's
 *  default GPU, and a context of its own), or both given (the caller's
 *  sycl::device * and sycl::context *, which must outlive the stream). */
IMEX_GPU_API void *gpuCreateStream(void *device, void *context);
/** A stream that submits to the caller's queue (a sycl::queue *; the stream
 *  keeps a copy of the handle, so the caller's object may go). */
IMEX_GPU_API void *gpuCreateStreamFromSyclQueue(void *queue);
/** Waits for the stream's work, then destroys it with its modules, kernels
 *  and events. */
IMEX_GPU_API void gpuStreamDestroy(void *stream);
IMEX_GPU_API void gpuDestroyStream(void *stream);
/** GPU number `index` of SYCL's list (a new sycl::device *, which
 *  gpuDestroyDevice deletes). */
IMEX_GPU_API void *gpuCreateDevice(size_t index);
IMEX_GPU_API void gpuDestroyDevice(void *device);
/** A new sycl::context * of the device, deleted by gpuDestroyContext. */
IMEX_GPU_API void *gpuCreateContext(void *device);
IMEX_GPU_API void gpuDestroyContext(void *context);

/** Shared (isShared) or device USM; alignment 0: the default. */
IMEX_GPU_API void *gpuMemAlloc(void *stream, size_t size, size_t alignment, bool isShared);
/** Freed once the work submitted on the stream so far has completed: safe
 *  right after queueing work that uses ptr. Never a host wait: the pointer
 *  is freed by a later gpuMemFree that finds that work complete, by the next
 *  gpuWait, or by gpuStreamDestroy. */
IMEX_GPU_API void gpuMemFree(void *stream, void *ptr);
IMEX_GPU_API void gpuMemCopy(void *stream, void *dst, void *src, size_t size);
/** Fills size bytes with the patternSize-byte pattern (a power of two up to
 *  128 that divides size); the pattern is copied before the call returns. */
IMEX_GPU_API void gpuMemFill(void *stream, void *dst, const void *pattern, size_t patternSize,
                             size_t size);

/** Builds SPIR-V into a kernel bundle of the stream's device, cached by the
 *  stream per address and size (the bytes are compared on every hit, so a
 *  blob rewritten in place is built again). */
IMEX_GPU_API void *gpuModuleLoad(void *stream, const void *spirv, size_t size);
/** Modules stay with the stream (lowered code loads them before every
 *  launch); this checks that module is one. */
IMEX_GPU_API void gpuModuleUnload(void *module);
/** Cached per (module, name). */
IMEX_GPU_API void *gpuKernelGet(void *stream, void *module, const char *name);
/** gridX*gridY*gridZ groups of blockX*blockY*blockZ work-items after the
 *  events of depEvents (EventDesc array, or NULL); params as in the Level
 *  Zero flavour (with sharedMemBytes, the last entry stands for the local
 *  memory argument). Returns the launch's event. */
IMEX_GPU_API void *gpuLaunchKernel(void *stream, void *kernel, size_t gridX, size_t gridY,
                                   size_t gridZ, size_t blockX, size_t blockY, size_t blockZ,
                                   size_t sharedMemBytes, void *params, void *depEvents);
/** An event signaled once everything submitted on the stream so far has
 *  completed. */
IMEX_GPU_API void *gpuRecordEvent(void *stream);
/** Work submitted on the stream from now on starts after depEvents. */
IMEX_GPU_API void gpuWaitEvents(void *stream, void *depEvents);
/** Returns when everything submitted on the stream has completed. */
IMEX_GPU_API void gpuWait(void *stream);

#ifdef __cplusplus
}
#endif

#endif /* IMEX_GPU_SYCL_RUNTIME_H */
