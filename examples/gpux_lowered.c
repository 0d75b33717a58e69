/*
 * The GPUX dialect's example program, written as the C calls its lowered LLVM
 * IR makes: create a stream, three allocations, load a SPIR-V module, get the
 * kernel, launch, wait, print the result, deallocate, destroy the stream.
 * It runs once on a temporary stream and once on a stream the "framework"
 * owns (its own context and immediate command list).
 */
#include "imex_gpu_runtime.h"

#include <level_zero/ze_api.h>
#include <stdio.h>
#include <stdlib.h>

#define N 8

static void *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *data = malloc((size_t)n);
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

/* The body of the lowered function: returns the number of wrong elements. */
static int run(void *stream, const void *spirv, size_t spirv_size, const char *label) {
    float *a = gpuMemAlloc(stream, N * sizeof(float), 64, true);
    float *b = gpuMemAlloc(stream, N * sizeof(float), 64, true);
    float *c = gpuMemAlloc(stream, N * sizeof(float), 64, true);
    for (int i = 0; i < N; ++i) {
        a[i] = (float)i;
        b[i] = 10.0f * (float)i;
    }
    void *module = gpuModuleLoad(stream, spirv, spirv_size);
    void *kernel = gpuKernelGet(stream, module, "add");
    ParamDesc params[] = {{&a, sizeof(a)}, {&b, sizeof(b)}, {&c, sizeof(c)}, {NULL, 0}};
    gpuLaunchKernel(stream, kernel, N, 1, 1, 1, 1, 1, 0, params, NULL);
    gpuWait(stream);

    int errors = 0;
    printf("%s: [", label);
    for (int i = 0; i < N; ++i) {
        printf("%s%g", i ? ", " : "", c[i]);
        errors += c[i] != 11.0f * (float)i;
    }
    printf("]\n");
    gpuMemFree(stream, a);
    gpuMemFree(stream, b);
    gpuMemFree(stream, c);
    return errors;
}

int main(void) {
    size_t spirv_size = 0;
    void *spirv = read_file(GPUX_ADD_SPV, &spirv_size);
    if (!spirv) {
        fprintf(stderr, "cannot read %s\n", GPUX_ADD_SPV);
        return 1;
    }
    printf("expected: [0, 11, 22, 33, 44, 55, 66, 77]\n");

    /* 1. A temporary stream: the library's context and command list. */
    void *stream = gpuCreateStream(NULL, NULL);
    int errors = run(stream, spirv, spirv_size, "temporary stream");
    gpuStreamDestroy(stream);

    /* 2. The framework's own stream (the GPUX StreamType). */
    uint32_t count = 1;
    ze_driver_handle_t driver;
    ze_device_handle_t device;
    if (zeInit(0) != ZE_RESULT_SUCCESS || zeDriverGet(&count, &driver) != ZE_RESULT_SUCCESS ||
        zeDeviceGet(driver, &count, &device) != ZE_RESULT_SUCCESS) {
        fprintf(stderr, "no Level Zero device\n");
        return 1;
    }
    ze_context_desc_t context_desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, NULL, 0};
    ze_context_handle_t context;
    zeContextCreate(driver, &context_desc, &context);
    ze_command_queue_desc_t queue_desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, NULL, 0, 0, 0,
                                          ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                          ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list;
    zeCommandListCreateImmediate(context, device, &queue_desc, &list);
    imex_gpu_l0_stream_t user = {list, device, context};
    stream = gpuCreateStreamFromUser(&user);
    errors += run(stream, spirv, spirv_size, "user stream");
    gpuStreamDestroy(stream);
    /* The framework's objects are still its own, and still alive. */
    ze_result_t destroyed = zeCommandListDestroy(list);
    destroyed = destroyed == ZE_RESULT_SUCCESS ? zeContextDestroy(context) : destroyed;
    free(spirv);

    if (errors || destroyed != ZE_RESULT_SUCCESS) {
        printf("FAIL\n");
        return 1;
    }
    printf("PASS\n");
    return 0;
}
