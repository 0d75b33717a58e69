/*
 * imex_l0_interop: a C API for frameworks that own their Level Zero objects.
 *
 * Ownership, everywhere in this header:
 *  - Handles the caller passes in (driver, device, context, command list,
 *    command queue, USM pointers, events in a dependency list) are never
 *    destroyed or freed by the library.
 *  - What the library creates, it destroys: its own context, its own command
 *    lists, ALLOCATEd memory, modules, kernels and event pools.
 *  - An event returned by a submission belongs to the engine's event pool:
 *    wait on it, pass it as a dependency anywhere in the same context, and
 *    release it once with imex_l0_event_release (or let the engine's
 *    destruction reclaim it). A second release is imex_l0_invalid_arguments.
 *
 * Errors: every function returns imex_l0_status_t (unless noted), never
 * throws, and on failure leaves its output arguments untouched and sets a
 * thread-local message (imex_l0_last_error_message) saying what was wrong.
 *
 * Threads: engines, memory objects and kernels may be used from several
 * threads at once. A stream, like a Level Zero command list, is used by one
 * thread at a time. The library's shared state (caches, event pools) is
 * internally synchronized.
 */
#ifndef IMEX_L0_INTEROP_H
#define IMEX_L0_INTEROP_H

#include <level_zero/ze_api.h>
#include <stddef.h>
#include <stdint.h>

#if defined(IMEX_L0_BUILDING_LIBRARY)
#define IMEX_L0_API __attribute__((visibility("default")))
#else
#define IMEX_L0_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/** The library's version; imex_l0_get_version tells the one loaded at run time. */
#define IMEX_L0_VERSION_MAJOR 0
#define IMEX_L0_VERSION_MINOR 1
#define IMEX_L0_VERSION_PATCH 0

/** Status of every call. */
typedef enum {
    imex_l0_success = 0,
    imex_l0_out_of_memory,
    imex_l0_invalid_arguments, /**< null/foreign handle, bad size, wrong arg count, ... */
    imex_l0_unimplemented,     /**< valid request the library or driver does not support */
    imex_l0_compile_error,     /**< OpenCL C or SPIR-V failed to build: message = build log */
    imex_l0_not_found,         /**< e.g. no kernel of that name in the module */
    imex_l0_runtime_error,     /**< an L0 call failed: message names the call and ze_result */
    imex_l0_timeout,           /**< a bounded wait ended before the work it waited for */
    imex_l0_device_lost,       /**< a kernel faulted and the device can run nothing more in this
                                    process: message names the stream's last kernel; objects can
                                    still be destroyed */
} imex_l0_status_t;

/** A static string naming the status ("imex_l0_success", ...). */
IMEX_L0_API const char *imex_l0_status_str(imex_l0_status_t status);
/** This thread's last failure message, "" if none. Valid until this thread's next call. */
IMEX_L0_API const char *imex_l0_last_error_message(void);

typedef struct {
    uint32_t major, minor, patch;
} imex_l0_version_t;
/** The version of the library loaded (the header's macros are the one compiled against). */
IMEX_L0_API imex_l0_status_t imex_l0_get_version(imex_l0_version_t *version);

/* ----------------------------------------------------------------- Logging
 * One line per event: "imex_l0,<level>,<event>,<fields...>", where <event> is
 * engine_create, stream_create, kernel_create, compile, kernel_execute (info:
 * with the host time in us and, for launches, the requested and the chosen
 * local size), event_timestamps (info: the kernel's name, or memcpy or
 * memset, and the device time of a profiled command, when
 * imex_l0_event_get_timestamps reads it), call (trace: every API call), or
 * the name of an API function that failed (its status and message, logged
 * from level info up: at the default level a failure reaches the caller
 * only as a status and imex_l0_last_error_message). Lines are CSV (RFC 4180):
 * a field holding a comma, a double quote or a line break (a message, a
 * device name) is quoted, its quotes doubled. The level starts from
 * IMEX_L0_VERBOSE (none|error|warn|info|trace, default error). */
typedef enum {
    imex_l0_log_none = -1,
    imex_l0_log_error = 0,
    imex_l0_log_warn = 1,
    imex_l0_log_info = 2,
    imex_l0_log_trace = 3
} imex_l0_log_level_t;
typedef void (*imex_l0_log_callback_t)(imex_l0_log_level_t level, const char *line,
                                       void *user_data);
