/*
 * The gpu* runtime wrappers that code lowered by the IMEX/MLIR GPU pipeline
 * calls: the same symbol names, argument lists and ParamDesc/EventDesc layouts
 * as IMEX's Level Zero runtime wrappers, implemented on the interop layer.
 * The symbols are exported by libimex_l0_interop.so: lowered code links it.
 *
 * Errors: lowered code cannot check results, so every failure is reported to
 * the handler set with gpuSetErrorHandler (imex_gpu_abi.h, with ParamDesc and
 * EventDesc, which the SYCL flavour, imex_gpu_sycl_runtime.h, shares).
 *
 * Ownership: gpuStreamDestroy destroys only what the library created. Device,
 * context and command lists passed in are never destroyed. Modules and
 * kernels belong to the stream's engine; events returned by gpuLaunchKernel
 * and gpuRecordEvent belong to the stream. Callers wait on them or pass them
 * as dependencies (to any stream of the same context), and never reset or
 * destroy them: gpuWait may wait on one. The next gpuWait on the stream
 * recycles them: a recycled event stays signaled until the stream hands it
 * out again for a later launch or record (oldest first), so a dependency on
 * it made after that wait is met at once. Once handed out again, it stands
 * for the later work: use an event before the stream's next wait, or after
 * it only until the stream's next launch. gpuStreamDestroy gives the events
 * back to the engine: an event of a destroyed stream is no dependency.
 *
 * Threads: a stream is used by one thread at a time; different streams may be
 * used from different threads.
 */
#ifndef IMEX_GPU_RUNTIME_H
#define IMEX_GPU_RUNTIME_H

#include "imex_gpu_abi.h"
#include "imex_l0_interop.h"

