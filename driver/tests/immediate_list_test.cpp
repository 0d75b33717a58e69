// Immediate command lists: synchronous and asynchronous modes, in-order
// execution, argument capture, and concurrent use from several threads.
#include "ze_test_common.hpp"

#include <thread>

namespace zetest {
namespace {

constexpr size_t kN = 1000;

class ImmediateListTest : public WithImmediateList {
  protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(WithImmediateList::SetUp());
        ASSERT_NO_FATAL_FAILURE(loadModule(module_, "basic"));
    }
    void TearDown() override {
        module_.reset();
        WithImmediateList::TearDown();
    }
    Module module_;
};

TEST_F(ImmediateListTest, SynchronousModeCompletesEachAppend) {
    CommandList syncList;
    ASSERT_NO_FATAL_FAILURE(createImmediateList(syncList, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "vector_add", 8));
    UsmBuffer<int> a, b, c, result;
    allocate(a, UsmKind::Shared, kN);
    allocate(b, UsmKind::Host, kN);
    allocate(c, UsmKind::Device, kN);
    allocate(result, UsmKind::Host, kN);
    for (size_t i = 0; i < kN; ++i) {
        a[i] = testValue(i, 3);
        b[i] = testValue(i, 4);
    }
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(a), usm(b), usm(c)}));
    Event launched;
    ASSERT_NO_FATAL_FAILURE(createEvent(launched, 1));
    ASSERT_ZE_SUCCESS(launch(syncList, kernel, {kN / 8, 1, 1}, launched));
    // Synchronous mode: the launch, and so its signal, is complete on return.
    EXPECT_ZE_SUCCESS(zeEventQueryStatus(launched));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(syncList, result.ptr(), c.ptr(), c.bytes(),
                                                    nullptr, 0, nullptr));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(result[i], a[i] + b[i]) << "i=" << i;
}

// An immediate list is in order: launches whose results depend on their
// order (x*m+a does not commute) see each other's writes without events.
TEST_F(ImmediateListTest, AsynchronousModeIsInOrder) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "mul_add_inplace"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    std::vector<int> expected(kN);
    for (size_t i = 0; i < kN; ++i)
        expected[i] = data[i] = testValue(i) / 10;
    const std::pair<int, int> steps[] = {{3, 1}, {-1, 5}, {2, -7}, {1, 100}, {-3, 0}};
    for (auto [mul, add] : steps) {
        ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data), byValue(mul), byValue(add)}));
        ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}));
        for (int &e : expected)
            e = e * mul + add;
    }
    ASSERT_NO_FATAL_FAILURE(sync());
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(data[i], expected[i]) << "i=" << i;
}

// Copies and kernels interleave in order on one immediate list.
TEST_F(ImmediateListTest, CopyKernelCopyChain) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "increment", 10));
    UsmBuffer<int> host, device, back;
    allocate(host, UsmKind::Host, kN);
    allocate(device, UsmKind::Device, kN);
    allocate(back, UsmKind::Host, kN);
    for (size_t i = 0; i < kN; ++i)
        host[i] = testValue(i, 9);
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, device.ptr(), host.ptr(), host.bytes(),
                                                    nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(device)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {kN / 10, 1, 1}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {kN / 10, 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, back.ptr(), device.ptr(), device.bytes(),
                                                    nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(back[i], host[i] + 2) << "i=" << i;
}

// Arguments are captured at append time on an immediate list too: the launch
// is held back by a host event while the arguments change, and must still
// use the values it was appended with.
TEST_F(ImmediateListTest, ArgumentsAreCapturedAtAppendTime) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "scale_add"));
    UsmBuffer<int> in, out, other;
    allocate(in, UsmKind::Shared, kN);
    allocate(out, UsmKind::Shared, kN);
    allocate(other, UsmKind::Shared, kN);
    for (size_t i = 0; i < kN; ++i) {
        in[i] = testValue(i);
        out[i] = other[i] = 0;
    }
    Event gate;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));

    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(out), usm(in), byValue(2), byValue(3)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}, nullptr, {gate}));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(other), usm(in), byValue(-9), byValue(-9)}));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (size_t i = 0; i < kN; ++i) {
        ASSERT_EQ(out[i], in[i] * 2 + 3) << "i=" << i;
        ASSERT_EQ(other[i], 0) << "the launch used arguments set after it was appended, i=" << i;
    }
}

// Many small launches back to back: nothing is lost or reordered.
TEST_F(ImmediateListTest, ManyLaunches) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "increment"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, 64);
    std::fill(data.data(), data.data() + data.size(), 0);
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    constexpr int launches = 500;
    for (int i = 0; i < launches; ++i)
        ASSERT_ZE_SUCCESS(launch(list_, kernel, {64, 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (size_t i = 0; i < data.size(); ++i)
        ASSERT_EQ(data[i], launches) << "i=" << i;
}

// Frameworks create a short-lived immediate list per operation: creating,
// using and destroying lists repeatedly must work and keep no stale state.
TEST_F(ImmediateListTest, CreateUseDestroyRepeatedly) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "increment"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, 16);
    std::fill(data.data(), data.data() + data.size(), 0);
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    for (int round = 0; round < 20; ++round) {
        CommandList list;
        ASSERT_NO_FATAL_FAILURE(createImmediateList(list, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS));
        ASSERT_ZE_SUCCESS(launch(list, kernel, {16, 1, 1}));
        ASSERT_NO_FATAL_FAILURE(syncList(list));
    }
    for (size_t i = 0; i < data.size(); ++i)
        ASSERT_EQ(data[i], 20);
}