/** Process-wide; overrides IMEX_L0_VERBOSE. */
IMEX_L0_API imex_l0_status_t imex_l0_set_log_level(imex_l0_log_level_t level);
/** Lines go to callback (from any thread, one at a time) instead of stderr;
 *  NULL restores stderr. The callback runs under the library's log lock: it
 *  may call the library (even to set another callback), whose own lines are
 *  then not delivered to it, and whatever it calls leaves
 *  imex_l0_last_error_message() of the call being logged unchanged; it must
 *  not wait for another thread that is calling the library. */
IMEX_L0_API imex_l0_status_t imex_l0_set_log_callback(imex_l0_log_callback_t callback,
                                                      void *user_data);

typedef struct imex_l0_engine *imex_l0_engine_t;
typedef struct imex_l0_stream *imex_l0_stream_t;
typedef struct imex_l0_memory *imex_l0_memory_t;
typedef struct imex_l0_kernel *imex_l0_kernel_t;

/* ------------------------------------------------------------------ Engine */

/** Wraps user-owned handles; the library never destroys them.
 *  context == NULL: the library creates and owns a context on driver/device. */
IMEX_L0_API imex_l0_status_t imex_l0_interop_engine_create(imex_l0_engine_t *engine,
                                                           ze_driver_handle_t driver,
                                                           ze_device_handle_t device,
                                                           ze_context_handle_t context);
/** First driver, device number device_index; the engine owns its context. Calls zeInit. */
IMEX_L0_API imex_l0_status_t imex_l0_engine_create(imex_l0_engine_t *engine,
                                                   uint32_t device_index);
IMEX_L0_API imex_l0_status_t imex_l0_interop_engine_get_driver(imex_l0_engine_t engine,
                                                               ze_driver_handle_t *driver);
IMEX_L0_API imex_l0_status_t imex_l0_interop_engine_get_device(imex_l0_engine_t engine,
                                                               ze_device_handle_t *device);
IMEX_L0_API imex_l0_status_t imex_l0_interop_engine_get_context(imex_l0_engine_t engine,
                                                                ze_context_handle_t *context);
/** *name is owned by the engine and valid until it is destroyed. */
IMEX_L0_API imex_l0_status_t imex_l0_engine_get_device_name(imex_l0_engine_t engine,
                                                            const char **name);
/** Destroys the engine and what it owns (its context if it created one, its
 *  event pool, cached modules and kernels). Streams, memory objects and kernels
 *  created from it must be destroyed first. */
IMEX_L0_API imex_l0_status_t imex_l0_engine_destroy(imex_l0_engine_t engine);

/* ------------------------------------------------------------------ Stream */

/** list: a user-owned *immediate* command list on the engine's context/device. */
IMEX_L0_API imex_l0_status_t imex_l0_interop_stream_create(imex_l0_stream_t *stream,
                                                           imex_l0_engine_t engine,
                                                           ze_command_list_handle_t list);
/** list: a user-owned *regular* command list; the library only appends to it.
 *  queue may be NULL (the owner closes and executes the list); with a queue,
 *  imex_l0_stream_wait closes the list, executes it on the queue, synchronizes
 *  and resets it.
 *  Events returned by submissions on such a stream are signaled by a command
 *  of the list, at every execution of it: each belongs to the list until the
 *  list is reset. Released before that, it is parked, never handed to another
 *  submission that a replay of the list would then falsely complete; once
 *  the owner has reset (or destroyed) the list, imex_l0_interop_stream_list_reset
 *  recycles the parked events (imex_l0_stream_wait with a queue does this
 *  itself). Events of a stream destroyed without it stay parked until the
 *  engine is destroyed. */
IMEX_L0_API imex_l0_status_t imex_l0_interop_stream_create_regular(
    imex_l0_stream_t *stream, imex_l0_engine_t engine, ze_command_list_handle_t list,
    ze_command_queue_handle_t queue);
/** The owner of the stream's regular list has reset it (zeCommandListReset)
 *  or destroyed it: the events the library's submissions signal from it can
 *  be recycled once released. imex_l0_invalid_arguments on other streams. */
IMEX_L0_API imex_l0_status_t imex_l0_interop_stream_list_reset(imex_l0_stream_t stream);
/** The library creates and owns an immediate command list (in order). */
IMEX_L0_API imex_l0_status_t imex_l0_stream_create(imex_l0_stream_t *stream,
                                                   imex_l0_engine_t engine);
