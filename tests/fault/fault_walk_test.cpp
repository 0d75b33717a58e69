// Fault injection walk, in the manner of SQLite's out-of-memory loop: the
// driver fails the N-th Level Zero call of a workload (N = 1, 2, ... until the
// workload completes without reaching the fault). At every step the library
// must report a failure whose message names the failing call, the caller's
// own objects must stay usable, and running the workload again must succeed.
#include "imex_gpu_runtime.h"
#include "imex_l0_interop.hpp"
#include "ze_opencl_ext.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

#define ASSERT_ZE(call) ASSERT_EQ((call), ZE_RESULT_SUCCESS) << #call

const char *kSource = R"(
kernel void scale(global const float *in, global float *out, float alpha) {
    size_t i = get_global_id(0);
    out[i] = in[i] * alpha;
}
kernel void add(global const float *a, global const float *b, global float *out) {
    size_t i = get_global_id(0);
    out[i] = a[i] + b[i];
}
)";

constexpr size_t kN = 256;

// The framework's own objects, created before any fault is armed.
class FaultWalk : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_ZE(zeInit(0));
        uint32_t count = 1;
        ASSERT_ZE(zeDriverGet(&count, &driver));
        count = 1;
        ASSERT_ZE(zeDeviceGet(driver, &count, &device));
        ASSERT_ZE(zeDriverGetExtensionFunctionAddress(driver, ZEX_OPENCL_SET_FAULT_NAME,
                                                      reinterpret_cast<void **>(&setFault)));
        ASSERT_ZE(zeDriverGetExtensionFunctionAddress(driver, ZEX_OPENCL_GET_FAULT_HIT_NAME,
                                                      reinterpret_cast<void **>(&getFaultHit)));
        ze_context_desc_t cdesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
        ASSERT_ZE(zeContextCreate(driver, &cdesc, &context));
        ze_command_queue_desc_t qdesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                         ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                         ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
        ASSERT_ZE(zeCommandListCreateImmediate(context, device, &qdesc, &list));
        ze_event_pool_desc_t pdesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                      ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
        ASSERT_ZE(zeEventPoolCreate(context, &pdesc, 1, &device, &pool));
        ze_event_desc_t edesc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0,
                                 ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
        ASSERT_ZE(zeEventCreate(pool, &edesc, &start));
        ze_device_mem_alloc_desc_t ddesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        ze_host_mem_alloc_desc_t hdesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        ASSERT_ZE(zeMemAllocShared(context, &ddesc, &hdesc, kN * sizeof(float), 64, device,
                                   reinterpret_cast<void **>(&input)));
        ASSERT_ZE(zeMemAllocShared(context, &ddesc, &hdesc, kN * sizeof(float), 64, device,
                                   reinterpret_cast<void **>(&output)));
        for (size_t i = 0; i < kN; ++i)
            input[i] = float(i);
    }

    void TearDown() override {
        if (setFault)
            setFault(nullptr, 0, ZE_RESULT_SUCCESS);
        zeMemFree(context, input);
        zeMemFree(context, output);
        zeEventDestroy(start);
        zeEventPoolDestroy(pool);
        zeCommandListDestroy(list);
        zeContextDestroy(context);
    }

    // The caller's list, event and memory still work: a fill gated by the
    // caller's event, on the caller's list.
    void expectFrameworkUsable() {
        ASSERT_ZE(zeEventHostReset(start));
        float value = -1.0f;
        ASSERT_ZE(zeCommandListAppendMemoryFill(list, output, &value, sizeof(value),
                                                kN * sizeof(float), start, 0, nullptr));
        ASSERT_ZE(zeEventHostSynchronize(start, UINT64_MAX));
        ASSERT_EQ(output[kN - 1], -1.0f);
        ASSERT_ZE(zeEventHostReset(start));
    }

    // Arms the fault, runs `workload`, and walks N upwards until the workload
    // completes before reaching the fault. Returns the number of steps.
    template <typename Workload> int walk(ze_result_t result, Workload &&workload) {
        for (int n = 1;; ++n) {
            ASSERT_ZE_OR(setFault("*", uint64_t(n), result));
            std::string failure = workload();
            ze_bool_t hit = false;
            char entry[128] = {};
            getFaultHit(&hit, entry, sizeof(entry));
            setFault(nullptr, 0, ZE_RESULT_SUCCESS);
            if (!hit) {
                EXPECT_EQ(failure, "") << "step " << n << ": no fault, yet the workload failed";
                return n - 1;
            }
            SCOPED_TRACE("step " + std::to_string(n) + ": " + entry + " failed");
            EXPECT_NE(failure, "") << "the failure of " << entry << " went unreported";
            EXPECT_NE(failure.find(entry), std::string::npos)
                << "the message does not name the failing call: " << failure;
            expectFrameworkUsable();
            EXPECT_EQ(workload(), "") << "the retry after the fault failed";
            if (::testing::Test::HasFailure())
                return n;
        }
    }
    static void ASSERT_ZE_OR(ze_result_t r) { ASSERT_EQ(r, ZE_RESULT_SUCCESS); }

    // The demo's DAG through the interop API; "" on success, else the error.
    std::string demoWorkload() {
        try {
            imex_l0::engine engine(driver, device, context);
            imex_l0::stream stream(engine, list);
            imex_l0::memory in(engine, imex_l0_memory_kind_shared, kN * sizeof(float), input);
            imex_l0::memory out(engine, imex_l0_memory_kind_shared, kN * sizeof(float), output);
            imex_l0::memory scaled(engine, imex_l0_memory_kind_device, kN * sizeof(float));
            imex_l0::memory copied(engine, imex_l0_memory_kind_device, kN * sizeof(float));
            auto scale = imex_l0::kernel::from_source(engine, kSource, "scale");
            auto add = imex_l0::kernel::from_source(engine, kSource, "add");
            // Work may be in flight when a later step fails: wait for it
            // before the memory above is released (destroyed first).
            struct Drain {
                imex_l0::stream &s;
                bool needed = true;
                ~Drain() {
                    if (needed)
                        imex_l0_stream_wait(s.get());
                }
            } drain{stream};
            const float alpha = 3.0f;
            const imex_l0_range_t range = {{kN, 1, 1}, {64, 1, 1}};
            auto e1 = scale.execute(stream, {imex_l0::arg::mem(in), imex_l0::arg::mem(scaled),
                                             imex_l0::arg::value(alpha)},
                                    range);
            auto e2 = stream.memcpy(copied.data(), input, kN * sizeof(float));
            auto e3 = add.execute(stream, {imex_l0::arg::mem(scaled), imex_l0::arg::mem(copied),
                                           imex_l0::arg::mem(out)},
                                  range, {e1, e2});
            stream.wait();
            drain.needed = false;
            for (auto e : {e1, e2, e3})
                engine.release(e);
            for (size_t i = 0; i < kN; ++i)
                if (output[i] != 4.0f * float(i))
                    return "wrong result at " + std::to_string(i);
            return "";
        } catch (const imex_l0::error &e) {
            return e.what();
        }
    }

    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t device = nullptr;
    ze_context_handle_t context = nullptr;
    ze_command_list_handle_t list = nullptr;
    ze_event_pool_handle_t pool = nullptr;
    ze_event_handle_t start = nullptr;
    float *input = nullptr;
    float *output = nullptr;
    zex_opencl_set_fault_t setFault = nullptr;
    zex_opencl_get_fault_hit_t getFaultHit = nullptr;
};

