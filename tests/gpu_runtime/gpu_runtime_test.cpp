// The gpu* wrappers through the loader, the project's driver and the
// validation layer: results checked against the host, errors through a
// recording handler.
#include "gpu_test_support.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

using gputest::readFile;
using gputest::Recorder;
using gputest::UserContext;

class GpuRuntime : public ::testing::Test {
protected:
    void SetUp() override {
        gpuSetErrorHandler(Recorder::handle, &errors);
        spirv = readFile(GPU_KERNELS_SPV);
        ASSERT_FALSE(spirv.empty());
        stream = gpuCreateStream(nullptr, nullptr);
        ASSERT_NE(stream, nullptr) << lastError();
        module = gpuModuleLoad(stream, spirv.data(), spirv.size());
        ASSERT_NE(module, nullptr) << lastError();
    }
    void TearDown() override {
        gpuStreamDestroy(stream);
        EXPECT_TRUE(errors.messages.empty()) << lastError();
        gpuSetErrorHandler(nullptr, nullptr);
    }
    std::string lastError() const {
        return errors.messages.empty() ? "" : errors.messages.back();
    }
    template <typename T> T *shared(size_t n) {
        return static_cast<T *>(gpuMemAlloc(stream, n * sizeof(T), alignof(T), true));
    }

    Recorder errors;
    std::vector<char> spirv;
    void *stream = nullptr;
    void *module = nullptr;
};

TEST_F(GpuRuntime, AddComputesOnTheDevice) {
    constexpr size_t n = 1000;
    float *a = shared<float>(n), *b = shared<float>(n), *c = shared<float>(n);
    ASSERT_TRUE(a && b && c);
    for (size_t i = 0; i < n; ++i) {
        a[i] = float(i);
        b[i] = 0.5f * float(i);
    }
    void *kernel = gpuKernelGet(stream, module, "add");
    ASSERT_NE(kernel, nullptr) << lastError();
    ParamDesc params[] = {{&a, sizeof(a)}, {&b, sizeof(b)}, {&c, sizeof(c)}, {nullptr, 0}};
    ze_event_handle_t done = gpuLaunchKernel(stream, kernel, 10, 1, 1, 100, 1, 1, 0, params, nullptr);
    EXPECT_NE(done, nullptr);
    gpuWait(stream);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(c[i], 1.5f * float(i)) << i;
    gpuMemFree(stream, a);
    gpuMemFree(stream, b);
    gpuMemFree(stream, c);
}

TEST_F(GpuRuntime, DeviceMemoryAndCopies) {
    constexpr size_t n = 257;
    std::vector<int> host(n), back(n, 0);
    for (size_t i = 0; i < n; ++i)
        host[i] = int(i * 3);
    int *device = static_cast<int *>(gpuMemAlloc(stream, n * sizeof(int), 256, false));
    ASSERT_NE(device, nullptr) << lastError();
    EXPECT_EQ(reinterpret_cast<uintptr_t>(device) % 256, 0u);
    gpuMemCopy(stream, device, host.data(), n * sizeof(int));
    void *kernel = gpuKernelGet(stream, module, "increment");
    ParamDesc params[] = {{&device, sizeof(device)}, {nullptr, 0}};
    gpuLaunchKernel(stream, kernel, n, 1, 1, 1, 1, 1, 0, params, nullptr);
    gpuMemCopy(stream, back.data(), device, n * sizeof(int));
    gpuWait(stream);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(back[i], int(i * 3 + 1)) << i;
    gpuMemFree(stream, device);
}