#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A stream with an asynchronous immediate list the library creates.
 *  - device == NULL && context == NULL: a temporary stream on the first
 *    device, in a context the library creates (shared by all such streams).
 *  - device is a ze_device_handle_t: that device, in `context` (the caller's,
 *    never destroyed), or in a context the library creates when it is NULL.
 *  - device is any other non-NULL pointer: IMEX's convention, a pointer to a
 *    ze_device_type_t; the first device of that type (of `context`'s driver
 *    when one is given). Device handles are recognised by enumerating every
 *    driver's devices, so the two forms cannot be confused.
 *  - device == NULL, context given (IMEX's context-only form): the first
 *    device that `context` accepts.
 *  Anything else is reported to the error handler. */
IMEX_L0_API void *gpuCreateStream(void *device, void *context);
IMEX_L0_API void gpuStreamDestroy(void *stream);
/** Device number `index` of the first driver (a ze_device_handle_t; the
 *  GPUX dialect's create_device). Level Zero creates no device: nothing is
 *  owned, and gpuDestroyDevice only checks the handle is a device. */
IMEX_L0_API void *gpuCreateDevice(size_t index);
IMEX_L0_API void gpuDestroyDevice(void *device);
/** A new context on the device's driver (a ze_context_handle_t the caller
 *  owns), to give gpuCreateStream; gpuDestroyContext destroys it once its
 *  streams are destroyed and its memory freed (an error before). */
IMEX_L0_API void *gpuCreateContext(void *device);
IMEX_L0_API void gpuDestroyContext(void *context);
/** The same as gpuStreamDestroy. */
IMEX_L0_API void gpuDestroyStream(void *stream);

/** Shared (isShared) or device USM; alignment 0 means the driver's default. */
IMEX_L0_API void *gpuMemAlloc(void *stream, size_t size, size_t alignment, bool isShared);
/** ptr must be USM of the stream's context; anything else is reported.
 *  Safe right after queueing work that still uses ptr (lowered code frees
 *  before it waits): when work was queued on the stream since its last
 *  gpuWait, the free is deferred until that work has completed (a fence
 *  every 32 deferred frees: the last launch's event on a list the library
 *  created, else an appended barrier; the pointer is freed by the next
 *  gpuWait, when a later fence is recorded and finds this one signaled, or
 *  by gpuStreamDestroy). It never waits on the host. Work queued on *other*
 *  streams is not waited for. */
IMEX_L0_API void gpuMemFree(void *stream, void *ptr);
/** Asynchronous on the stream, after everything submitted before. */
IMEX_L0_API void gpuMemCopy(void *stream, void *dst, void *src, size_t size);
/** Fills size bytes at dst with the patternSize-byte pattern (1, 2, 4, ...
 *  128, a power of two dividing size), asynchronously on the stream; the
 *  pattern is copied before the call returns (gpu.memset's lowering). */
IMEX_L0_API void gpuMemFill(void *stream, void *dst, const void *pattern, size_t patternSize,
                            size_t size);

/** Builds SPIR-V, cached by content: the same bytes at two addresses are one
 *  module; other bytes at a reused address are another module. A repeated
 *  load from the same address and size (what lowered code does before every
 *  launch) costs a lookup and a fingerprint of the bytes: the SPIR-V header
 *  and 16 words spread over the blob, compared with what was seen there
 *  before. Bytes reused at the same address and size that differ from the
 *  previous ones only outside those words are not noticed: a caller that
 *  rewrites a blob in place must give it another address or size. The first
 *  load from an address copies and compares the whole blob. */
IMEX_L0_API void *gpuModuleLoad(void *stream, const void *spirv, size_t size);
/** IMEX's lowering declares it. Modules stay cached by the stream's engine
 *  (until its last stream is destroyed) because lowered code loads them again
 *  before every launch, so this only checks that module is one. */
IMEX_L0_API void gpuModuleUnload(void *module);
/** Cached per (module, name). */
IMEX_L0_API void *gpuKernelGet(void *stream, void *module, const char *name);
/** Asynchronous launch of gridX*gridY*gridZ groups of blockX*blockY*blockZ
 *  work-items after the events of depEvents (an EventDesc array, or NULL).
 *  params is a ParamDesc array; when sharedMemBytes is not 0 its last entry
 *  stands for a local-memory argument of sharedMemBytes bytes. Only the low 32
 *  bits of sharedMemBytes are read, because IMEX's lowering passes it as a
 *  32-bit integer (whose stack slot's upper half is undefined); no device has
 *  4 GiB of local memory. Returns the launch's completion event. */
IMEX_L0_API ze_event_handle_t gpuLaunchKernel(void *stream, void *kernel, size_t gridX,
                                              size_t gridY, size_t gridZ, size_t blockX,
                                              size_t blockY, size_t blockZ,
                                              size_t sharedMemBytes, void *params,
                                              void *depEvents);
/** An event of the stream (see Ownership) signaled once everything submitted
 *  on it so far has completed: the async token of an operation that returns
 *  no event of its own (a copy, an allocation, a wait), for another stream to
 *  depend on. On a list the library created whose last command is a launch,
 *  that launch's event. */
IMEX_L0_API ze_event_handle_t gpuRecordEvent(void *stream);
/** Work submitted on the stream from now on starts after every event of
 *  depEvents (an EventDesc array ending with {NULL}; NULL or empty: nothing).
 *  The host does not wait: follow with gpuWait to wait for them there. */
IMEX_L0_API void gpuWaitEvents(void *stream, void *depEvents);
/** Returns when everything submitted on the stream has completed. On a list
 *  the library created, returns at once when nothing was submitted since the
 *  last wait; on a user's list it always synchronises (its owner may have
 *  appended work of its own). */
IMEX_L0_API void gpuWait(void *stream);

/** A user-owned stream (the GPUX dialect's StreamType). */
typedef struct {
    ze_command_list_handle_t list; /**< an immediate command list */
    ze_device_handle_t device;
    ze_context_handle_t context;
} imex_gpu_l0_stream_t;

/** Wraps the user's immediate list; never destroys the user's objects. */
IMEX_L0_API void *gpuCreateStreamFromUser(const imex_gpu_l0_stream_t *user);
/** Wraps an interop stream, which must outlive the gpu stream. */
IMEX_L0_API void *gpuCreateStreamFromInterop(imex_l0_stream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* IMEX_GPU_RUNTIME_H */
