/* A framework's C host for an MLIR program compiled ahead of time by
 * upstream MLIR's own lowering (aot_program.mlir): it creates its own
 * context, device and immediate list, binds its stream to the mgpu* runtime,
 * calls the lowered function on its own USM, checks the result, and then
 * uses its own objects again. ctest runs it with the driver's fault injection
 * armed on the second zeCommandListCreateImmediate of the process, so a
 * runtime that made a list of its own instead of using the bound one would
 * fail (the default error handler aborts). */
#include "imex_gpu_runtime.h"
#include "imex_l0_mlir_runtime.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* The memref<64xi32> descriptor of MLIR's C interface. */
typedef struct {
    int32_t *allocated;
    int32_t *aligned;
    int64_t offset;
    int64_t sizes[1];
    int64_t strides[1];
} memref_1d_i32;

void _mlir_ciface_add_one(memref_1d_i32 *data);

#define CHECK_ZE(call)                                                                             \
    do {                                                                                           \
        ze_result_t r_ = (call);                                                                   \
        if (r_ != ZE_RESULT_SUCCESS) {                                                             \
            fprintf(stderr, "%s failed: 0x%x\n", #call, (unsigned)r_);                            \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)
#define CHECK_IMEX(call)                                                                           \
    do {                                                                                           \
        if ((call) != imex_l0_success) {                                                           \
            fprintf(stderr, "%s failed: %s\n", #call, imex_l0_last_error_message());               \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(void) {
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

    imex_l0_engine_t engine;
    CHECK_IMEX(imex_l0_interop_engine_create(&engine, driver, device, context));
    imex_l0_stream_t stream;
    CHECK_IMEX(imex_l0_interop_stream_create(&stream, engine, list));
    CHECK_IMEX(imex_l0_mlir_runtime_bind_stream(stream));

    ze_device_mem_alloc_desc_t ddesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC, NULL, 0, 0};
    ze_host_mem_alloc_desc_t hdesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC, NULL, 0};
    int32_t *data;
    CHECK_ZE(zeMemAllocShared(context, &ddesc, &hdesc, 64 * sizeof(int32_t), 64, device,
                              (void **)&data));
    for (int i = 0; i < 64; ++i)
        data[i] = 3 * i;

    memref_1d_i32 arg = {data, data, 0, {64}, {1}};
    for (int round = 0; round < 3; ++round)
        _mlir_ciface_add_one(&arg);
    for (int i = 0; i < 64; ++i) {
        if (data[i] != 3 * i + 3) {
            fprintf(stderr, "data[%d] = %d, expected %d\n", i, data[i], 3 * i + 3);
            return 1;
        }
    }
    CHECK_IMEX(imex_l0_mlir_runtime_unbind());

    /* The framework's list and context are still the framework's to use. */
    ze_event_pool_desc_t pdesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, NULL,
                                  ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_event_pool_handle_t pool;
    CHECK_ZE(zeEventPoolCreate(context, &pdesc, 1, &device, &pool));
    ze_event_desc_t edesc = {ZE_STRUCTURE_TYPE_EVENT_DESC, NULL, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                             ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t done;
    CHECK_ZE(zeEventCreate(pool, &edesc, &done));
    int32_t pattern = -5;
    CHECK_ZE(zeCommandListAppendMemoryFill(list, data, &pattern, sizeof pattern,
                                           64 * sizeof(int32_t), done, 0, NULL));
    CHECK_ZE(zeEventHostSynchronize(done, UINT64_MAX));
    if (data[63] != -5) {
        fprintf(stderr, "the framework's own fill did not run: %d\n", data[63]);
        return 1;
    }

    CHECK_IMEX(imex_l0_stream_destroy(stream));
    CHECK_IMEX(imex_l0_engine_destroy(engine));
    CHECK_ZE(zeEventDestroy(done));
    CHECK_ZE(zeEventPoolDestroy(pool));
    CHECK_ZE(zeMemFree(context, data));
    CHECK_ZE(zeCommandListDestroy(list));
    CHECK_ZE(zeContextDestroy(context));
    printf("mlir_runtime_aot: 3 launches of the lowered program ran on the framework's stream\n");
    return 0;
}