TEST_F(GpuRuntime, SharedMemoryIsTheLastParam) {
    constexpr size_t groups = 8, group = 64, n = groups * group;
    int *in = shared<int>(n), *out = shared<int>(groups);
    for (size_t i = 0; i < n; ++i)
        in[i] = int(i % 7);
    void *kernel = gpuKernelGet(stream, module, "group_sum");
    // The shared-memory slot's ParamDesc only holds the place of the argument.
    ParamDesc params[] = {{&in, sizeof(in)}, {&out, sizeof(out)}, {nullptr, 1}, {nullptr, 0}};
    // Lowered code passes sharedMemBytes as a 32-bit integer: garbage in the
    // upper half of its 64-bit slot must be ignored.
    size_t sharedBytes = (size_t(0xdeadbeef) << 32) | (group * sizeof(int));
    gpuLaunchKernel(stream, kernel, groups, 1, 1, group, 1, 1, sharedBytes, params, nullptr);
    gpuWait(stream);
    for (size_t g = 0; g < groups; ++g) {
        int expected = 0;
        for (size_t i = g * group; i < (g + 1) * group; ++i)
            expected += int(i % 7);
        ASSERT_EQ(out[g], expected) << g;
    }
}

TEST_F(GpuRuntime, EventChainsAcrossTwoStreamsOfOneContext) {
    // A second stream on the same device and context as a user-owned one.
    void *first = gpuCreateStream(nullptr, nullptr);
    ASSERT_NE(first, nullptr);
    int *data = static_cast<int *>(gpuMemAlloc(first, 64 * sizeof(int), 64, true));
    for (int i = 0; i < 64; ++i)
        data[i] = i;
    void *m = gpuModuleLoad(first, spirv.data(), spirv.size());
    EXPECT_EQ(m, module) << "temporary streams share the default engine and its modules";
    void *kernel = gpuKernelGet(first, m, "increment");
    ParamDesc params[] = {{&data, sizeof(data)}, {nullptr, 0}};
    ze_event_handle_t e1 = gpuLaunchKernel(first, kernel, 64, 1, 1, 1, 1, 1, 0, params, nullptr);
    EventDesc deps1[] = {{e1}, {nullptr}};
    ze_event_handle_t e2 = gpuLaunchKernel(stream, kernel, 64, 1, 1, 1, 1, 1, 0, params, deps1);
    EventDesc deps2[] = {{e2}, {nullptr}};
    gpuLaunchKernel(first, kernel, 64, 1, 1, 1, 1, 1, 0, params, deps2);
    gpuWait(first);
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(data[i], i + 3) << i;
    gpuWait(stream);
    gpuMemFree(first, data);
    gpuStreamDestroy(first);
}

// Spins of slow_store that take about 0.1 s on a CPU device: work queued on
// another stream without a dependency would run first.
constexpr int kSlowSpins = 1000000;

// A token of a copy (no event of its own) crosses streams as a recorded
// event: the second stream's copy must read what the first stream's slow
// kernel and copy produced, not the stale value.
TEST_F(GpuRuntime, RecordedEventOrdersWorkOnAnotherStream) {
    void *first = gpuCreateStream(nullptr, nullptr);
    ASSERT_NE(first, nullptr);
    int *produced = shared<int>(8), *middle = shared<int>(8), *out = shared<int>(8);
    for (int i = 0; i < 8; ++i)
        produced[i] = middle[i] = out[i] = -1;
    void *slow = gpuKernelGet(first, module, "slow_store");
    int value = 1, spins = kSlowSpins;
    ParamDesc params[] = {{&produced, sizeof(produced)}, {&value, sizeof value},
                          {&spins, sizeof spins}, {nullptr, 0}};
    gpuLaunchKernel(first, slow, 8, 1, 1, 1, 1, 1, 0, params, nullptr);
    gpuMemCopy(first, middle, produced, 8 * sizeof(int));
    ze_event_handle_t copied = gpuRecordEvent(first);
    ASSERT_NE(copied, nullptr) << lastError();
    EventDesc deps[] = {{copied}, {nullptr}};
    gpuWaitEvents(stream, deps);
    gpuMemCopy(stream, out, middle, 8 * sizeof(int));
    gpuWait(stream);
    for (int i = 0; i < 8; ++i)
        ASSERT_EQ(out[i], 1) << "element " << i << ": the copy did not wait for the other stream";
    gpuWait(first);
    for (int *p : {produced, middle, out})
        gpuMemFree(stream, p);
    gpuStreamDestroy(first);
}

