// A framework that records work into its own *regular* command list and
// executes it on its own queue with a fence, using the C++ wrapper: the
// library only appends to the list. Then the same with a stream that owns the
// execution step (a queue given to the stream: wait() closes, executes,
// synchronizes and resets the list).
#include "imex_l0_interop.hpp"

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void zeCheck(ze_result_t r, const char *what) {
    if (r != ZE_RESULT_SUCCESS) {
        std::fprintf(stderr, "%s failed: 0x%x\n", what, unsigned(r));
        std::exit(1);
    }
}

const char *kSource = R"(
kernel void axpy(float a, global const float *x, global float *y) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}
)";

} // namespace

int main() {
    constexpr size_t n = 4096;
    zeCheck(zeInit(0), "zeInit");
    uint32_t count = 1;
    ze_driver_handle_t driver;
    zeCheck(zeDriverGet(&count, &driver), "zeDriverGet");
    ze_device_handle_t device;
    zeCheck(zeDeviceGet(driver, &count, &device), "zeDeviceGet");
    ze_context_desc_t contextDesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
    ze_context_handle_t context;
    zeCheck(zeContextCreate(driver, &contextDesc, &context), "zeContextCreate");
    ze_command_queue_desc_t queueDesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                         ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                         ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_queue_handle_t queue;
    zeCheck(zeCommandQueueCreate(context, device, &queueDesc, &queue), "zeCommandQueueCreate");
    ze_command_list_desc_t listDesc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, 0, 0};
    ze_command_list_handle_t list;
    zeCheck(zeCommandListCreate(context, device, &listDesc, &list), "zeCommandListCreate");
    ze_fence_desc_t fenceDesc = {ZE_STRUCTURE_TYPE_FENCE_DESC, nullptr, 0};
    ze_fence_handle_t fence;
    zeCheck(zeFenceCreate(queue, &fenceDesc, &fence), "zeFenceCreate");

    int errors = 0;
    try {
        imex_l0::engine engine(driver, device, context);
        std::printf("device: %s\n", engine.device_name().c_str());
        imex_l0::memory x(engine, imex_l0_memory_kind_shared, n * sizeof(float));
        imex_l0::memory y(engine, imex_l0_memory_kind_shared, n * sizeof(float));
        auto *xs = static_cast<float *>(x.data());
        auto *ys = static_cast<float *>(y.data());
        for (size_t i = 0; i < n; ++i) {
            xs[i] = float(i);
            ys[i] = 1.0f;
        }
        auto axpy = imex_l0::kernel::from_source(engine, kSource, "axpy");
        const float a = 2.0f;
        const imex_l0_range_t range = {{n, 1, 1}, {0, 0, 0}};

        // 1. The framework executes its own list: the stream only appends.
        {
            imex_l0::stream recorder(engine, list, nullptr);
            axpy.execute(recorder, {imex_l0::arg::value(a), imex_l0::arg::mem(x),
                                    imex_l0::arg::mem(y)},
                         range, {}, /*want_event=*/false);
        }
        zeCheck(zeCommandListClose(list), "zeCommandListClose");
        for (int run = 0; run < 2; ++run) { // a closed list can run again
            zeCheck(zeCommandQueueExecuteCommandLists(queue, 1, &list, fence), "execute");
            zeCheck(zeFenceHostSynchronize(fence, UINT64_MAX), "zeFenceHostSynchronize");
            zeCheck(zeFenceReset(fence), "zeFenceReset");
        }
        for (size_t i = 0; i < n; ++i)
            errors += ys[i] != 1.0f + 2.0f * (2.0f * float(i));
        std::printf("framework-executed list, run twice: %s\n", errors ? "MISMATCH" : "ok");

        // 2. The stream executes: wait() closes, executes, waits and resets.
        zeCheck(zeCommandListReset(list), "zeCommandListReset");
        imex_l0::stream executor(engine, list, queue);
        axpy.execute(executor, {imex_l0::arg::value(a), imex_l0::arg::mem(x), imex_l0::arg::mem(y)},
                     range, {}, false);
        executor.wait();
        int before = errors;
        for (size_t i = 0; i < n; ++i)
            errors += ys[i] != 1.0f + 3.0f * (2.0f * float(i));
        std::printf("stream-executed list: %s\n", errors != before ? "MISMATCH" : "ok");
    } catch (const imex_l0::error &e) {
        std::fprintf(stderr, "imex_l0 error: %s\n", e.what());
        return 1;
    }

    // The library's objects are gone; the framework's are still its own.
    zeCheck(zeFenceDestroy(fence), "zeFenceDestroy");
    zeCheck(zeCommandListDestroy(list), "zeCommandListDestroy");
    zeCheck(zeCommandQueueDestroy(queue), "zeCommandQueueDestroy");
    zeCheck(zeContextDestroy(context), "zeContextDestroy");
    std::printf("%s\n", errors ? "FAIL" : "PASS");
    return errors ? 1 : 0;
}
