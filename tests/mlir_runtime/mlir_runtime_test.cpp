// The mgpu* ABI called directly, as lowered code calls it: argument sizes from
// the kernel's signature, binding to a framework's engine and stream, events,
// deferred frees, and the errors lowered code cannot check (reported to the
// gpu* error handler). The MLIR programs themselves run in the lit tests.
#include "gpu_test_support.hpp"
#include "imex_l0_mlir_runtime.h"

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using gputest::readFile;
using gputest::Recorder;

// A framework's own objects: context (UserContext), immediate list, engine,
// interop stream.
struct Framework : gputest::UserContext {
    ze_command_list_handle_t list = immediateList();
    imex_l0_engine_t engine = nullptr;
    imex_l0_stream_t stream = nullptr;

    Framework() {
        EXPECT_EQ(imex_l0_interop_engine_create(&engine, driver, device, context), imex_l0_success);
        EXPECT_EQ(imex_l0_interop_stream_create(&stream, engine, list), imex_l0_success);
    }
    ~Framework() {
        EXPECT_EQ(imex_l0_stream_destroy(stream), imex_l0_success);
        EXPECT_EQ(imex_l0_engine_destroy(engine), imex_l0_success) << imex_l0_last_error_message();
        EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
    }
};

class MgpuRuntime : public ::testing::Test {
protected:
    void SetUp() override {
        gpuSetErrorHandler(Recorder::handle, &errors);
        spirv = readFile(MGPU_KERNELS_SPV);
        ASSERT_FALSE(spirv.empty());
        // As MLIR's lowering does: the module is loaded by a constructor,
        // before anything is bound.
        module = mgpuModuleLoad(spirv.data(), spirv.size());
        ASSERT_NE(module, nullptr) << lastError();
    }
    void TearDown() override {
        mgpuModuleUnload(module);
        EXPECT_EQ(imex_l0_mlir_runtime_unbind(), imex_l0_success);
        EXPECT_TRUE(errors.messages.empty()) << lastError();
        gpuSetErrorHandler(nullptr, nullptr);
    }
    std::string lastError() const { return errors.messages.empty() ? "" : errors.messages.back(); }
    void expectError(const std::string &function, const std::string &cause) {
        ASSERT_FALSE(errors.messages.empty()) << "no error reported";
        const std::string &m = errors.messages.back();
        EXPECT_NE(m.find(function), std::string::npos) << m;
        EXPECT_NE(m.find(cause), std::string::npos) << m;
        errors.messages.clear();
    }

    // out = in * 3 + 7 on `stream`, through scaled_add; checked on the host.
    void scaledAdd(void *stream) {
        constexpr int n = 64;
        auto *in = static_cast<int *>(mgpuMemAlloc(n * sizeof(int), stream, true));
        auto *out = static_cast<int *>(mgpuMemAlloc(n * sizeof(int), stream, true));
        ASSERT_TRUE(in && out) << lastError();
        for (int i = 0; i < n; ++i)
            in[i] = i - 20;
        void *fn = mgpuModuleGetFunction(module, "scaled_add");
        ASSERT_NE(fn, nullptr) << lastError();
        int a = 3;
        long long b = 7LL << 32;
        void *params[] = {&out, &in, &a, &b};
        mgpuLaunchKernel(fn, n / 8, 1, 1, 8, 1, 1, 0, stream, params, nullptr, 4);
        mgpuStreamSynchronize(stream);
        ASSERT_TRUE(errors.messages.empty()) << lastError();
        for (int i = 0; i < n; ++i)
            ASSERT_EQ(out[i], (i - 20) * 3 + 7) << i;
        mgpuMemFree(in, stream);
        mgpuMemFree(out, stream);
    }

    Recorder errors;
    std::vector<char> spirv;
    void *module = nullptr;
};

TEST_F(MgpuRuntime, ScalarSizesComeFromTheKernelSignature) {
    void *s = mgpuStreamCreate();
    ASSERT_NE(s, nullptr) << lastError();
    scaledAdd(s);
    mgpuStreamDestroy(s);
}