IMEX_L0_API imex_l0_status_t imex_l0_interop_stream_get_list(imex_l0_stream_t stream,
                                                             ze_command_list_handle_t *list);
/** The host waits until all work submitted through the stream is done. */
IMEX_L0_API imex_l0_status_t imex_l0_stream_wait(imex_l0_stream_t stream);
/** imex_l0_stream_wait for at most timeout_ns nanoseconds: imex_l0_timeout
 *  when the work is not done by then (a dependency never signaled, or a
 *  regular list passed as immediate, whose commands run only when it is
 *  executed); the work stays queued and a later wait waits for it again.
 *  Level Zero cannot tell a list's kind, so the mix-up is only seen here. */
IMEX_L0_API imex_l0_status_t imex_l0_stream_wait_timeout(imex_l0_stream_t stream,
                                                         uint64_t timeout_ns);
/** Never destroys a user list or queue. */
IMEX_L0_API imex_l0_status_t imex_l0_stream_destroy(imex_l0_stream_t stream);

/* ------------------------------------------------------------ Memory (USM) */

typedef enum {
    imex_l0_memory_kind_device,
    imex_l0_memory_kind_host,
    imex_l0_memory_kind_shared
} imex_l0_memory_kind_t;

#define IMEX_L0_MEMORY_NONE ((void *)0)                 /**< no buffer yet */
#define IMEX_L0_MEMORY_ALLOCATE ((void *)(intptr_t)-1) /**< library allocates and owns */

/** handle: a user USM pointer of this engine's context (checked with
 *  zeMemGetAllocProperties: a host pointer that is not USM, USM of another
 *  context or of another kind is rejected), or NONE, or ALLOCATE. */
IMEX_L0_API imex_l0_status_t imex_l0_interop_memory_create(imex_l0_memory_t *memory,
                                                           imex_l0_engine_t engine,
                                                           imex_l0_memory_kind_t kind,
                                                           size_t size, void *handle);
/** Several buffers in one object, one size each. */
IMEX_L0_API imex_l0_status_t imex_l0_interop_memory_create_v2(imex_l0_memory_t *memory,
                                                              imex_l0_engine_t engine,
                                                              imex_l0_memory_kind_t kind,
                                                              size_t nhandles, const size_t *sizes,
                                                              void **handles);
IMEX_L0_API imex_l0_status_t imex_l0_interop_memory_get_mem_object(imex_l0_memory_t memory,
                                                                   size_t index, void **ptr);
/** Frees an owned buffer it replaces; ptr is checked as in memory_create. */
IMEX_L0_API imex_l0_status_t imex_l0_interop_memory_set_mem_object(imex_l0_memory_t memory,
                                                                   size_t index, void *ptr);
IMEX_L0_API imex_l0_status_t imex_l0_memory_get_size(imex_l0_memory_t memory, size_t index,
                                                     size_t *size);
IMEX_L0_API imex_l0_status_t imex_l0_memory_get_kind(imex_l0_memory_t memory,
                                                     imex_l0_memory_kind_t *kind);
/** Frees ALLOCATEd buffers at once; never frees a user pointer. As with
 *  zeMemFree, work that still uses the buffers must be complete first (wait
 *  for the events of the launches that use them, or imex_l0_stream_wait):
 *  the streams may be the caller's regular lists, whose submission the
 *  library does not see. (The gpu* and mgpu* frees, whose callers cannot
 *  wait first, defer themselves behind their stream's work instead.) */
IMEX_L0_API imex_l0_status_t imex_l0_memory_destroy(imex_l0_memory_t memory);

/* ------------------------------------------------- Kernels: OpenCL C, SPIR-V */

/** A macro definition; value NULL means -Dname. */
typedef struct {
    const char *name;
    const char *value;
} imex_l0_define_t;

/** A header of one compile: `#include "name"` reads contents (both
 *  NUL-terminated; name a relative path such as "ops/common.h"). */
typedef struct {
    const char *name;
    const char *contents;
} imex_l0_header_t;

/** Compiles for the engine's device: its SPIR-V version, and cl_khr_fp16 only
 *  when the device reports ZE_DEVICE_MODULE_FLAG_FP16 (otherwise half
 *  arithmetic is a compile error; half as a storage format stays). */
IMEX_L0_API imex_l0_status_t imex_l0_kernel_create_from_source(
    imex_l0_kernel_t *kernel, imex_l0_engine_t engine, const char *source,
    const char *kernel_name, const char *build_options, size_t ndefines,
    const imex_l0_define_t *defines);