// The spec allows different command lists to be used from different threads
// at the same time. Each thread owns an immediate list, a kernel object
// (argument setting is per kernel handle and not thread-safe) and an
// event; the module, context and device are shared.
TEST_F(ImmediateListTest, TwoThreadsEachWithTheirOwnList) {
    constexpr int kThreads = 2;
    constexpr int kLaunches = 300;
    constexpr size_t kLen = 128;
    struct PerThread {
        UsmBuffer<int> data;
        ze_result_t firstError = ZE_RESULT_SUCCESS;
        int failedStep = -1;
    };
    std::vector<PerThread> work(kThreads);
    for (int t = 0; t < kThreads; ++t) {
        allocate(work[t].data, UsmKind::Shared, kLen);
        for (size_t i = 0; i < kLen; ++i)
            work[t].data[i] = static_cast<int>(i) + t;
    }

    auto body = [&](int t) {
        PerThread &w = work[t];
        auto check = [&](ze_result_t r, int step) {
            if (r != ZE_RESULT_SUCCESS && w.firstError == ZE_RESULT_SUCCESS) {
                w.firstError = r;
                w.failedStep = step;
            }
            return r == ZE_RESULT_SUCCESS;
        };
        ze_command_queue_desc_t qdesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
        qdesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
        ze_command_list_handle_t list = nullptr;
        if (!check(zeCommandListCreateImmediate(context_, device_, &qdesc, &list), 0))
            return;
        ze_kernel_desc_t kdesc = {ZE_STRUCTURE_TYPE_KERNEL_DESC};
        kdesc.pKernelName = "mul_add_inplace";
        ze_kernel_handle_t kernel = nullptr;
        ze_event_handle_t done = nullptr;
        ze_event_desc_t edesc = {ZE_STRUCTURE_TYPE_EVENT_DESC};
        edesc.index = static_cast<uint32_t>(1 + t);
        edesc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
        edesc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
        if (check(zeKernelCreate(module_, &kdesc, &kernel), 1) &&
            check(zeKernelSetGroupSize(kernel, 1, 1, 1), 2) &&
            check(zeEventCreate(pool_, &edesc, &done), 3)) {
            void *ptr = w.data.ptr();
            check(zeKernelSetArgumentValue(kernel, 0, sizeof(ptr), &ptr), 4);
            ze_group_count_t groups = {static_cast<uint32_t>(kLen), 1, 1};
            for (int i = 0; i < kLaunches && w.firstError == ZE_RESULT_SUCCESS; ++i) {
                // Per-thread, per-step constants so a launch with another
                // thread's arguments gives a different result.
                const int mul = (i % 3 == 0) ? -1 : 1;
                const int add = t + 1 + i % 5;
                check(zeKernelSetArgumentValue(kernel, 1, sizeof(mul), &mul), 5);
                check(zeKernelSetArgumentValue(kernel, 2, sizeof(add), &add), 6);
                check(zeCommandListAppendLaunchKernel(list, kernel, &groups, nullptr, 0, nullptr),
                      7);
            }
            if (check(zeCommandListAppendBarrier(list, done, 0, nullptr), 8))
                check(zeEventHostSynchronize(done, UINT64_MAX), 9);
        }
        if (done != nullptr)
            check(zeEventDestroy(done), 10);
        if (kernel != nullptr)
            check(zeKernelDestroy(kernel), 11);
        check(zeCommandListDestroy(list), 12);
    };

    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back(body, t);
    for (auto &th : threads)
        th.join();

    for (int t = 0; t < kThreads; ++t) {
        ASSERT_ZE_SUCCESS(work[t].firstError) << "thread " << t << " step " << work[t].failedStep;
        for (size_t i = 0; i < kLen; ++i) {
            int expected = static_cast<int>(i) + t;
            for (int s = 0; s < kLaunches; ++s)
                expected = expected * ((s % 3 == 0) ? -1 : 1) + t + 1 + s % 5;
            ASSERT_EQ(work[t].data[i], expected) << "thread " << t << " i=" << i;
        }
    }
}

// Several threads appending to their own lists, all waiting on one shared
// host event: events are shared across threads.
TEST_F(ImmediateListTest, ThreadsShareAGateEvent) {
    constexpr int kThreads = 3;
    Event gate;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    std::vector<UsmBuffer<int>> data(kThreads);
    std::vector<CommandList> lists(kThreads);
    std::vector<Kernel> kernels(kThreads);
    std::vector<Event> done(kThreads);
    for (int t = 0; t < kThreads; ++t) {
        allocate(data[t], UsmKind::Shared, 32);
        std::fill(data[t].data(), data[t].data() + 32, t);
        ASSERT_NO_FATAL_FAILURE(createImmediateList(lists[t], ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS));
        ASSERT_NO_FATAL_FAILURE(loadKernel(kernels[t], module_, "increment"));
        ASSERT_ZE_SUCCESS(setArgs(kernels[t], {usm(data[t])}));
        ASSERT_NO_FATAL_FAILURE(createEvent(done[t], 2 + t));
    }
    std::vector<ze_result_t> results(kThreads, ZE_RESULT_ERROR_UNKNOWN);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            ze_event_handle_t wait = gate;
            results[t] = launch(lists[t], kernels[t], {32, 1, 1}, done[t], {wait});
        });
    }
    for (auto &th : threads)
        th.join();
    for (int t = 0; t < kThreads; ++t) {
        ASSERT_ZE_SUCCESS(results[t]);
        EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(done[t]));
    }
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    for (int t = 0; t < kThreads; ++t) {
        ASSERT_ZE_SUCCESS(zeEventHostSynchronize(done[t], UINT64_MAX));
        for (int i = 0; i < 32; ++i)
            ASSERT_EQ(data[t][i], t + 1);
    }
}

} // namespace
} // namespace zetest
