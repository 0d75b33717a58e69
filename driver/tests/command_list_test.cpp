// Command queues and regular command lists: recording, replay on execute,
// Close/Reset/re-record, queue synchronisation and argument capture.
#include "ze_test_common.hpp"

#include <numeric>

namespace zetest {
namespace {

constexpr size_t kN = 333; // not a multiple of any plausible group size

class CommandListTest : public WithQueueAndList {
  protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(WithQueueAndList::SetUp());
        ASSERT_NO_FATAL_FAILURE(loadModule(module_, "basic"));
    }
    void TearDown() override {
        module_.reset();
        WithQueueAndList::TearDown();
    }
    Module module_;
};

TEST_F(CommandListTest, VectorAdd) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "vector_add"));
    UsmBuffer<int> a, b, c;
    allocate(a, UsmKind::Host, kN);
    allocate(b, UsmKind::Host, kN);
    allocate(c, UsmKind::Device, kN);
    UsmBuffer<int> result;
    allocate(result, UsmKind::Host, kN);
    for (size_t i = 0; i < kN; ++i) {
        a[i] = testValue(i, 1);
        b[i] = testValue(i, 2);
        result[i] = -1;
    }
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(a), usm(b), usm(c)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryCopy(list_, result.ptr(), c.ptr(), c.bytes(), nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(result[i], a[i] + b[i]) << "i=" << i;
}

// Nothing runs at append time on a regular list: the recorded commands run
// when (and each time) the list is executed.
TEST_F(CommandListTest, RecordedWorkRunsOnlyOnExecuteAndOnEveryExecute) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "increment"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    for (size_t i = 0; i < kN; ++i)
        data[i] = static_cast<int>(i);
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    // The queue has nothing to do yet, so synchronising it changes nothing.
    ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue_, UINT64_MAX));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(data[i], static_cast<int>(i)) << "launch ran before execute, i=" << i;

    for (int round = 1; round <= 3; ++round) {
        ASSERT_NO_FATAL_FAILURE(execute(list_));
        for (size_t i = 0; i < kN; ++i)
            ASSERT_EQ(data[i], static_cast<int>(i) + round) << "round " << round << " i=" << i;
    }
}

// Several lists in one submission run in order.
TEST_F(CommandListTest, ExecuteSeveralListsInOrder) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "mul_add_inplace"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    for (size_t i = 0; i < kN; ++i)
        data[i] = testValue(i);

    CommandList second;
    ASSERT_NO_FATAL_FAILURE(createList(second));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data), byValue(3), byValue(1)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data), byValue(-2), byValue(7)}));
    ASSERT_ZE_SUCCESS(launch(second, kernel, {static_cast<uint32_t>(kN), 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_ZE_SUCCESS(zeCommandListClose(second));

    ze_command_list_handle_t lists[] = {list_, second};
    ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue_, 2, lists, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue_, UINT64_MAX));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(data[i], (testValue(i) * 3 + 1) * -2 + 7) << "i=" << i;
}

// Reset discards the recorded commands; the list can then be re-recorded and
// only the new commands run.
TEST_F(CommandListTest, CloseResetAndRerecord) {
    Kernel increment, mulAdd;
    ASSERT_NO_FATAL_FAILURE(loadKernel(increment, module_, "increment"));
    ASSERT_NO_FATAL_FAILURE(loadKernel(mulAdd, module_, "mul_add_inplace"));
    UsmBuffer<int> first, second;
    allocate(first, UsmKind::Shared, kN);
    allocate(second, UsmKind::Shared, kN);
    for (size_t i = 0; i < kN; ++i) {
        first[i] = static_cast<int>(i);
        second[i] = static_cast<int>(i);
    }

    ASSERT_ZE_SUCCESS(setArgs(increment, {usm(first)}));
    ASSERT_ZE_SUCCESS(launch(list_, increment, {static_cast<uint32_t>(kN), 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));

    ASSERT_ZE_SUCCESS(zeCommandListReset(list_));
    ASSERT_ZE_SUCCESS(setArgs(mulAdd, {usm(second), byValue(5), byValue(-3)}));
    ASSERT_ZE_SUCCESS(launch(list_, mulAdd, {static_cast<uint32_t>(kN), 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));

    for (size_t i = 0; i < kN; ++i) {
        const int v = static_cast<int>(i);
        ASSERT_EQ(first[i], v + 1) << "the reset list replayed its old commands, i=" << i;
        ASSERT_EQ(second[i], (v * 5 - 3) * 5 - 3) << "i=" << i;
    }
}

// A list that is reset without having been executed records nothing either.
TEST_F(CommandListTest, ResetBeforeExecuteDropsCommands) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "increment"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    std::fill(data.data(), data.data() + kN, 10);
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListReset(list_));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(data[i], 10) << "i=" << i;
}