/** imex_l0_kernel_create_from_source with headers for this compile only: the
 *  source and the headers it includes see them, over a registered header
 *  of the same name (imex_l0_register_header); nothing is registered. The
 *  library's own headers (imex_l0/...) cannot be replaced
 *  (imex_l0_invalid_arguments). Their contents are part of the cache keys. */
IMEX_L0_API imex_l0_status_t imex_l0_kernel_create_from_source_with_headers(
    imex_l0_kernel_t *kernel, imex_l0_engine_t engine, const char *source,
    const char *kernel_name, const char *build_options, size_t ndefines,
    const imex_l0_define_t *defines, size_t nheaders, const imex_l0_header_t *headers);
IMEX_L0_API imex_l0_status_t imex_l0_kernel_create_from_spirv(imex_l0_kernel_t *kernel,
                                                              imex_l0_engine_t engine,
                                                              const void *spirv, size_t size,
                                                              const char *kernel_name,
                                                              const char *build_options);
/** A SPIR-V specialization constant: the OpSpecConstant decorated SpecId
 *  `id` takes `value`, its bits zero-extended (a float's bit pattern, a bool
 *  as 0 or 1); the module reads as many low bytes as its type has. */
typedef struct {
    uint32_t id;
    uint64_t value;
} imex_l0_spec_constant_t;
/** imex_l0_kernel_create_from_spirv with specialization constants
 *  (ze_module_constants_t); the constants are part of the module cache's
 *  key, so each set builds its own module. */
IMEX_L0_API imex_l0_status_t imex_l0_kernel_create_from_spirv_specialized(
    imex_l0_kernel_t *kernel, imex_l0_engine_t engine, const void *spirv, size_t size,
    const char *kernel_name, const char *build_options, size_t nconstants,
    const imex_l0_spec_constant_t *constants);
/** OpenCL C -> SPIR-V only (no device needed). *spirv and *log are freed with
 *  imex_l0_free. On a compile error, *log still receives the build log.
 *  Without a device to ask, the compile assumes one without fp16 arithmetic:
 *  cl_khr_fp16 is not defined (half stays a storage format), so code guarded
 *  by it takes the path every device runs; pass "-cl-ext=+cl_khr_fp16" for a
 *  device that has it. The other extension macros are those of the SPIR
 *  target (fp64 and 64-bit atomics included). Built for an engine
 *  (imex_l0_kernel_create_from_source), its device decides. */
IMEX_L0_API imex_l0_status_t imex_l0_compile_opencl_c(const char *source,
                                                      const char *build_options, size_t ndefines,
                                                      const imex_l0_define_t *defines,
                                                      void **spirv, size_t *size, char **log);
/** imex_l0_compile_opencl_c with headers for this compile only (as in
 *  imex_l0_kernel_create_from_source_with_headers). */
IMEX_L0_API imex_l0_status_t imex_l0_compile_opencl_c_with_headers(
    const char *source, const char *build_options, size_t ndefines,
    const imex_l0_define_t *defines, size_t nheaders, const imex_l0_header_t *headers,
    void **spirv, size_t *size, char **log);
/** Makes `#include "name"` resolve to contents in every later compile. The
 *  library's own headers (imex_l0/...) cannot be replaced
 *  (imex_l0_invalid_arguments). Only builds whose source includes the header
 *  (directly or through other registered headers) are compiled again. */
IMEX_L0_API imex_l0_status_t imex_l0_register_header(const char *name, const char *contents);

typedef enum {
    imex_l0_arg_kind_global,
    imex_l0_arg_kind_constant,
    imex_l0_arg_kind_local,
    imex_l0_arg_kind_value,
    /** an imported kernel's (Level Zero does not report argument kinds) */
    imex_l0_arg_kind_unknown
} imex_l0_arg_kind_t;

IMEX_L0_API imex_l0_status_t imex_l0_kernel_get_arg_count(imex_l0_kernel_t kernel,
                                                          size_t *nargs);
IMEX_L0_API imex_l0_status_t imex_l0_kernel_get_arg_info(imex_l0_kernel_t kernel, size_t index,
                                                         imex_l0_arg_kind_t *kind, size_t *size);