TEST_F(MgpuRuntime, DynamicSharedMemoryIsTheLastParameter) {
    void *s = mgpuStreamCreate();
    constexpr int groups = 4, group = 16;
    auto *in = static_cast<int *>(mgpuMemAlloc(groups * group * sizeof(int), nullptr, true));
    auto *out = static_cast<int *>(mgpuMemAlloc(groups * sizeof(int), nullptr, true));
    for (int i = 0; i < groups * group; ++i)
        in[i] = i % 5;
    void *fn = mgpuModuleGetFunction(module, "group_sum");
    void *shared = nullptr;
    void *params[] = {&in, &out, &shared};
    mgpuLaunchKernel(fn, groups, 1, 1, group, 1, 1, group * sizeof(int), s, params, nullptr, 3);
    mgpuStreamSynchronize(s);
    for (int g = 0; g < groups; ++g) {
        int expected = 0;
        for (int i = g * group; i < (g + 1) * group; ++i)
            expected += i % 5;
        EXPECT_EQ(out[g], expected) << g;
    }
    mgpuMemFree(in, nullptr);
    mgpuMemFree(out, nullptr);
    mgpuStreamDestroy(s);
}

TEST_F(MgpuRuntime, BoundEngineGivesItsContextAndAListOfItsOwn) {
    Framework fw;
    ASSERT_EQ(imex_l0_mlir_runtime_bind(fw.engine), imex_l0_success);
    void *s = mgpuStreamCreate();
    ASSERT_NE(s, nullptr) << lastError();
    void *withStream = mgpuMemAlloc(64, s, false);
    void *withoutStream = mgpuMemAlloc(64, nullptr, true);
    EXPECT_TRUE(fw.owns(withStream));
    EXPECT_TRUE(fw.owns(withoutStream));
    // The module loaded before the binding is built in the engine's context.
    scaledAdd(s);
    mgpuMemFree(withStream, s);
    mgpuMemFree(withoutStream, nullptr);
    mgpuStreamDestroy(s);
    EXPECT_FALSE(fw.owns(withStream));
    // Unbound, streams are the default context's again.
    ASSERT_EQ(imex_l0_mlir_runtime_bind(nullptr), imex_l0_success);
    void *d = mgpuStreamCreate();
    void *p = mgpuMemAlloc(64, d, true);
    EXPECT_FALSE(fw.owns(p));
    mgpuMemFree(p, d);
    mgpuStreamDestroy(d);
}