// Kernel arguments are captured when the launch is appended: setting an
// argument afterwards affects later appends only, never the recorded one.
TEST_F(CommandListTest, ArgumentsAreCapturedAtAppendTime) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "scale_add"));
    UsmBuffer<int> in, out1, out2;
    allocate(in, UsmKind::Shared, kN);
    allocate(out1, UsmKind::Shared, kN);
    allocate(out2, UsmKind::Shared, kN);
    for (size_t i = 0; i < kN; ++i)
        in[i] = testValue(i);

    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(out1), usm(in), byValue(2), byValue(1)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}));
    // Change a scalar and a pointer after the first append.
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(out2), usm(in), byValue(-7), byValue(4)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}));
    // And once more after the last append, before execution: no effect.
    const int unused = 1000;
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 2, sizeof(unused), &unused));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));

    for (size_t i = 0; i < kN; ++i) {
        ASSERT_EQ(out1[i], in[i] * 2 + 1) << "i=" << i;
        ASSERT_EQ(out2[i], in[i] * -7 + 4) << "i=" << i;
    }
}

// Group size is captured at append time as well.
TEST_F(CommandListTest, GroupSizeIsCapturedAtAppendTime) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "record_ids", 4, 1, 1));
    constexpr uint32_t width = 16;
    UsmBuffer<uint32_t> ids1, groups1, ids2, groups2;
    allocate(ids1, UsmKind::Shared, width * 4);
    allocate(groups1, UsmKind::Shared, width * 4);
    allocate(ids2, UsmKind::Shared, width * 4);
    allocate(groups2, UsmKind::Shared, width * 4);
    const uint32_t one = 1;
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(ids1), usm(groups1), byValue(width), byValue(one)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {width / 4, 1, 1}));
    ASSERT_ZE_SUCCESS(zeKernelSetGroupSize(kernel, 8, 1, 1));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(ids2), usm(groups2), byValue(width), byValue(one)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {width / 8, 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));
    for (uint32_t x = 0; x < width; ++x) {
        EXPECT_EQ(ids1[x * 4], x);
        EXPECT_EQ(groups1[x * 4], x / 4) << "x=" << x;
        EXPECT_EQ(ids2[x * 4], x);
        EXPECT_EQ(groups2[x * 4], x / 8) << "x=" << x;
    }
}

// The local memory size of an argument is captured at append time too.
TEST_F(CommandListTest, LocalMemorySizeIsCapturedAtAppendTime) {
    Module reduceModule;
    ASSERT_NO_FATAL_FAILURE(loadModule(reduceModule, "reduce"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, reduceModule, "reduce_sum", 8));
    UsmBuffer<int> in, partialSmall, partialLarge;
    allocate(in, UsmKind::Shared, 256);
    allocate(partialSmall, UsmKind::Shared, 32);
    allocate(partialLarge, UsmKind::Shared, 4);
    for (int i = 0; i < 256; ++i)
        in[i] = testValue(i);
    ASSERT_ZE_SUCCESS(
        setArgs(kernel, {usm(in), usm(partialSmall), localBytes(8 * sizeof(int))}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {32, 1, 1}));
    ASSERT_ZE_SUCCESS(zeKernelSetGroupSize(kernel, 64, 1, 1));
    ASSERT_ZE_SUCCESS(
        setArgs(kernel, {usm(in), usm(partialLarge), localBytes(64 * sizeof(int))}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {4, 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));
    for (int g = 0; g < 32; ++g)
        EXPECT_EQ(partialSmall[g], std::accumulate(in.data() + g * 8, in.data() + g * 8 + 8, 0))
            << "group " << g;
    for (int g = 0; g < 4; ++g)
        EXPECT_EQ(partialLarge[g],
                  std::accumulate(in.data() + g * 64, in.data() + g * 64 + 64, 0))
            << "group " << g;
}

// The fill pattern is read at append time (as Intel's driver does, and as
// frameworks passing a temporary pattern rely on): changing it afterwards
// does not change what a regular list fills.
TEST_F(CommandListTest, FillPatternIsCapturedAtAppendTime) {
    UsmBuffer<uint32_t> data;
    allocate(data, UsmKind::Shared, 64);
    uint32_t pattern = 0x01020304u;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, data.ptr(), &pattern, sizeof(pattern),
                                                    data.bytes(), nullptr, 0, nullptr));
    pattern = 0xFFFFFFFFu;
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(data[i], 0x01020304u) << "i=" << i;
}