/** What the device reports of a built kernel (zeKernelGetProperties). */
typedef struct {
    uint32_t max_group_size;         /**< work-items per group the kernel can launch with */
    uint32_t required_group_size[3]; /**< reqd_work_group_size, or 0 0 0 */
    uint32_t local_mem_size;         /**< bytes of local memory the kernel declares itself */
    uint32_t private_mem_size;       /**< bytes of private memory per work-item */
    uint32_t max_subgroup_size;
    uint32_t max_num_subgroups;
} imex_l0_kernel_properties_t;
IMEX_L0_API imex_l0_status_t imex_l0_kernel_get_properties(imex_l0_kernel_t kernel,
                                                           imex_l0_kernel_properties_t *props);
/** The group size the library launches with for this global size when
 *  imex_l0_range_t.local is all 0 (zeKernelSuggestGroupSize). */
IMEX_L0_API imex_l0_status_t imex_l0_kernel_suggest_group_size(imex_l0_kernel_t kernel,
                                                               const size_t global[3],
                                                               size_t local[3]);
/** The compiler's log of the source the kernel was built from: the warnings
 *  of a successful compile ("" when there were none, and for kernels made
 *  from SPIR-V). *log is owned by the kernel, valid until it is destroyed. */
IMEX_L0_API imex_l0_status_t imex_l0_kernel_get_build_log(imex_l0_kernel_t kernel,
                                                          const char **log);
/** Who destroys an imported Level Zero object. */
typedef enum {
    imex_l0_ownership_keep = 0,     /**< the caller, after the library kernel is destroyed */
    imex_l0_ownership_transfer = 1, /**< the library, when the library kernel is destroyed */
} imex_l0_ownership_t;
/** A library kernel over the caller's own Level Zero kernel, as SYCL's
 *  make_kernel: `handle`, a kernel of `module`, both of the engine's
 *  context and device (Level Zero cannot check that; the driver's refusal at
 *  launch names it). Launches have the library's checks, except that Level
 *  Zero reports the argument count but not the kinds: arguments are checked
 *  by their imex_l0_exec_arg_type_t alone (imex_l0_kernel_get_arg_info says
 *  imex_l0_arg_kind_unknown), and a value's size is the driver's to check
 *  (Intel's and the project's take a value of another size as its first
 *  bytes, zero-extended or cut). On failure nothing is taken. With transfer,
 *  the library destroys the kernel, then the module (module may be NULL:
 *  the caller keeps it), when the library kernel is destroyed. Either way
 *  the handle's argument and group-size state is the library's from now on
 *  (see imex_l0_interop_kernel_get_handle). */
IMEX_L0_API imex_l0_status_t imex_l0_interop_kernel_create_from_handle(
    imex_l0_kernel_t *kernel, imex_l0_engine_t engine, ze_module_handle_t module,
    ze_kernel_handle_t handle, imex_l0_ownership_t ownership);
/** The handle is library-owned: do not destroy it, and leave its state
 *  (argument values, group size, global offset) to the library: a launch
 *  sets only what differs from what the library set last, so a value set
 *  on the handle directly may survive into the next launch. */
IMEX_L0_API imex_l0_status_t imex_l0_interop_kernel_get_handle(imex_l0_kernel_t kernel,
                                                               ze_kernel_handle_t *handle);
IMEX_L0_API imex_l0_status_t imex_l0_kernel_destroy(imex_l0_kernel_t kernel);
/** Frees what the library handed out (SPIR-V, logs). NULL is allowed. Returns nothing. */
IMEX_L0_API void imex_l0_free(void *ptr);

/* ------------------------------------------------- Event-based execution */

typedef enum {
    imex_l0_arg_memory,
    imex_l0_arg_usm,
    imex_l0_arg_value,
    imex_l0_arg_local
} imex_l0_exec_arg_type_t;

typedef struct {
    imex_l0_exec_arg_type_t type;
    imex_l0_memory_t memory; /**< imex_l0_arg_memory */
    const void *ptr;         /**< imex_l0_arg_usm: a USM pointer; imex_l0_arg_value: the bytes */
    size_t size;             /**< imex_l0_arg_value: byte size; imex_l0_arg_local: local bytes;
                                  imex_l0_arg_memory: which buffer of the object (0: the first) */
} imex_l0_exec_arg_t;

/** local all 0: the library chooses the group size. */
typedef struct {
    size_t global[3];
    size_t local[3];
} imex_l0_range_t;

/** Appends the launch to the stream after all deps; if return_event != NULL,
 *  returns an event signaled when the kernel completes (also on in-order streams). */
