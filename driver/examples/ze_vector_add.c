/* Adds two vectors on the first Level Zero device, using nothing but the
 * Level Zero API: driver, device, context, an immediate command list, USM,
 * a module from SPIR-V, a kernel launch and an event. Prints the driver and
 * device it ran on and PASS, or what failed. */
#include <level_zero/ze_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        ze_result_t r_ = (call);                                                                   \
        if (r_ != ZE_RESULT_SUCCESS) {                                                             \
            fprintf(stderr, "%s:%d: %s failed: 0x%x\n", __FILE__, __LINE__, #call, (unsigned)r_);  \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

static unsigned char *readFile(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = malloc((size_t)n);
    if (data == NULL || fread(data, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

int main(int argc, char **argv) {
    const char *spvPath = argc > 1 ? argv[1] : VECTOR_ADD_SPV;
    enum { N = 1 << 16 };

    CHECK(zeInit(0));
    uint32_t count = 1;
    ze_driver_handle_t driver;
    CHECK(zeDriverGet(&count, &driver));
    count = 1;
    ze_device_handle_t device;
    CHECK(zeDeviceGet(driver, &count, &device));
    ze_device_properties_t deviceProps = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    CHECK(zeDeviceGetProperties(device, &deviceProps));
    ze_driver_properties_t driverProps = {ZE_STRUCTURE_TYPE_DRIVER_PROPERTIES};
    CHECK(zeDriverGetProperties(driver, &driverProps));

    ze_context_desc_t contextDesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ze_context_handle_t context;
    CHECK(zeContextCreate(driver, &contextDesc, &context));

    ze_command_queue_desc_t queueDesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    queueDesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    ze_command_list_handle_t list;
    CHECK(zeCommandListCreateImmediate(context, device, &queueDesc, &list));

    /* a and b are shared (written by the host), c is device memory copied back. */
    ze_device_mem_alloc_desc_t deviceDesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hostDesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    float *a, *b, *c;
    CHECK(zeMemAllocShared(context, &deviceDesc, &hostDesc, N * sizeof(float), 64, device,
                           (void **)&a));
    CHECK(zeMemAllocShared(context, &deviceDesc, &hostDesc, N * sizeof(float), 64, device,
                           (void **)&b));
    CHECK(zeMemAllocDevice(context, &deviceDesc, N * sizeof(float), 64, device, (void **)&c));
    for (int i = 0; i < N; ++i) {
        a[i] = (float)i;
        b[i] = 2.0f * (float)i + 1.0f;
    }

    size_t spvSize;
    unsigned char *spv = readFile(spvPath, &spvSize);
    ze_module_desc_t moduleDesc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
    moduleDesc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    moduleDesc.inputSize = spvSize;
    moduleDesc.pInputModule = spv;
    ze_module_handle_t module;
    ze_module_build_log_handle_t buildLog;
    ze_result_t built = zeModuleCreate(context, device, &moduleDesc, &module, &buildLog);
    if (built != ZE_RESULT_SUCCESS) {
        size_t logSize = 0;
        zeModuleBuildLogGetString(buildLog, &logSize, NULL);
        char *log = malloc(logSize);
        zeModuleBuildLogGetString(buildLog, &logSize, log);
        fprintf(stderr, "zeModuleCreate failed (0x%x):\n%s\n", (unsigned)built, log);
        return 1;
    }
    CHECK(zeModuleBuildLogDestroy(buildLog));

    ze_kernel_desc_t kernelDesc = {ZE_STRUCTURE_TYPE_KERNEL_DESC};
    kernelDesc.pKernelName = "vector_add";
    ze_kernel_handle_t kernel;
    CHECK(zeKernelCreate(module, &kernelDesc, &kernel));
    uint32_t gx, gy, gz;
    CHECK(zeKernelSuggestGroupSize(kernel, N, 1, 1, &gx, &gy, &gz));
    CHECK(zeKernelSetGroupSize(kernel, gx, gy, gz));
    CHECK(zeKernelSetArgumentValue(kernel, 0, sizeof(a), &a));
    CHECK(zeKernelSetArgumentValue(kernel, 1, sizeof(b), &b));
    CHECK(zeKernelSetArgumentValue(kernel, 2, sizeof(c), &c));

    ze_event_pool_desc_t poolDesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC};
    poolDesc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
    poolDesc.count = 1;
    ze_event_pool_handle_t pool;
    CHECK(zeEventPoolCreate(context, &poolDesc, 1, &device, &pool));
    ze_event_desc_t eventDesc = {ZE_STRUCTURE_TYPE_EVENT_DESC};
    eventDesc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
    eventDesc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
    ze_event_handle_t done;
    CHECK(zeEventCreate(pool, &eventDesc, &done));

    /* Launch, copy the result to the host once the kernel is done, wait. */
    float *result = malloc(N * sizeof(float));
    ze_group_count_t groups = {N / gx, 1, 1};
    CHECK(zeCommandListAppendLaunchKernel(list, kernel, &groups, NULL, 0, NULL));
    CHECK(zeCommandListAppendMemoryCopy(list, result, c, N * sizeof(float), done, 0, NULL));
    CHECK(zeEventHostSynchronize(done, UINT64_MAX));

    int errors = 0;
    for (int i = 0; i < N; ++i)
        if (result[i] != a[i] + b[i])
            ++errors;

    printf("driver:  Level Zero driver version %u\n", driverProps.driverVersion);
    printf("device:  %s (reported as %s)\n", deviceProps.name,
           deviceProps.type == ZE_DEVICE_TYPE_GPU ? "GPU" : "CPU");
    printf("vector_add of %d floats, group size %u: %s\n", N, gx, errors == 0 ? "PASS" : "FAIL");

    CHECK(zeEventDestroy(done));
    CHECK(zeEventPoolDestroy(pool));
    CHECK(zeKernelDestroy(kernel));
    CHECK(zeModuleDestroy(module));
    CHECK(zeMemFree(context, a));
    CHECK(zeMemFree(context, b));
    CHECK(zeMemFree(context, c));
    CHECK(zeCommandListDestroy(list));
    CHECK(zeContextDestroy(context));
    free(result);
    free(spv);
    return errors == 0 ? 0 : 1;
}
