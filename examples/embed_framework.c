/*
 * A "framework" that owns its Level Zero objects embeds imex_l0_interop:
 * it wraps its driver/device/context and immediate command list, compiles an
 * OpenCL C kernel at runtime, runs a small DAG (two kernels and a copy with
 * explicit dependencies and returned events, gated by one of its own events),
 * checks the result on the host, destroys the library's objects and shows its
 * own objects are still usable.
 */
#include "imex_l0_interop.h"

#include <level_zero/ze_api.h>
#include <stdio.h>
#include <stdlib.h>

#define N 1024

#define ZE_CHECK(call)                                                                             \
    do {                                                                                           \
        ze_result_t r_ = (call);                                                                   \
        if (r_ != ZE_RESULT_SUCCESS) {                                                             \
            fprintf(stderr, "%s:%d: %s failed: 0x%x\n", __FILE__, __LINE__, #call, (unsigned)r_);  \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#define IMEX_CHECK(call)                                                                           \
    do {                                                                                           \
        imex_l0_status_t s_ = (call);                                                              \
        if (s_ != imex_l0_success) {                                                               \
            fprintf(stderr, "%s:%d: %s failed: %s: %s\n", __FILE__, __LINE__, #call,               \
                    imex_l0_status_str(s_), imex_l0_last_error_message());                         \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static const char *kSource =
    "kernel void scale(global const float *in, global float *out, float alpha) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = in[i] * alpha;\n"
    "}\n"
    "kernel void add(global const float *a, global const float *b, global float *out) {\n"
    "    size_t i = get_global_id(0);\n"
    "    out[i] = a[i] + b[i];\n"
    "}\n";

int main(void) {
    /* --- The framework's own Level Zero objects. */
    ZE_CHECK(zeInit(0));
    uint32_t count = 1;
    ze_driver_handle_t driver;
    ZE_CHECK(zeDriverGet(&count, &driver));
    count = 1;
    ze_device_handle_t device;
    ZE_CHECK(zeDeviceGet(driver, &count, &device));
    ze_context_desc_t context_desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t context;
    ZE_CHECK(zeContextCreate(driver, &context_desc, &context));
    ze_command_queue_desc_t queue_desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0,
                                          ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                          ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list;
    ZE_CHECK(zeCommandListCreateImmediate(context, device, &queue_desc, &list));
    ze_event_pool_desc_t pool_desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                      ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_event_pool_handle_t pool;
    ZE_CHECK(zeEventPoolCreate(context, &pool_desc, 1, &device, &pool));
    ze_event_desc_t event_desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                                  ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t start;
    ZE_CHECK(zeEventCreate(pool, &event_desc, &start));

    ze_host_mem_alloc_desc_t host_desc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    ze_device_mem_alloc_desc_t dev_desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    float *a, *out;
    ZE_CHECK(zeMemAllocShared(context, &dev_desc, &host_desc, N * sizeof(float), 64, device,
                              (void **)&a));
    ZE_CHECK(zeMemAllocShared(context, &dev_desc, &host_desc, N * sizeof(float), 64, device,
                              (void **)&out));
    for (int i = 0; i < N; ++i)
        a[i] = (float)i;

    /* --- Wrap them. */
    imex_l0_engine_t engine;
    IMEX_CHECK(imex_l0_interop_engine_create(&engine, driver, device, context));
    const char *name;
    IMEX_CHECK(imex_l0_engine_get_device_name(engine, &name));
    printf("device: %s\n", name);
    imex_l0_stream_t stream;
    IMEX_CHECK(imex_l0_interop_stream_create(&stream, engine, list));
    imex_l0_memory_t mem_a, mem_out, mem_b, mem_c;
    IMEX_CHECK(imex_l0_interop_memory_create(&mem_a, engine, imex_l0_memory_kind_shared,
                                             N * sizeof(float), a));
    IMEX_CHECK(imex_l0_interop_memory_create(&mem_out, engine, imex_l0_memory_kind_shared,
                                             N * sizeof(float), out));
    IMEX_CHECK(imex_l0_interop_memory_create(&mem_b, engine, imex_l0_memory_kind_device,
                                             N * sizeof(float), IMEX_L0_MEMORY_ALLOCATE));
    IMEX_CHECK(imex_l0_interop_memory_create(&mem_c, engine, imex_l0_memory_kind_device,
                                             N * sizeof(float), IMEX_L0_MEMORY_ALLOCATE));
    void *b, *c;
    IMEX_CHECK(imex_l0_interop_memory_get_mem_object(mem_b, 0, &b));
    IMEX_CHECK(imex_l0_interop_memory_get_mem_object(mem_c, 0, &c));

    /* --- Compile at runtime. */
    imex_l0_kernel_t scale, add;
    IMEX_CHECK(imex_l0_kernel_create_from_source(&scale, engine, kSource, "scale", NULL, 0, NULL));
    IMEX_CHECK(imex_l0_kernel_create_from_source(&add, engine, kSource, "add", NULL, 0, NULL));

    /* --- The DAG: start -> {scale: b = 3a, copy: c = a} -> add: out = b + c. */
    float alpha = 3.0f;
    imex_l0_exec_arg_t scale_args[3] = {{imex_l0_arg_memory, mem_a, NULL, 0},
                                        {imex_l0_arg_memory, mem_b, NULL, 0},
                                        {imex_l0_arg_value, NULL, &alpha, sizeof(alpha)}};
    imex_l0_exec_arg_t add_args[3] = {{imex_l0_arg_memory, mem_b, NULL, 0},
                                      {imex_l0_arg_memory, mem_c, NULL, 0},
                                      {imex_l0_arg_memory, mem_out, NULL, 0}};
    imex_l0_range_t range = {{N, 1, 1}, {64, 1, 1}};
    ze_event_handle_t scaled, copied, added;
    IMEX_CHECK(imex_l0_interop_kernel_execute(scale, stream, 3, scale_args, &range, 1, &start,
                                              &scaled));
    IMEX_CHECK(imex_l0_interop_memcpy(stream, c, a, N * sizeof(float), 1, &start, &copied));
    ze_event_handle_t both[2] = {scaled, copied};
    IMEX_CHECK(imex_l0_interop_kernel_execute(add, stream, 3, add_args, &range, 2, both, &added));

    /* Nothing can run before the framework's own event says so. */
    ZE_CHECK(zeEventHostSignal(start));
    ZE_CHECK(zeEventHostSynchronize(added, UINT64_MAX));

    int errors = 0;
    for (int i = 0; i < N; ++i)
        if (out[i] != 4.0f * (float)i)
            ++errors;
    printf("out[1] = %.1f, out[%d] = %.1f (expected %.1f, %.1f): %s\n", out[1], N - 1,
           out[N - 1], 4.0f, 4.0f * (N - 1), errors ? "MISMATCH" : "ok");

    /* --- Destroy the library's objects. */
    IMEX_CHECK(imex_l0_event_release(engine, scaled));
    IMEX_CHECK(imex_l0_event_release(engine, copied));
    IMEX_CHECK(imex_l0_event_release(engine, added));
    IMEX_CHECK(imex_l0_kernel_destroy(scale));
    IMEX_CHECK(imex_l0_kernel_destroy(add));
    IMEX_CHECK(imex_l0_memory_destroy(mem_a));
    IMEX_CHECK(imex_l0_memory_destroy(mem_out));
    IMEX_CHECK(imex_l0_memory_destroy(mem_b));
    IMEX_CHECK(imex_l0_memory_destroy(mem_c));
    IMEX_CHECK(imex_l0_stream_destroy(stream));
    IMEX_CHECK(imex_l0_engine_destroy(engine));

    /* --- The framework's objects still work: fill `out` through its own list. */
    ZE_CHECK(zeEventHostReset(start));
    float zero = 0.0f;
    ZE_CHECK(zeCommandListAppendMemoryFill(list, out, &zero, sizeof(zero), N * sizeof(float),
                                           start, 0, NULL));
    ZE_CHECK(zeEventHostSynchronize(start, UINT64_MAX));
    int alive = out[N - 1] == 0.0f && a[N - 1] == (float)(N - 1);
    printf("framework objects usable after the library's destroy: %s\n", alive ? "yes" : "NO");

    ZE_CHECK(zeMemFree(context, a));
    ZE_CHECK(zeMemFree(context, out));
    ZE_CHECK(zeEventDestroy(start));
    ZE_CHECK(zeEventPoolDestroy(pool));
    ZE_CHECK(zeCommandListDestroy(list));
    ZE_CHECK(zeContextDestroy(context));

    if (errors || !alive) {
        printf("FAIL\n");
        return 1;
    }
    printf("PASS\n");
    return 0;
}