IMEX_L0_API imex_l0_status_t imex_l0_interop_kernel_execute(
    imex_l0_kernel_t kernel, imex_l0_stream_t stream, size_t nargs,
    const imex_l0_exec_arg_t *args, const imex_l0_range_t *range, size_t ndeps,
    const ze_event_handle_t *deps, ze_event_handle_t *return_event);
/** What a launch may ask for beyond a range (zero-initialize, set what is
 *  needed; NULL options is all zero). */
typedef struct {
    /** Added to every work-item's global id (get_global_offset); all 0: none.
     *  The driver must support ZE_experimental_global_offset. */
    size_t global_offset[3];
    /** All nonzero: launch exactly this many groups of range.local work-items
     *  (which must then be given); range.global is not read, so the global
     *  size need not be a multiple of the group size. All 0: from range. */
    uint32_t group_count[3];
    /** The caller's own event (of its own pool, in the engine's context),
     *  signaled when the launch completes: for a framework's timestamp or IPC
     *  pools. It stays the caller's (never reset or recycled by the library);
     *  return_event must then be NULL. NULL: none. */
    ze_event_handle_t signal_event;
} imex_l0_launch_options_t;

/** imex_l0_interop_kernel_execute with options (global offset, group count,
 *  the caller's signal event). */
IMEX_L0_API imex_l0_status_t imex_l0_interop_kernel_execute_ex(
    imex_l0_kernel_t kernel, imex_l0_stream_t stream, size_t nargs,
    const imex_l0_exec_arg_t *args, const imex_l0_range_t *range,
    const imex_l0_launch_options_t *options, size_t ndeps, const ze_event_handle_t *deps,
    ze_event_handle_t *return_event);
IMEX_L0_API imex_l0_status_t imex_l0_interop_memcpy(imex_l0_stream_t stream, void *dst,
                                                    const void *src, size_t size, size_t ndeps,
                                                    const ze_event_handle_t *deps,
                                                    ze_event_handle_t *return_event);
IMEX_L0_API imex_l0_status_t imex_l0_interop_memset(imex_l0_stream_t stream, void *dst,
                                                    const void *pattern, size_t pattern_size,
                                                    size_t size, size_t ndeps,
                                                    const ze_event_handle_t *deps,
                                                    ze_event_handle_t *return_event);
/** imex_l0_interop_memcpy that signals the caller's own event (as
 *  imex_l0_launch_options_t.signal_event) instead of returning one. */
IMEX_L0_API imex_l0_status_t imex_l0_interop_memcpy_signal(imex_l0_stream_t stream, void *dst,
                                                           const void *src, size_t size,
                                                           size_t ndeps,
                                                           const ze_event_handle_t *deps,
                                                           ze_event_handle_t signal_event);
/** Returns an event to the engine's pool. A second release of the same event
 *  (or an event the engine did not hand out) is imex_l0_invalid_arguments. */
IMEX_L0_API imex_l0_status_t imex_l0_event_release(imex_l0_engine_t engine,
                                                   ze_event_handle_t event);

/** Profiling: with enable != 0, the events this stream's later submissions
 *  return record the device's start and end of their command (kernel
 *  timestamps; they come from a second pool of the engine, released the same
 *  way). Off by default: such events cost the device a little more. */
IMEX_L0_API imex_l0_status_t imex_l0_stream_set_profiling(imex_l0_stream_t stream, int enable);
/** The device start and end of the command that signaled `event` (an event a
 *  profiling stream returned), in ns of the device's timestamp clock, after
 *  the event is signaled; invalid_arguments before, or for another event. */
IMEX_L0_API imex_l0_status_t imex_l0_event_get_timestamps(imex_l0_engine_t engine,
                                                          ze_event_handle_t event,
                                                          uint64_t *start_ns, uint64_t *end_ns);

/* ------------------------------------------------------------------ Caches */

/** Hits and misses of the compiler's caches since the process started. */
typedef struct {
    uint64_t memory_hits;
    uint64_t memory_misses;
    uint64_t disk_hits;
    uint64_t disk_misses;
} imex_l0_cache_stats_t;

/** Persistent SPIR-V cache directory (created if missing); NULL disables it.
 *  Default: the environment variable IMEX_L0_CACHE_DIR, else disabled. */
IMEX_L0_API imex_l0_status_t imex_l0_set_cache_dir(const char *dir);
IMEX_L0_API imex_l0_status_t imex_l0_get_cache_stats(imex_l0_cache_stats_t *stats);

#ifdef __cplusplus
}
#endif

#endif /* IMEX_L0_INTEROP_H */
