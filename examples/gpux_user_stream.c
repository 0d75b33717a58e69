/*
 * A framework that owns its Level Zero objects runs MLIR-generated code on its
 * own command list: kernels/gpux_vector_add.mlir, lowered ahead of time with
 * imex-opt --gpux-lower-to-llvm=stream-from-argument=true, takes the stream
 * as its first argument. The framework wraps its {immediate list, device,
 * context} once (gpuCreateStreamFromUser), calls the lowered function on its
 * own USM, checks the result, and then keeps using its own objects.
 */
#include "imex_gpu_runtime.h"

#include <level_zero/ze_api.h>
#include <stdint.h>
#include <stdio.h>

#define N 1024

/* memref<1024xf32> as MLIR's C interface passes it. */
typedef struct {
    float *allocated;
    float *aligned;
    int64_t offset;
    int64_t sizes[1];
    int64_t strides[1];
} memref_1d_f32;

/* Lowered from gpux_vector_add.mlir: the stream comes first. */
void _mlir_ciface_vector_add(void *stream, memref_1d_f32 *a, memref_1d_f32 *b, memref_1d_f32 *c);

#define CHECK_ZE(call)                                                                             \
    do {                                                                                           \
        ze_result_t r_ = (call);                                                                   \
        if (r_ != ZE_RESULT_SUCCESS) {                                                             \
            fprintf(stderr, "%s failed: 0x%x\n", #call, (unsigned)r_);                            \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(void) {
    /* The framework's own objects. */
    CHECK_ZE(zeInit(0));
    uint32_t count = 1;
    ze_driver_handle_t driver;
    CHECK_ZE(zeDriverGet(&count, &driver));
    count = 1;
    ze_device_handle_t device;
    CHECK_ZE(zeDeviceGet(driver, &count, &device));
    ze_context_desc_t cdesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t context;
    CHECK_ZE(zeContextCreate(driver, &cdesc, &context));
    ze_command_queue_desc_t qdesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0,
                                     ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                     ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list;
    CHECK_ZE(zeCommandListCreateImmediate(context, device, &qdesc, &list));
    ze_device_mem_alloc_desc_t ddesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_host_mem_alloc_desc_t hdesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    float *a, *b, *c;
    CHECK_ZE(zeMemAllocShared(context, &ddesc, &hdesc, N * sizeof(float), 64, device, (void **)&a));
    CHECK_ZE(zeMemAllocShared(context, &ddesc, &hdesc, N * sizeof(float), 64, device, (void **)&b));
    CHECK_ZE(zeMemAllocShared(context, &ddesc, &hdesc, N * sizeof(float), 64, device, (void **)&c));

    /* One wrapper for the framework's list, made once, passed to every call. */
    imex_gpu_l0_stream_t user = {list, device, context};
    void *stream = gpuCreateStreamFromUser(&user); /* failures abort in the default handler */

    memref_1d_f32 A = {a, a, 0, {N}, {1}}, B = {b, b, 0, {N}, {1}}, C = {c, c, 0, {N}, {1}};
    for (int round = 0; round < 3; ++round) {
        for (int i = 0; i < N; ++i) {
            a[i] = (float)(i + round);
            b[i] = 0.5f * (float)i;
            c[i] = -1.0f;
        }
        _mlir_ciface_vector_add(stream, &A, &B, &C);
        for (int i = 0; i < N; ++i) {
            if (c[i] != a[i] + b[i]) {
                fprintf(stderr, "round %d: c[%d] = %f, expected %f\n", round, i, c[i], a[i] + b[i]);
                return 1;
            }
        }
    }
    gpuStreamDestroy(stream); /* the list, device and context stay the framework's */

    /* The framework's list still runs its own work. */
    ze_event_pool_desc_t pdesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                  ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_event_pool_handle_t pool;
    CHECK_ZE(zeEventPoolCreate(context, &pdesc, 1, &device, &pool));
    ze_event_desc_t edesc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                             ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t done;
    CHECK_ZE(zeEventCreate(pool, &edesc, &done));
    float pattern = 7.0f;
    CHECK_ZE(zeCommandListAppendMemoryFill(list, c, &pattern, sizeof pattern, N * sizeof(float),
                                           done, 0, NULL));
    CHECK_ZE(zeEventHostSynchronize(done, UINT64_MAX));
    if (c[N - 1] != 7.0f) {
        fprintf(stderr, "the framework's own fill did not run\n");
        return 1;
    }
    CHECK_ZE(zeEventDestroy(done));
    CHECK_ZE(zeEventPoolDestroy(pool));
    CHECK_ZE(zeMemFree(context, a));
    CHECK_ZE(zeMemFree(context, b));
    CHECK_ZE(zeMemFree(context, c));
    CHECK_ZE(zeCommandListDestroy(list));
    CHECK_ZE(zeContextDestroy(context));
    printf("gpux_user_stream: 3 calls of the lowered vector_add ran on the framework's list\n");
    return 0;
}