// A host wait on one stream that depends on another (gpux.wait [%t] %s):
// gpuWaitEvents then gpuWait returns only after the other stream's work.
TEST_F(GpuRuntime, WaitEventsThenWaitCoversAnotherStream) {
    void *first = gpuCreateStream(nullptr, nullptr);
    ASSERT_NE(first, nullptr);
    int *data = shared<int>(4);
    for (int i = 0; i < 4; ++i)
        data[i] = -1;
    int value = 7, spins = kSlowSpins;
    ParamDesc params[] = {{&data, sizeof(data)}, {&value, sizeof value},
                          {&spins, sizeof spins}, {nullptr, 0}};
    ze_event_handle_t done = gpuLaunchKernel(first, gpuKernelGet(first, module, "slow_store"), 4,
                                             1, 1, 1, 1, 1, 0, params, nullptr);
    EventDesc deps[] = {{done}, {nullptr}};
    gpuWaitEvents(stream, deps);
    gpuWait(stream);
    for (int i = 0; i < 4; ++i)
        ASSERT_EQ(data[i], 7) << i;
    gpuWaitEvents(stream, nullptr); // nothing to wait for
    EventDesc none[] = {{nullptr}};
    gpuWaitEvents(stream, none);
    gpuWait(first);
    gpuMemFree(stream, data);
    gpuStreamDestroy(first);
}