// Wait events of a regular list are evaluated at each execution: after the
// host resets the gate, the second execution waits for it again.
TEST_F(CommandListTest, WaitEventsAreReevaluatedOnEachExecution) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "increment"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    std::fill(data.data(), data.data() + kN, 0);
    Event gate, done;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(done, 2));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}, done, {gate}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ze_command_list_handle_t list = list_;
    for (int round = 1; round <= 2; ++round) {
        ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue_, 1, &list, nullptr));
        EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(done)) << "round " << round;
        for (size_t i = 0; i < kN; ++i)
            ASSERT_EQ(data[i], round - 1) << "ran with its gate closed, round " << round;
        ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
        ASSERT_ZE_SUCCESS(zeEventHostSynchronize(done, UINT64_MAX));
        ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue_, UINT64_MAX));
        for (size_t i = 0; i < kN; ++i)
            ASSERT_EQ(data[i], round) << "round " << round;
        ASSERT_ZE_SUCCESS(zeEventHostReset(gate));
        ASSERT_ZE_SUCCESS(zeEventHostReset(done));
    }
}

// AppendEventReset recorded in a regular list runs on every execution: the
// list resets its event, then signals it again.
TEST_F(CommandListTest, RecordedEventResetRunsOnEachExecution) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "increment"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    std::fill(data.data(), data.data() + kN, 0);
    Event e, marker;
    ASSERT_NO_FATAL_FAILURE(createEvent(e, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(marker, 2));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    ASSERT_ZE_SUCCESS(zeCommandListAppendEventReset(list_, e));
    ASSERT_ZE_SUCCESS(zeCommandListAppendSignalEvent(list_, marker));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}, e));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    for (int round = 1; round <= 3; ++round) {
        ASSERT_NO_FATAL_FAILURE(execute(list_));
        EXPECT_ZE_SUCCESS(zeEventQueryStatus(e)) << "round " << round;
        EXPECT_ZE_SUCCESS(zeEventQueryStatus(marker)) << "round " << round;
        for (size_t i = 0; i < kN; ++i)
            ASSERT_EQ(data[i], round);
        ASSERT_ZE_SUCCESS(zeEventHostReset(marker));
    }
}

// zeCommandQueueSynchronize with timeout 0 polls: while the submitted work
// waits for a host event it reports NOT_READY; UINT64_MAX waits for it.
TEST_F(CommandListTest, QueueSynchronizeTimeoutSemantics) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "increment"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    std::fill(data.data(), data.data() + kN, 0);
    Event gate;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));

    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    ze_event_handle_t wait = gate;
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}, nullptr, {wait}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ze_command_list_handle_t listHandle = list_;
    ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue_, 1, &listHandle, nullptr));

    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeCommandQueueSynchronize(queue_, 0));
    // A non-zero finite timeout expires the same way: the gate is closed.
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeCommandQueueSynchronize(queue_, 1000));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(data[i], 0) << "work ran before its wait event was signalled";

    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue_, UINT64_MAX));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(data[i], 1) << "i=" << i;
    EXPECT_ZE_SUCCESS(zeCommandQueueSynchronize(queue_, 0));
}

// Polling a queue whose work has all completed reports SUCCESS every time:
// completion is a state, not something a poll has to wait for. Repeated, so
// that a driver which answers a poll by enqueuing fresh work (and then
// finds that work unfinished) is caught reliably.
TEST_F(CommandListTest, PollingAnIdleQueueReportsSuccess) {
    for (int i = 0; i < 200; ++i)
        ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue_, 0)) << "fresh queue, poll " << i;

    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "increment"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    std::fill(data.data(), data.data() + kN, 0);
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));
    for (int i = 0; i < 200; ++i)
        ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue_, 0)) << "after execute, poll " << i;
}

// A synchronous queue has finished the lists when Execute returns.
TEST_F(CommandListTest, SynchronousQueueCompletesOnExecute) {
    CommandQueue syncQueue;
    ASSERT_NO_FATAL_FAILURE(createQueue(syncQueue, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "increment"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    std::fill(data.data(), data.data() + kN, 41);
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ze_command_list_handle_t listHandle = list_;
    ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(syncQueue, 1, &listHandle, nullptr));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(data[i], 42) << "i=" << i;
}

// Copies and fills recorded in a regular list, ordered by barriers.
TEST_F(CommandListTest, CopyFillAndKernelInOneList) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module_, "increment"));
    UsmBuffer<int> device, host;
    allocate(device, UsmKind::Device, kN);
    allocate(host, UsmKind::Host, kN);
    std::fill(host.data(), host.data() + kN, -5);
    const int pattern = 99;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, device.ptr(), &pattern, sizeof(pattern),
                                                    device.bytes(), nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(device)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, host.ptr(), device.ptr(), device.bytes(),
                                                    nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ASSERT_NO_FATAL_FAILURE(execute(list_));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(host[i], 100) << "i=" << i;
}

TEST_F(CommandListTest, QueueCanBeCreatedInEveryMode) {
    for (ze_command_queue_mode_t mode :
         {ZE_COMMAND_QUEUE_MODE_DEFAULT, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS,
          ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS}) {
        CommandQueue queue;
        ASSERT_NO_FATAL_FAILURE(createQueue(queue, mode));
        EXPECT_ZE_SUCCESS(zeCommandQueueSynchronize(queue, 0)) << "an idle queue is complete";
    }
}

} // namespace
} // namespace zetest