TEST_F(MgpuRuntime, BoundStreamRunsOnTheFrameworksList) {
    Framework fw;
    ASSERT_EQ(imex_l0_mlir_runtime_bind_stream(fw.stream), imex_l0_success);
    void *s = mgpuStreamCreate();
    ASSERT_NE(s, nullptr) << lastError();
    // Block the framework's list on an event only the host signals: work of
    // the mgpu stream must wait behind it, so it runs on that list.
    ze_event_pool_desc_t pdesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                  ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_event_pool_handle_t pool;
    ASSERT_EQ(zeEventPoolCreate(fw.context, &pdesc, 1, &fw.device, &pool), ZE_RESULT_SUCCESS);
    ze_event_desc_t edesc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                             ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t gate;
    ASSERT_EQ(zeEventCreate(pool, &edesc, &gate), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeCommandListAppendBarrier(fw.list, nullptr, 1, &gate), ZE_RESULT_SUCCESS);

    auto *data = static_cast<int *>(mgpuMemAlloc(16 * sizeof(int), s, true));
    ASSERT_TRUE(fw.owns(data));
    std::memset(data, 0, 16 * sizeof(int));
    mgpuMemset32(data, 41, 16, s);
    void *done = mgpuEventCreate();
    mgpuEventRecord(done, s);
    EXPECT_EQ(zeEventQueryStatus(static_cast<ze_event_handle_t>(done)), ZE_RESULT_NOT_READY);
    EXPECT_EQ(data[15], 0) << "the fill ran before the framework's list reached it";
    ASSERT_EQ(zeEventHostSignal(gate), ZE_RESULT_SUCCESS);
    mgpuEventSynchronize(done);
    EXPECT_EQ(data[15], 41);
    mgpuEventDestroy(done);
    mgpuMemFree(data, s);
    mgpuStreamDestroy(s); // the framework's list and stream stay
    EXPECT_EQ(imex_l0_mlir_runtime_unbind(), imex_l0_success);
    EXPECT_EQ(zeEventDestroy(gate), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
}

TEST_F(MgpuRuntime, EventsJoinTwoStreams) {
    void *a = mgpuStreamCreate();
    void *b = mgpuStreamCreate();
    auto *data = static_cast<int *>(mgpuMemAlloc(32 * sizeof(int), nullptr, true));
    mgpuMemset32(data, 5, 32, a);
    void *filled = mgpuEventCreate();
    mgpuEventRecord(filled, a);
    mgpuStreamWaitEvent(b, filled); // b's copy starts after a's fill
    auto *copy = static_cast<int *>(mgpuMemAlloc(32 * sizeof(int), nullptr, true));
    mgpuMemcpy(copy, data, 32 * sizeof(int), b);
    mgpuStreamSynchronize(b);
    for (int i = 0; i < 32; ++i)
        ASSERT_EQ(copy[i], 5) << i;
    // An event recorded again is re-armed.
    mgpuMemset32(data, 6, 32, a);
    mgpuEventRecord(filled, a);
    mgpuEventSynchronize(filled);
    EXPECT_EQ(data[31], 6);
    mgpuEventDestroy(filled);
    mgpuMemFree(data, a);
    mgpuMemFree(copy, b);
    mgpuStreamDestroy(a);
    mgpuStreamDestroy(b);
}

TEST_F(MgpuRuntime, LaunchesDoNotGrowTheEventPool) {
    void *s = mgpuStreamCreate();
    auto *in = static_cast<int *>(mgpuMemAlloc(8 * sizeof(int), s, true));
    auto *out = static_cast<int *>(mgpuMemAlloc(8 * sizeof(int), s, true));
    std::memset(in, 0, 8 * sizeof(int));
    void *fn = mgpuModuleGetFunction(module, "scaled_add");
    int a = 1;
    long long b = 0;
    void *params[] = {&out, &in, &a, &b};
    // Launch events are recycled at every synchronisation: after a warm-up
    // round, more rounds take no new event.
    std::vector<void *> seen;
    for (int round = 0; round < 20; ++round) {
        for (int i = 0; i < 200; ++i)
            mgpuLaunchKernel(fn, 1, 1, 1, 8, 1, 1, 0, s, params, nullptr, 4);
        void *e = mgpuEventCreate();
        mgpuEventRecord(e, s);
        mgpuStreamSynchronize(s);
        mgpuEventSynchronize(e);
        seen.push_back(e);
        mgpuEventDestroy(e);
    }
    ASSERT_TRUE(errors.messages.empty()) << lastError();
    // The event handed out after each round is the same pool slot: nothing grew.
    EXPECT_EQ(seen.front(), seen.back());
    mgpuMemFree(in, s);
    mgpuMemFree(out, s);
    mgpuStreamDestroy(s);
}

TEST_F(MgpuRuntime, SameBytesAreOneModule) {
    std::vector<char> copy = spirv;
    void *again = mgpuModuleLoad(copy.data(), copy.size());
    EXPECT_EQ(again, module);
    EXPECT_EQ(mgpuModuleGetFunction(again, "scaled_add"), mgpuModuleGetFunction(module, "scaled_add"));
    mgpuModuleUnload(again); // one load of two: the module stays
    void *s = mgpuStreamCreate();
    scaledAdd(s);
    mgpuStreamDestroy(s);
}

// ---- Errors lowered code cannot check reach the handler, named.

TEST_F(MgpuRuntime, ParamsCountThatDisagreesWithTheKernel) {
    void *s = mgpuStreamCreate();
    void *fn = mgpuModuleGetFunction(module, "scaled_add");
    void *p = nullptr;
    void *params[] = {&p, &p, &p};
    mgpuLaunchKernel(fn, 1, 1, 1, 1, 1, 1, 0, s, params, nullptr, 3);
    expectError("mgpuLaunchKernel", "takes 4 argument(s) but paramsCount is 3");
    mgpuStreamDestroy(s);
}

TEST_F(MgpuRuntime, UnknownKernelAndBadModule) {
    EXPECT_EQ(mgpuModuleGetFunction(module, "nope"), nullptr);
    expectError("mgpuModuleGetFunction", "no kernel named 'nope' in the module; its kernels are:");
    const char garbage[] = "not SPIR-V at all, but long enough to look like something.";
    EXPECT_EQ(mgpuModuleLoad(garbage, sizeof garbage), nullptr);
    expectError("mgpuModuleLoad", "not a usable SPIR-V module");
}

TEST_F(MgpuRuntime, ForeignPointersAndEvents) {
    void *s = mgpuStreamCreate();
    uint64_t local[4] = {}; // readable: the tag check reads the first 8 bytes
    mgpuMemFree(local, s);
    expectError("mgpuMemFree", "not USM of this stream's context");
    mgpuEventDestroy(local);
    expectError("mgpuEventDestroy", "not made by mgpuEventCreate");
    mgpuStreamSynchronize(local);
    expectError("mgpuStreamSynchronize", "stream is not a live object");
    mgpuStreamDestroy(s);
}

TEST_F(MgpuRuntime, DefaultHandlerAborts) {
    gpuSetErrorHandler(nullptr, nullptr);
    EXPECT_DEATH(mgpuStreamSynchronize(nullptr), "mgpuStreamSynchronize: stream is NULL");
    gpuSetErrorHandler(Recorder::handle, &errors);
}

} // namespace