// An event recycled by its stream's wait stands for completed work: a
// dependency on it made afterwards is met (it used to be reset, and the
// dependent launch waited forever).
TEST_F(GpuRuntime, DependencyOnARecycledEventIsMet) {
    void *first = gpuCreateStream(nullptr, nullptr);
    ASSERT_NE(first, nullptr);
    int *data = shared<int>(1);
    *data = 0;
    void *k = gpuKernelGet(first, module, "increment");
    ParamDesc params[] = {{&data, sizeof(data)}, {nullptr, 0}};
    ze_event_handle_t early = gpuLaunchKernel(first, k, 1, 1, 1, 1, 1, 1, 0, params, nullptr);
    gpuWait(first); // recycles `early`
    EventDesc deps[] = {{early}, {nullptr}};
    ze_event_handle_t late = gpuLaunchKernel(stream, k, 1, 1, 1, 1, 1, 1, 0, params, deps);
    ASSERT_NE(late, nullptr) << lastError();
    ASSERT_EQ(zeEventHostSynchronize(late, 10'000'000'000ull), ZE_RESULT_SUCCESS)
        << "the launch still waits for an event of completed work after 10 s";
    EXPECT_EQ(*data, 2);
    gpuWait(stream);
    gpuMemFree(stream, data);
    gpuStreamDestroy(first);
}

TEST_F(GpuRuntime, ModulesAreCachedByContent) {
    std::vector<char> copy = spirv; // the same bytes at another address
    EXPECT_EQ(gpuModuleLoad(stream, copy.data(), copy.size()), module);
    // Other bytes at a reused address are another module.
    std::vector<char> other = readFile(OTHER_SPV);
    copy = other;
    void *otherModule = gpuModuleLoad(stream, copy.data(), copy.size());
    ASSERT_NE(otherModule, nullptr);
    EXPECT_NE(otherModule, module);
    EXPECT_NE(gpuKernelGet(stream, otherModule, "twice"), nullptr);
    // Kernels are cached per (module, name).
    EXPECT_EQ(gpuKernelGet(stream, module, "add"), gpuKernelGet(stream, module, "add"));
    EXPECT_NE(gpuKernelGet(stream, module, "add"), gpuKernelGet(stream, module, "increment"));
}

TEST_F(GpuRuntime, EventsAreRecycledByWait) {
    int *data = shared<int>(1);
    *data = 0;
    void *kernel = gpuKernelGet(stream, module, "increment");
    ParamDesc params[] = {{&data, sizeof(data)}, {nullptr, 0}};
    std::set<ze_event_handle_t> seen;
    constexpr int rounds = 100, perRound = 1000;
    for (int r = 0; r < rounds; ++r) {
        for (int i = 0; i < perRound; ++i)
            seen.insert(gpuLaunchKernel(stream, kernel, 1, 1, 1, 1, 1, 1, 0, params, nullptr));
        gpuWait(stream);
    }
    EXPECT_EQ(*data, rounds * perRound);
    // 100k launches reuse the events of one round: nothing grows per launch.
    EXPECT_LE(seen.size(), size_t(perRound) + 64);
}

TEST_F(GpuRuntime, UserStreamObjectsOutliveTheWrapper) {
    UserContext user;
    ze_device_handle_t device = user.device;
    ze_context_handle_t context = user.context;
    ze_command_list_handle_t list = user.immediateList();
    ASSERT_NE(list, nullptr);

    imex_gpu_l0_stream_t wrapped = {list, device, context};
    void *userStream = gpuCreateStreamFromUser(&wrapped);
    ASSERT_NE(userStream, nullptr) << lastError();
    void *onContext = gpuCreateStream(device, context);
    ASSERT_NE(onContext, nullptr) << lastError();
    int *data = static_cast<int *>(gpuMemAlloc(userStream, 16 * sizeof(int), 0, true));
    std::memset(data, 0, 16 * sizeof(int));
    void *m = gpuModuleLoad(userStream, spirv.data(), spirv.size());
    EXPECT_EQ(gpuModuleLoad(onContext, spirv.data(), spirv.size()), m)
        << "streams on one device and context share modules";
    ParamDesc params[] = {{&data, sizeof(data)}, {nullptr, 0}};
    gpuLaunchKernel(userStream, gpuKernelGet(userStream, m, "increment"), 16, 1, 1, 1, 1, 1, 0,
                    params, nullptr);
    gpuWait(userStream);
    gpuLaunchKernel(onContext, gpuKernelGet(onContext, m, "increment"), 16, 1, 1, 1, 1, 1, 0,
                    params, nullptr);
    gpuWait(onContext);
    for (int i = 0; i < 16; ++i)
        ASSERT_EQ(data[i], 2);
    gpuStreamDestroy(userStream);
    gpuStreamDestroy(onContext);

    // The user's list and context still work, and are still the user's to destroy.
    int pattern = 7;
    ASSERT_EQ(zeCommandListAppendMemoryFill(list, data, &pattern, sizeof(pattern), 16 * sizeof(int),
                                            nullptr, 0, nullptr),
              ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeCommandListAppendBarrier(list, nullptr, 0, nullptr), ZE_RESULT_SUCCESS);
    ze_event_pool_desc_t pdesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                  ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_event_pool_handle_t pool;
    ASSERT_EQ(zeEventPoolCreate(context, &pdesc, 1, &device, &pool), ZE_RESULT_SUCCESS);
    ze_event_desc_t edesc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                             ZE_EVENT_SCOPE_FLAG_HOST};
    ze_event_handle_t done;
    ASSERT_EQ(zeEventCreate(pool, &edesc, &done), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeCommandListAppendBarrier(list, done, 0, nullptr), ZE_RESULT_SUCCESS);
    ASSERT_EQ(zeEventHostSynchronize(done, UINT64_MAX), ZE_RESULT_SUCCESS);
    EXPECT_EQ(data[15], 7);
    EXPECT_EQ(zeMemFree(context, data), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventDestroy(done), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventPoolDestroy(pool), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
}

TEST_F(GpuRuntime, ConcurrentStreamsOnTwoThreads) {
    auto work = [this](int *data) {
        void *s = gpuCreateStream(nullptr, nullptr);
        void *k = gpuKernelGet(s, gpuModuleLoad(s, spirv.data(), spirv.size()), "increment");
        ParamDesc params[] = {{&data, sizeof(data)}, {nullptr, 0}};
        for (int i = 0; i < 200; ++i)
            gpuLaunchKernel(s, k, 4, 1, 1, 8, 1, 1, 0, params, nullptr); // 4 groups of 8
        gpuWait(s);
        gpuStreamDestroy(s);
    };
    int *a = shared<int>(32), *b = shared<int>(32);
    std::memset(a, 0, 32 * sizeof(int));
    std::memset(b, 0, 32 * sizeof(int));
    std::thread t1(work, a), t2(work, b);
    t1.join();
    t2.join();
    for (int i = 0; i < 32; ++i) {
        ASSERT_EQ(a[i], 200);
        ASSERT_EQ(b[i], 200);
    }
}

// ---- The call orders lowered code produces.

// gpu.dealloc after an asynchronous gpu.memcpy lowers to frees queued right
// behind the work that still uses the memory, and a wait after them.
TEST_F(GpuRuntime, FreeRightAfterQueuedWorkWaitsForIt) {
    constexpr size_t n = size_t(1) << 20;
    std::vector<float> ha(n), hb(n), hc(n);
    for (size_t i = 0; i < n; ++i) {
        ha[i] = float(i % 1000);
        hb[i] = 0.25f * float(i % 997);
    }
    void *kernel = gpuKernelGet(stream, module, "add");
    for (int round = 0; round < 20; ++round) {
        auto *a = static_cast<float *>(gpuMemAlloc(stream, n * sizeof(float), 64, false));
        auto *b = static_cast<float *>(gpuMemAlloc(stream, n * sizeof(float), 64, false));
        auto *c = static_cast<float *>(gpuMemAlloc(stream, n * sizeof(float), 64, false));
        ASSERT_TRUE(a && b && c) << lastError();
        std::fill(hc.begin(), hc.end(), -1.0f);
        gpuMemCopy(stream, a, ha.data(), n * sizeof(float));
        gpuMemCopy(stream, b, hb.data(), n * sizeof(float));
        ParamDesc params[] = {{&a, sizeof(a)}, {&b, sizeof(b)}, {&c, sizeof(c)}, {nullptr, 0}};
        gpuLaunchKernel(stream, kernel, n / 256, 1, 1, 256, 1, 1, 0, params, nullptr);
        gpuMemCopy(stream, hc.data(), c, n * sizeof(float));
        gpuMemFree(stream, a);
        gpuMemFree(stream, b);
        gpuMemFree(stream, c);
        gpuWait(stream);
        for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(hc[i], ha[i] + hb[i]) << "round " << round << ", element " << i;
    }
}

TEST_F(GpuRuntime, DeferredFreesHappenWithoutAWait) {
    // A user context, so the allocations can be looked up after the stream is gone.
    UserContext user;
    // An allocation is told by its id, not its address: a freed address is
    // soon handed out again.
    auto idOf = [&](const void *p) {
        ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        return zeMemGetAllocProperties(user.context, p, &props, nullptr) == ZE_RESULT_SUCCESS &&
                       props.type != ZE_MEMORY_TYPE_UNKNOWN
                   ? props.id
                   : 0;
    };
    using Allocated = std::pair<int *, uint64_t>;
    auto isAllocated = [&](const Allocated &a) { return idOf(a.first) == a.second; };

    void *s = gpuCreateStream(user.device, user.context);
    ASSERT_NE(s, nullptr) << lastError();
    void *k = gpuKernelGet(s, gpuModuleLoad(s, spirv.data(), spirv.size()), "increment");
    // Frees that pile up without a wait are released once their work is
    // seen done: a loop that never waits does not keep every buffer.
    std::vector<Allocated> freed;
    ze_event_handle_t last = nullptr;
    for (int i = 0; i < 100; ++i) {
        int *p = static_cast<int *>(gpuMemAlloc(s, 64 * sizeof(int), 0, true));
        ASSERT_NE(p, nullptr) << lastError();
        std::memset(p, 0, 64 * sizeof(int));
        ParamDesc params[] = {{&p, sizeof(p)}, {nullptr, 0}};
        last = gpuLaunchKernel(s, k, 64, 1, 1, 1, 1, 1, 0, params, nullptr);
        freed.emplace_back(p, idOf(p));
        ASSERT_NE(freed.back().second, 0u);
        gpuMemFree(s, p);
        // The pending free of p is refused a second time.
        gpuMemFree(s, p);
        ASSERT_EQ(errors.messages.size(), 1u);
        EXPECT_NE(errors.messages.back().find("freed already"), std::string::npos)
            << errors.messages.back();
        errors.messages.clear();
    }
    ASSERT_EQ(zeEventHostSynchronize(last, UINT64_MAX), ZE_RESULT_SUCCESS);
    // The pile is checked when the next fence is recorded, every 32 frees
    // (deferred_frees.hpp): by then every earlier fence has signaled.
    std::vector<Allocated> extras;
    for (int i = 0; i < 32; ++i) {
        int *extra = static_cast<int *>(gpuMemAlloc(s, 64, 0, true));
        ParamDesc params[] = {{&extra, sizeof(extra)}, {nullptr, 0}};
        gpuLaunchKernel(s, k, 1, 1, 1, 1, 1, 1, 0, params, nullptr);
        extras.emplace_back(extra, idOf(extra));
        gpuMemFree(s, extra);
    }
    EXPECT_FALSE(isAllocated(freed.front())) << "frees behind finished work were not released";
    // Destroying the stream completes the rest.
    gpuStreamDestroy(s);
    for (const Allocated &a : freed)
        EXPECT_FALSE(isAllocated(a));
    for (const Allocated &a : extras)
        EXPECT_FALSE(isAllocated(a));
}

TEST_F(GpuRuntime, RepeatedWaitsAndLoadsAreCheap) {
    // Lowered code: load + get + launch + wait at every launch.
    int *data = shared<int>(8);
    std::memset(data, 0, 8 * sizeof(int));
    ParamDesc params[] = {{&data, sizeof(data)}, {nullptr, 0}};
    for (int i = 0; i < 50; ++i) {
        void *m = gpuModuleLoad(stream, spirv.data(), spirv.size());
        ASSERT_EQ(m, module);
        gpuLaunchKernel(stream, gpuKernelGet(stream, m, "increment"), 8, 1, 1, 1, 1, 1, 0, params,
                        nullptr);
        gpuWait(stream);
        gpuWait(stream); // nothing queued since the last wait
        ASSERT_EQ(data[0], i + 1);
    }
    gpuModuleUnload(module);
    EXPECT_EQ(gpuModuleLoad(stream, spirv.data(), spirv.size()), module)
        << "an unloaded module stays cached for the next load";
}

// On the library's own list a wait whose last command is a launch waits on
// that launch's event: it must cover everything queued before it too.
TEST_F(GpuRuntime, WaitAfterALaunchCoversEverythingBefore) {
    void *k = gpuKernelGet(stream, module, "increment");
    int *data = shared<int>(64);
    std::vector<int> initial(64);
    for (int round = 0; round < 5; ++round) {
        for (int i = 0; i < 64; ++i)
            initial[i] = 1000 * round + i;
        gpuMemCopy(stream, data, initial.data(), 64 * sizeof(int));
        ParamDesc params[] = {{&data, sizeof(data)}, {nullptr, 0}};
        for (int n = 0; n < 20; ++n)
            gpuLaunchKernel(stream, k, 64, 1, 1, 1, 1, 1, 0, params, nullptr);
        gpuWait(stream);
        for (int i = 0; i < 64; ++i)
            ASSERT_EQ(data[i], initial[i] + 20) << "round " << round << ", element " << i;
    }
}

TEST_F(GpuRuntime, ChangedBytesAtAReusedAddressAreAnotherModule) {
    std::vector<char> blob = spirv;
    void *first = gpuModuleLoad(stream, blob.data(), blob.size());
    ASSERT_EQ(first, module);
    // Same address, same size, another valid module: a larger ID bound
    // (SPIR-V header word 3).
    uint32_t bound;
    std::memcpy(&bound, blob.data() + 12, sizeof bound);
    bound += 1;
    std::memcpy(blob.data() + 12, &bound, sizeof bound);
    void *second = gpuModuleLoad(stream, blob.data(), blob.size());
    ASSERT_NE(second, nullptr) << lastError();
    EXPECT_NE(second, first);
    // And back: the original bytes at that address are the first module again.
    std::memcpy(blob.data(), spirv.data(), spirv.size());
    EXPECT_EQ(gpuModuleLoad(stream, blob.data(), blob.size()), first);
}

// gpuCreateStream's forms: ours (device and context handles) and IMEX's
// (a pointer to a ze_device_type_t, a context, either or neither).
TEST_F(GpuRuntime, CreateStreamAcceptsImexForms) {
    UserContext user;
    ze_device_handle_t device = user.device;
    ze_context_handle_t context = user.context;
    ze_device_properties_t props = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ASSERT_EQ(zeDeviceGetProperties(device, &props), ZE_RESULT_SUCCESS);
    ze_device_type_t type = props.type;

    auto runs = [&](void *s) {
        ASSERT_NE(s, nullptr) << lastError();
        int *data = static_cast<int *>(gpuMemAlloc(s, 4 * sizeof(int), 0, true));
        ASSERT_NE(data, nullptr) << lastError();
        std::memset(data, 0, 4 * sizeof(int));
        void *k = gpuKernelGet(s, gpuModuleLoad(s, spirv.data(), spirv.size()), "increment");
        ParamDesc params[] = {{&data, sizeof(data)}, {nullptr, 0}};
        gpuLaunchKernel(s, k, 4, 1, 1, 1, 1, 1, 0, params, nullptr);
        gpuWait(s);
        EXPECT_EQ(data[3], 1);
        gpuMemFree(s, data);
        gpuStreamDestroy(s);
    };
    runs(gpuCreateStream(device, nullptr)); // a device handle, a library context
    runs(gpuCreateStream(&type, nullptr));  // IMEX: a type filter, a library context
    runs(gpuCreateStream(&type, context));  // IMEX: a type filter in the caller's context
    runs(gpuCreateStream(nullptr, context)); // IMEX: the caller's context only
    EXPECT_TRUE(errors.messages.empty()) << lastError();

    uint32_t bogus = 99;
    EXPECT_EQ(gpuCreateStream(&bogus, nullptr), nullptr);
    ASSERT_EQ(errors.messages.size(), 1u);
    EXPECT_NE(errors.messages[0].find("neither a device handle"), std::string::npos)
        << errors.messages[0];
    errors.messages.clear();
    ze_device_type_t absent = type == ZE_DEVICE_TYPE_FPGA ? ZE_DEVICE_TYPE_VPU : ZE_DEVICE_TYPE_FPGA;
    EXPECT_EQ(gpuCreateStream(&absent, nullptr), nullptr);
    ASSERT_EQ(errors.messages.size(), 1u);
    EXPECT_NE(errors.messages[0].find("no Level Zero device of type"), std::string::npos)
        << errors.messages[0];
    errors.messages.clear();
}

// ---- Errors reach the handler with the function's name and the cause.

class GpuRuntimeErrors : public GpuRuntime {
protected:
    void TearDown() override {
        gpuStreamDestroy(stream);
        gpuSetErrorHandler(nullptr, nullptr);
    }
    void expectError(const std::string &function, const std::string &cause) {
        ASSERT_FALSE(errors.messages.empty()) << "no error reported";
        const std::string &m = errors.messages.back();
        EXPECT_NE(m.find(function), std::string::npos) << m;
        EXPECT_NE(m.find(cause), std::string::npos) << m;
        errors.messages.clear();
    }
};

TEST_F(GpuRuntimeErrors, NullStream) {
    EXPECT_EQ(gpuMemAlloc(nullptr, 16, 0, true), nullptr);
    expectError("gpuMemAlloc", "stream is NULL");
    gpuWait(nullptr);
    expectError("gpuWait", "stream is NULL");
    EXPECT_EQ(gpuLaunchKernel(nullptr, nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr), nullptr);
    expectError("gpuLaunchKernel", "stream is NULL");
}

TEST_F(GpuRuntimeErrors, UnknownKernelName) {
    EXPECT_EQ(gpuKernelGet(stream, module, "no_such_kernel"), nullptr);
    expectError("gpuKernelGet", "no_such_kernel");
}

TEST_F(GpuRuntimeErrors, InvalidSpirv) {
    const char garbage[] = "this is not SPIR-V, only text of some length....";
    EXPECT_EQ(gpuModuleLoad(stream, garbage, sizeof(garbage) - 1), nullptr);
    expectError("gpuModuleLoad", "SPIR-V");
    std::vector<char> truncated(spirv.begin(), spirv.begin() + spirv.size() / 2);
    truncated.resize(truncated.size() / 4 * 4);
    EXPECT_EQ(gpuModuleLoad(stream, truncated.data(), truncated.size()), nullptr);
    expectError("gpuModuleLoad", "");
}

TEST_F(GpuRuntimeErrors, FreeOfAForeignPointer) {
    std::vector<int> host(4);
    gpuMemFree(stream, host.data());
    expectError("gpuMemFree", "not USM of this stream's context");
}

// Memory the caller allocated itself, in the stream's own context, is not
// the wrappers' to free: refused, and still the caller's afterwards.
TEST_F(GpuRuntimeErrors, FreeOfTheCallersOwnAllocation) {
    UserContext user;
    imex_gpu_l0_stream_t objects = {user.immediateList(), user.device, user.context};
    void *userStream = gpuCreateStreamFromUser(&objects);
    ASSERT_NE(userStream, nullptr);
    ze_device_mem_alloc_desc_t d = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t h = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *own = nullptr;
    ASSERT_EQ(zeMemAllocShared(user.context, &d, &h, 256, 64, user.device, &own),
              ZE_RESULT_SUCCESS);
    gpuMemFree(userStream, own);
    expectError("gpuMemFree", "not allocated by gpuMemAlloc");
    EXPECT_TRUE(user.owns(own)) << "the caller's allocation was freed";
    // What the wrappers allocated they free, once.
    void *mine = gpuMemAlloc(userStream, 256, 0, true);
    ASSERT_NE(mine, nullptr);
    gpuMemFree(userStream, mine);
    EXPECT_TRUE(errors.messages.empty()) << errors.messages.back();
    EXPECT_FALSE(user.owns(mine));
    gpuMemFree(userStream, mine);
    expectError("gpuMemFree", "");
    gpuStreamDestroy(userStream);
    EXPECT_EQ(zeMemFree(user.context, own), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeCommandListDestroy(objects.list), ZE_RESULT_SUCCESS);
}

TEST_F(GpuRuntimeErrors, UnloadOfSomethingElse) {
    uint64_t notAModule[4] = {}; // readable: the tag check reads the first 8 bytes
    gpuModuleUnload(notAModule);
    expectError("gpuModuleUnload", "module is not a live object");
    gpuModuleUnload(nullptr);
    expectError("gpuModuleUnload", "module is NULL");
}

TEST_F(GpuRuntimeErrors, WrongParamCount) {
    void *kernel = gpuKernelGet(stream, module, "add");
    int *p = shared<int>(1);
    ParamDesc params[] = {{&p, sizeof(p)}, {nullptr, 0}};
    EXPECT_EQ(gpuLaunchKernel(stream, kernel, 1, 1, 1, 1, 1, 1, 0, params, nullptr), nullptr);
    expectError("gpuLaunchKernel", "takes 3 argument(s)");
    gpuMemFree(stream, p);
}

TEST_F(GpuRuntimeErrors, DefaultHandlerAborts) {
    gpuSetErrorHandler(nullptr, nullptr);
    EXPECT_DEATH(gpuWait(nullptr), "gpuWait: stream is NULL");
}

} // namespace