TEST_F(FaultWalk, DemoWorkloadOutOfHostMemory) {
    int steps = walk(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, [&] { return demoWorkload(); });
    std::printf("fault steps walked (OUT_OF_HOST_MEMORY): %d\n", steps);
    EXPECT_GT(steps, 10);
}

TEST_F(FaultWalk, DemoWorkloadOutOfDeviceMemory) {
    int steps = walk(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY, [&] { return demoWorkload(); });
    std::printf("fault steps walked (OUT_OF_DEVICE_MEMORY): %d\n", steps);
    EXPECT_GT(steps, 10);
}

TEST_F(FaultWalk, DemoWorkloadDeviceLost) {
    int steps = walk(ZE_RESULT_ERROR_DEVICE_LOST, [&] { return demoWorkload(); });
    std::printf("fault steps walked (DEVICE_LOST): %d\n", steps);
    EXPECT_GT(steps, 10);
}

// The gpu* wrappers on the caller's stream: failures reach the handler.
struct Recorder {
    std::string first;
    static void handle(const char *message, void *self) {
        auto *r = static_cast<Recorder *>(self);
        if (r->first.empty())
            r->first = message;
    }
};

TEST_F(FaultWalk, GpuWrappersOutOfHostMemory) {
    std::ifstream file(GPU_KERNELS_SPV, std::ios::binary);
    std::vector<char> spirv{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    ASSERT_FALSE(spirv.empty());
    auto workload = [&]() -> std::string {
        Recorder errors;
        gpuSetErrorHandler(Recorder::handle, &errors);
        imex_gpu_l0_stream_t user = {list, device, context};
        void *stream = gpuCreateStreamFromUser(&user);
        float *c = nullptr;
        if (stream) {
            float *a = input;
            c = static_cast<float *>(gpuMemAlloc(stream, kN * sizeof(float), 64, true));
            void *module = gpuModuleLoad(stream, spirv.data(), spirv.size());
            void *kernel = module ? gpuKernelGet(stream, module, "add") : nullptr;
            if (c && kernel) {
                ParamDesc params[] = {{&a, sizeof(a)}, {&a, sizeof(a)}, {&c, sizeof(c)}, {nullptr, 0}};
                gpuLaunchKernel(stream, kernel, kN / 64, 1, 1, 64, 1, 1, 0, params, nullptr);
            }
            gpuWait(stream);
            // A failed wait (or launch) may leave the kernel running: the fault
            // fired once, so waiting again drains it before c is freed.
            if (!errors.first.empty())
                gpuWait(stream);
            if (errors.first.empty() && c)
                for (size_t i = 0; i < kN; ++i)
                    if (c[i] != 2.0f * float(i))
                        errors.first = "wrong result at " + std::to_string(i);
            if (c)
                gpuMemFree(stream, c);
            gpuStreamDestroy(stream);
        }
        gpuSetErrorHandler(nullptr, nullptr);
        return errors.first;
    };
    int steps = walk(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY, workload);
    std::printf("fault steps walked (gpu* wrappers): %d\n", steps);
    EXPECT_GT(steps, 5);
}

} // namespace
