// Events and fences: the two-state event model of the spec (no implicit
// reset), timeouts, host and device signalling, dependencies across command
// lists, barriers, kernel timestamps, and fences over regular lists.
#include "ze_test_common.hpp"

#include <atomic>
#include <future>
#include <thread>

namespace zetest {
namespace {

constexpr size_t kN = 256;

class EventTest : public WithImmediateList {
  protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(WithImmediateList::SetUp());
        ASSERT_NO_FATAL_FAILURE(loadModule(module_, "basic"));
        ASSERT_NO_FATAL_FAILURE(loadKernel(mulAdd_, module_, "mul_add_inplace"));
        allocate(data_, UsmKind::Shared, kN);
        for (size_t i = 0; i < kN; ++i)
            data_[i] = testValue(i) / 8;
        expected_.assign(data_.data(), data_.data() + kN);
    }
    void TearDown() override {
        data_.reset();
        mulAdd_.reset();
        module_.reset();
        WithImmediateList::TearDown();
    }

    // Appends data = data * mul + add and updates the host reference. The
    // operations do not commute, so the final data proves the order.
    ze_result_t appendMulAdd(ze_command_list_handle_t list, int mul, int add,
                             ze_event_handle_t signal, std::vector<ze_event_handle_t> waits) {
        ze_result_t r = setArgs(mulAdd_, {usm(data_), byValue(mul), byValue(add)});
        if (r != ZE_RESULT_SUCCESS)
            return r;
        for (int &e : expected_)
            e = e * mul + add;
        return launch(list, mulAdd_, {static_cast<uint32_t>(kN), 1, 1}, signal, std::move(waits));
    }
    void expectData(const char *what) {
        for (size_t i = 0; i < kN; ++i)
            ASSERT_EQ(data_[i], expected_[i]) << what << ", i=" << i;
    }
    void expectUntouched(const std::vector<int> &before, const char *what) {
        for (size_t i = 0; i < kN; ++i)
            ASSERT_EQ(data_[i], before[i]) << what << ", i=" << i;
    }
    std::vector<int> snapshot() const { return {data_.data(), data_.data() + kN}; }

    Module module_;
    Kernel mulAdd_;
    UsmBuffer<int> data_;
    std::vector<int> expected_;
};

TEST_F(EventTest, NewEventIsNotSignaled) {
    Event e;
    ASSERT_NO_FATAL_FAILURE(createEvent(e, 1));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
}

// Timeouts are in nanoseconds; 0 polls; expiry is NOT_READY. An event that
// nothing will ever signal makes this independent of timing.
TEST_F(EventTest, HostSynchronizeTimeoutsOnAnUnsignaledEvent) {
    Event e;
    ASSERT_NO_FATAL_FAILURE(createEvent(e, 1));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(e, 0));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(e, 1));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(e, 2000000));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
}

// Two states, no implicit reset: signalling a signaled event is a no-op, and
// waiting on it any number of times succeeds immediately until a reset.
TEST_F(EventTest, SignaledStaysSignaledUntilReset) {
    Event e;
    ASSERT_NO_FATAL_FAILURE(createEvent(e, 1));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(e));
    EXPECT_ZE_SUCCESS(zeEventQueryStatus(e));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(e));
    EXPECT_ZE_SUCCESS(zeEventQueryStatus(e));
    for (int i = 0; i < 3; ++i) {
        EXPECT_ZE_SUCCESS(zeEventHostSynchronize(e, 0));
        EXPECT_ZE_SUCCESS(zeEventHostSynchronize(e, UINT64_MAX));
    }
    ASSERT_ZE_SUCCESS(zeEventHostReset(e));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(e, 0));
    // Resetting a reset event is a no-op as well.
    ASSERT_ZE_SUCCESS(zeEventHostReset(e));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
}

// Appending a command that will signal an event that is already signaled
// does not unsignal it: there is no implicit reset, on the device side
// either. The command is held back so the check cannot race with it.
TEST_F(EventTest, AppendingASignalDoesNotResetASignaledEvent) {
    Event e, gate;
    ASSERT_NO_FATAL_FAILURE(createEvent(e, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 2));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(e));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 3, 1, e, {gate}));
    EXPECT_ZE_SUCCESS(zeEventQueryStatus(e)) << "appending a signal reset the event";
    EXPECT_ZE_SUCCESS(zeEventHostSynchronize(e, 0));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_NO_FATAL_FAILURE(sync());
    EXPECT_ZE_SUCCESS(zeEventQueryStatus(e));
    ASSERT_NO_FATAL_FAILURE(expectData("after the held launch"));
}

// After HostReset an event is reused as a device signal event, several
// times; a device wait on a signaled event does not consume it.
TEST_F(EventTest, HostResetThenReuseForDeviceWork) {
    Event e;
    ASSERT_NO_FATAL_FAILURE(createEvent(e, 1));
    for (int round = 0; round < 3; ++round) {
        ASSERT_ZE_SUCCESS(appendMulAdd(list_, 2, round, e, {}));
        ASSERT_ZE_SUCCESS(zeEventHostSynchronize(e, UINT64_MAX));
        ASSERT_NO_FATAL_FAILURE(expectData("after signal"));
        // The signaled event may gate further work any number of times.
        ASSERT_ZE_SUCCESS(appendMulAdd(list_, 1, 1, nullptr, {e}));
        ASSERT_ZE_SUCCESS(appendMulAdd(list_, -1, 0, nullptr, {e}));
        ASSERT_NO_FATAL_FAILURE(sync());
        ASSERT_NO_FATAL_FAILURE(expectData("after waits on a signaled event"));
        EXPECT_ZE_SUCCESS(zeEventQueryStatus(e)) << "a wait consumed the event";
        ASSERT_ZE_SUCCESS(zeEventHostReset(e));
        EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
    }
}

TEST_F(EventTest, AppendSignalEvent) {
    Event e;
    ASSERT_NO_FATAL_FAILURE(createEvent(e, 1));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 3, 0, nullptr, {}));
    ASSERT_ZE_SUCCESS(zeCommandListAppendSignalEvent(list_, e));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(e, UINT64_MAX));
    ASSERT_NO_FATAL_FAILURE(expectData("in-order: the signal follows the kernel"));
}

// AppendEventReset returns a signaled event to the unsignaled state, in
// order with the list's other commands.
TEST_F(EventTest, AppendEventReset) {
    Event e, marker;
    ASSERT_NO_FATAL_FAILURE(createEvent(e, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(marker, 2));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(e));
    ASSERT_ZE_SUCCESS(zeCommandListAppendEventReset(list_, e));
    ASSERT_ZE_SUCCESS(zeCommandListAppendSignalEvent(list_, marker));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(marker, UINT64_MAX));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));

    // The reset event works as a device signal event again.
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 1, 9, e, {}));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(e, UINT64_MAX));
    ASSERT_NO_FATAL_FAILURE(expectData("after reuse"));
}

// AppendWaitOnEvents blocks the rest of the list until the host signals.
// Whether the later work has run is checked only while it cannot have run
// (its gate is closed) and after it must have (its event is signaled).
TEST_F(EventTest, HostSignaledEventGatesDeviceWork) {
    Event gate, done;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(done, 2));
    const std::vector<int> before = snapshot();
    ze_event_handle_t wait = gate;
    ASSERT_ZE_SUCCESS(zeCommandListAppendWaitOnEvents(list_, 1, &wait));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 5, -2, done, {}));

    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, 0));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(done));
    ASSERT_NO_FATAL_FAILURE(expectUntouched(before, "ran before the gate opened"));

    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(done, UINT64_MAX));
    ASSERT_NO_FATAL_FAILURE(expectData("after the gate opened"));
}

// The same through a launch's own wait list.
TEST_F(EventTest, LaunchWaitListGatesTheLaunch) {
    Event gate1, gate2, done;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate1, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(gate2, 2));
    ASSERT_NO_FATAL_FAILURE(createEvent(done, 3));
    const std::vector<int> before = snapshot();
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, -4, 1, done, {gate1, gate2}));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate2));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(done))
        << "a launch ran with one of its two wait events unsignaled";
    ASSERT_NO_FATAL_FAILURE(expectUntouched(before, "ran with a wait event unsignaled"));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate1));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(done, UINT64_MAX));
    ASSERT_NO_FATAL_FAILURE(expectData("after both gates"));
}

// A long chain of launches, each waiting for the previous one's event and
// signaling its own, all events from one pool; the chain is released by a
// host event at its head.
TEST_F(EventTest, LongChainThroughManyEventsOfOnePool) {
    constexpr uint32_t kEvents = 200;
    EventPool pool;
    ASSERT_NO_FATAL_FAILURE(createEventPool(pool, kEvents, ZE_EVENT_POOL_FLAG_HOST_VISIBLE));
    std::vector<Event> events(kEvents);
    for (uint32_t i = 0; i < kEvents; ++i)
        ASSERT_NO_FATAL_FAILURE(createEvent(events[i], pool, i));
    CommandList other;
    ASSERT_NO_FATAL_FAILURE(createImmediateList(other, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS));
    Event gate;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ze_event_handle_t previous = gate;
    for (uint32_t i = 0; i < kEvents; ++i) {
        // Alternate lists so only the events order the chain.
        ze_command_list_handle_t list = (i % 2 == 0) ? list_.get() : other.get();
        const int mul = (i % 3 == 0) ? -1 : 1;
        ASSERT_ZE_SUCCESS(appendMulAdd(list, mul, static_cast<int>(i % 7), events[i], {previous}));
        previous = events[i];
    }
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(events[kEvents - 1]));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(events[kEvents - 1], UINT64_MAX));
    for (uint32_t i = 0; i < kEvents; ++i)
        EXPECT_ZE_SUCCESS(zeEventQueryStatus(events[i])) << "event " << i;
    ASSERT_NO_FATAL_FAILURE(expectData("long chain"));
    ASSERT_NO_FATAL_FAILURE(syncList(other));
}

// A dependency chain that ping-pongs between two immediate lists on the
// same data. The first step is held by a host event so that, without the
// events, the second list could run ahead; the result proves the order.
TEST_F(EventTest, ChainAcrossTwoImmediateLists) {
    CommandList other;
    ASSERT_NO_FATAL_FAILURE(createImmediateList(other, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS));
    Event gate, e1, e2, e3, e4;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(e1, 2));
    ASSERT_NO_FATAL_FAILURE(createEvent(e2, 3));
    ASSERT_NO_FATAL_FAILURE(createEvent(e3, 4));
    ASSERT_NO_FATAL_FAILURE(createEvent(e4, 5));
    const std::vector<int> before = snapshot();

    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 2, 1, e1, {gate}));
    ASSERT_ZE_SUCCESS(appendMulAdd(other, -3, 4, e2, {e1}));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 5, -6, e3, {e2}));
    ASSERT_ZE_SUCCESS(appendMulAdd(other, 7, 8, e4, {e3}));

    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(e4));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(e2));
    ASSERT_NO_FATAL_FAILURE(expectUntouched(before, "the chain started before its gate"));

    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(e4, UINT64_MAX));
    for (ze_event_handle_t e : {e1.get(), e2.get(), e3.get()})
        EXPECT_ZE_SUCCESS(zeEventQueryStatus(e));
    ASSERT_NO_FATAL_FAILURE(expectData("chain across two lists"));
}

// A barrier with wait events is gated by those events only, and signals its
// own event when they (and the list's earlier work) are done.
TEST_F(EventTest, BarrierWithWaitEventsIsGatedByThem) {
    Event gate, barrierDone, after;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(barrierDone, 2));
    ASSERT_NO_FATAL_FAILURE(createEvent(after, 3));
    const std::vector<int> before = snapshot();
    ze_event_handle_t wait = gate;
    ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, barrierDone, 1, &wait));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 3, 3, after, {}));

    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(barrierDone));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(after));
    ASSERT_NO_FATAL_FAILURE(expectUntouched(before, "work after a closed barrier ran"));

    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(after, UINT64_MAX));
    EXPECT_ZE_SUCCESS(zeEventQueryStatus(barrierDone));
    ASSERT_NO_FATAL_FAILURE(expectData("after the barrier"));
}

// A barrier on one list waiting for an event signaled by another list's
// kernel orders work across the lists.
TEST_F(EventTest, BarrierOrdersWorkAcrossLists) {
    CommandList other;
    ASSERT_NO_FATAL_FAILURE(createImmediateList(other, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS));
    Event gate, first, done;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(first, 2));
    ASSERT_NO_FATAL_FAILURE(createEvent(done, 3));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 6, -1, first, {gate}));
    ze_event_handle_t wait = first;
    ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(other, nullptr, 1, &wait));
    ASSERT_ZE_SUCCESS(appendMulAdd(other, -2, 5, done, {}));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(done, UINT64_MAX));
    ASSERT_NO_FATAL_FAILURE(expectData("barrier across lists"));
}

TEST_F(EventTest, MemoryRangesBarrier) {
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 2, 2, nullptr, {}));
    const size_t sizes[] = {data_.bytes() / 2, data_.bytes() / 2};
    const void *ranges[] = {data_.data(), data_.data() + kN / 2};
    Event done;
    ASSERT_NO_FATAL_FAILURE(createEvent(done, 1));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryRangesBarrier(list_, 2, sizes, ranges, done, 0,
                                                              nullptr));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 3, -1, nullptr, {done}));
    ASSERT_NO_FATAL_FAILURE(sync());
    EXPECT_ZE_SUCCESS(zeEventQueryStatus(done));
    ASSERT_NO_FATAL_FAILURE(expectData("around a ranges barrier"));
}

// A pool created for "all devices of the context" (no device list).
TEST_F(EventTest, PoolWithoutADeviceList) {
    ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC};
    desc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
    desc.count = 2;
    EventPool pool;
    ASSERT_ZE_SUCCESS(zeEventPoolCreate(context_, &desc, 0, nullptr, pool.out()));
    Event e;
    ASSERT_NO_FATAL_FAILURE(createEvent(e, pool, 1));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 4, 4, e, {}));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(e, UINT64_MAX));
    ASSERT_NO_FATAL_FAILURE(expectData("signaled through a pool without a device list"));
}

// A host thread blocked in HostSynchronize wakes when another thread
// signals: the order is forced by the waiter announcing itself first, and
// the wait is infinite, so nothing here depends on timing.
TEST_F(EventTest, HostSynchronizeWakesOnASignalFromAnotherThread) {
    Event e;
    ASSERT_NO_FATAL_FAILURE(createEvent(e, 1));
    std::promise<void> waiting;
    std::future<void> waiterStarted = waiting.get_future();
    std::future<ze_result_t> waited = std::async(std::launch::async, [&] {
        waiting.set_value();
        return zeEventHostSynchronize(e, UINT64_MAX);
    });
    waiterStarted.wait();
    ASSERT_ZE_SUCCESS(zeEventHostSignal(e));
    EXPECT_ZE_SUCCESS(waited.get());
}

// The spec: with wait events, "only all phWaitEvents must be signaled prior
// to the execution of the barrier" — earlier, still-blocked work in the list
// does not hold the barrier's own signal back. The earlier launch is held by
// a host event that is opened only after the barrier has signaled.
TEST_F(EventTest, BarrierWithWaitEventsIsNotHeldByEarlierWork) {
    Event heldGate, barrierGate, barrierDone, afterBarrier;
    ASSERT_NO_FATAL_FAILURE(createEvent(heldGate, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(barrierGate, 2));
    ASSERT_NO_FATAL_FAILURE(createEvent(barrierDone, 3));
    ASSERT_NO_FATAL_FAILURE(createEvent(afterBarrier, 4));
    const std::vector<int> before = snapshot();
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 2, 3, nullptr, {heldGate}));
    ze_event_handle_t wait = barrierGate;
    ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, barrierDone, 1, &wait));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, -1, 4, afterBarrier, {}));

    ASSERT_ZE_SUCCESS(zeEventHostSignal(barrierGate));
    // Success is immediate for a correct driver; the long timeout only turns
    // a driver that wrongly waits for the held launch into a failure rather
    // than a hang.
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(barrierDone, 60ull * 1000 * 1000 * 1000))
        << "the barrier waited for work appended before it";
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(afterBarrier))
        << "work after the barrier overtook the held launch of the in-order list";
    ASSERT_NO_FATAL_FAILURE(expectUntouched(before, "the held launch ran"));

    ASSERT_ZE_SUCCESS(zeEventHostSignal(heldGate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(afterBarrier, UINT64_MAX));
    ASSERT_NO_FATAL_FAILURE(expectData("in-order result after both gates"));
}

// Copies, fills and region copies honour their wait lists and signal their
// events, like launches.
TEST_F(EventTest, MemoryCommandsHonourWaitListsAndSignal) {
    constexpr size_t bytes = 96;
    UsmBuffer<uint8_t> src, a, b, c;
    allocate(src, UsmKind::Host, bytes);
    allocate(a, UsmKind::Shared, bytes);
    allocate(b, UsmKind::Shared, bytes);
    allocate(c, UsmKind::Shared, bytes);
    for (size_t i = 0; i < bytes; ++i) {
        src[i] = static_cast<uint8_t>(i + 1);
        a[i] = b[i] = c[i] = 0;
    }
    Event gate, copied, filled, regionCopied;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(copied, 2));
    ASSERT_NO_FATAL_FAILURE(createEvent(filled, 3));
    ASSERT_NO_FATAL_FAILURE(createEvent(regionCopied, 4));
    ze_event_handle_t wait = gate;
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryCopy(list_, a.ptr(), src.ptr(), bytes, copied, 1, &wait));
    const uint16_t pattern = 0xBEEF;
    ze_event_handle_t afterCopy = copied;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, b.ptr(), &pattern, sizeof(pattern),
                                                    bytes, filled, 1, &afterCopy));
    const ze_copy_region_t region = {0, 0, 0, 8, 12, 0};
    ze_event_handle_t afterFill = filled;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopyRegion(list_, c.ptr(), &region, 8, 0, a.ptr(),
                                                          &region, 8, 0, regionCopied, 1,
                                                          &afterFill));
    for (ze_event_handle_t e : {copied.get(), filled.get(), regionCopied.get()})
        EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
    for (size_t i = 0; i < bytes; ++i)
        ASSERT_EQ(a[i] | b[i] | c[i], 0) << "a memory command ran before its gate, byte " << i;

    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(regionCopied, UINT64_MAX));
    EXPECT_ZE_SUCCESS(zeEventQueryStatus(copied));
    EXPECT_ZE_SUCCESS(zeEventQueryStatus(filled));
    for (size_t i = 0; i < bytes; ++i) {
        ASSERT_EQ(a[i], src[i]) << "copy, byte " << i;
        ASSERT_EQ(b[i], i % 2 == 0 ? 0xEF : 0xBE) << "fill, byte " << i;
        ASSERT_EQ(c[i], src[i]) << "region copy, byte " << i;
    }
}

// An event signaled on an immediate list gates a regular list on a queue.
TEST_F(EventTest, RegularListWaitsOnAnImmediateListEvent) {
    ze_command_queue_desc_t qdesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    qdesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    CommandQueue queue;
    ASSERT_ZE_SUCCESS(zeCommandQueueCreate(context_, device_, &qdesc, queue.out()));
    ze_command_list_desc_t ldesc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    CommandList regular;
    ASSERT_ZE_SUCCESS(zeCommandListCreate(context_, device_, &ldesc, regular.out()));
    Event gate, first, done;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(first, 2));
    ASSERT_NO_FATAL_FAILURE(createEvent(done, 3));

    ASSERT_ZE_SUCCESS(appendMulAdd(regular, 3, -2, done, {first}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(regular));
    // Submitted first, but it must run second.
    ze_command_list_handle_t lists[] = {regular};
    // The host reference was updated in append order; rebuild it in the
    // order the device must run the two steps.
    expected_.assign(data_.data(), data_.data() + kN);
    ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue, 1, lists, nullptr));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 7, 1, first, {gate}));
    for (int &e : expected_)
        e = e * 3 - 2;
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(done));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue, UINT64_MAX));
    EXPECT_ZE_SUCCESS(zeEventQueryStatus(done));
    ASSERT_NO_FATAL_FAILURE(expectData("regular list after immediate list"));
}

// AppendWriteGlobalTimestamp writes device timestamps in list order, on the
// timeline of zeDeviceGetGlobalTimestamps.
TEST_F(EventTest, WriteGlobalTimestampIsOrderedAndOnTheDeviceTimeline) {
    UsmBuffer<uint64_t> ts;
    allocate(ts, UsmKind::Shared, 3);
    std::fill(ts.data(), ts.data() + 3, 0);
    uint64_t hostBefore = 0, deviceBefore = 0, hostAfter = 0, deviceAfter = 0;
    ASSERT_ZE_SUCCESS(zeDeviceGetGlobalTimestamps(device_, &hostBefore, &deviceBefore));
    ASSERT_ZE_SUCCESS(zeCommandListAppendWriteGlobalTimestamp(list_, ts.data(), nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 1, 1, nullptr, {}));
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendWriteGlobalTimestamp(list_, ts.data() + 1, nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendWriteGlobalTimestamp(list_, ts.data() + 2, nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    ASSERT_ZE_SUCCESS(zeDeviceGetGlobalTimestamps(device_, &hostAfter, &deviceAfter));
    EXPECT_LE(deviceBefore, ts[0]);
    EXPECT_LE(ts[0], ts[1]);
    EXPECT_LE(ts[1], ts[2]);
    EXPECT_LE(ts[2], deviceAfter);
}

// Kernel timestamps come from a KERNEL_TIMESTAMP pool: start <= end for
// each launch, successive launches on an in-order list do not overlap, and
// they lie between device timestamps read before and after.
TEST_F(EventTest, KernelTimestampsAreMonotonic) {
    EventPool tsPool;
    ASSERT_NO_FATAL_FAILURE(createEventPool(
        tsPool, 4, ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP));
    std::vector<Event> events(4);
    for (uint32_t i = 0; i < 4; ++i)
        ASSERT_NO_FATAL_FAILURE(createEvent(events[i], tsPool, i));

    ze_device_properties_t props = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetProperties(device_, &props));
    const bool fullWidth = props.kernelTimestampValidBits == 64 && props.timestampValidBits == 64;

    uint64_t hostBefore = 0, deviceBefore = 0;
    ASSERT_ZE_SUCCESS(zeDeviceGetGlobalTimestamps(device_, &hostBefore, &deviceBefore));
    for (uint32_t i = 0; i < 4; ++i)
        ASSERT_ZE_SUCCESS(appendMulAdd(list_, 1, static_cast<int>(i), events[i], {}));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(events[3], UINT64_MAX));
    ASSERT_NO_FATAL_FAILURE(sync());
    uint64_t hostAfter = 0, deviceAfter = 0;
    ASSERT_ZE_SUCCESS(zeDeviceGetGlobalTimestamps(device_, &hostAfter, &deviceAfter));

    std::vector<ze_kernel_timestamp_result_t> ts(4);
    for (uint32_t i = 0; i < 4; ++i) {
        ASSERT_ZE_SUCCESS(zeEventQueryStatus(events[i]));
        ASSERT_ZE_SUCCESS(zeEventQueryKernelTimestamp(events[i], &ts[i]));
        EXPECT_LE(ts[i].global.kernelStart, ts[i].global.kernelEnd) << "launch " << i;
        EXPECT_LE(ts[i].context.kernelStart, ts[i].context.kernelEnd) << "launch " << i;
        EXPECT_FALSE(ts[i].global.kernelStart == 0 && ts[i].global.kernelEnd == 0)
            << "launch " << i << " has no timestamps";
        if (i > 0) {
            EXPECT_LE(ts[i - 1].global.kernelEnd, ts[i].global.kernelStart)
                << "in-order launches " << i - 1 << " and " << i << " overlap";
        }
    }
    if (fullWidth) {
        EXPECT_LE(deviceBefore, ts[0].global.kernelStart);
        EXPECT_LE(ts[3].global.kernelEnd, deviceAfter);
    }
    ASSERT_NO_FATAL_FAILURE(expectData("timestamped launches"));
}

// AppendQueryKernelTimestamps copies the same results into device-visible
// memory, in list order after the kernels it reports on.
TEST_F(EventTest, AppendQueryKernelTimestampsMatchesTheHostQuery) {
    EventPool tsPool;
    ASSERT_NO_FATAL_FAILURE(createEventPool(
        tsPool, 2, ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP));
    Event e0, e1;
    ASSERT_NO_FATAL_FAILURE(createEvent(e0, tsPool, 0));
    ASSERT_NO_FATAL_FAILURE(createEvent(e1, tsPool, 1));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 2, 0, e0, {}));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 1, -3, e1, {}));
    UsmBuffer<ze_kernel_timestamp_result_t> results;
    allocate(results, UsmKind::Shared, 2);
    std::memset(results.data(), 0, results.bytes());
    ze_event_handle_t events[] = {e0, e1};
    ASSERT_ZE_SUCCESS(zeCommandListAppendQueryKernelTimestamps(list_, 2, events, results.data(),
                                                               nullptr, nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (int i = 0; i < 2; ++i) {
        ze_kernel_timestamp_result_t host = {};
        ASSERT_ZE_SUCCESS(zeEventQueryKernelTimestamp(events[i], &host));
        EXPECT_EQ(results[i].global.kernelStart, host.global.kernelStart) << i;
        EXPECT_EQ(results[i].global.kernelEnd, host.global.kernelEnd) << i;
        EXPECT_EQ(results[i].context.kernelStart, host.context.kernelStart) << i;
        EXPECT_EQ(results[i].context.kernelEnd, host.context.kernelEnd) << i;
    }
    EXPECT_LE(results[0].global.kernelEnd, results[1].global.kernelStart);
    ASSERT_NO_FATAL_FAILURE(expectData("timestamped launches"));
}

// The timestamp of an event that has not completed is not available.
TEST_F(EventTest, KernelTimestampOfAnUnsignaledEventIsNotReady) {
    EventPool tsPool;
    ASSERT_NO_FATAL_FAILURE(createEventPool(
        tsPool, 1, ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP));
    Event e;
    ASSERT_NO_FATAL_FAILURE(createEvent(e, tsPool, 0));
    ze_kernel_timestamp_result_t ts = {};
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryKernelTimestamp(e, &ts));
}

// ---------------------------------------------------------------------------
// Fences

// Counter-based events (ZE_experimental_event_pool_counter_based): an event
// stands for the last command appended to signal it, and is reused without a
// reset. Intel's SYCL runtime (Level Zero v2 adapter) signals them on its
// in-order queues.
class CounterBasedEventTest : public EventTest {
  protected:
    static constexpr ze_structure_type_t kCounterBasedDesc =
        static_cast<ze_structure_type_t>(0x00020014); // ze_event_pool_counter_based_exp_desc_t
    struct CounterBasedDesc {
        ze_structure_type_t stype;
        const void *pNext;
        uint32_t flags;
    };
    static constexpr uint32_t kImmediate = 1, kNonImmediate = 2;

    ze_result_t createCounterBasedPool(EventPool &pool, uint32_t flags) {
        CounterBasedDesc counter = {kCounterBasedDesc, nullptr, flags};
        ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, &counter,
                                     ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 4};
        return zeEventPoolCreate(context_, &desc, 0, nullptr, pool.out());
    }
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(EventTest::SetUp());
        ASSERT_ZE_SUCCESS(createCounterBasedPool(counterPool_, kImmediate | kNonImmediate));
        ASSERT_NO_FATAL_FAILURE(createEvent(counted_, counterPool_, 0));
    }
    void TearDown() override {
        counted_.reset();
        counterPool_.reset();
        EventTest::TearDown();
    }

    EventPool counterPool_;
    Event counted_;
};

TEST_F(CounterBasedEventTest, TheDriverAnnouncesTheExtension) {
    uint32_t count = 0;
    ASSERT_ZE_SUCCESS(zeDriverGetExtensionProperties(driver_, &count, nullptr));
    std::vector<ze_driver_extension_properties_t> extensions(count);
    ASSERT_ZE_SUCCESS(zeDriverGetExtensionProperties(driver_, &count, extensions.data()));
    bool found = false;
    for (const auto &e : extensions)
        found |= std::string(e.name) == "ZE_experimental_event_pool_counter_based";
    EXPECT_TRUE(found);
}

TEST_F(CounterBasedEventTest, ReusedWithoutAReset) {
    for (int round = 0; round < 4; ++round) {
        ASSERT_ZE_SUCCESS(appendMulAdd(list_, 3, round, counted_, {}));
        ASSERT_ZE_SUCCESS(zeEventHostSynchronize(counted_, UINT64_MAX));
        ASSERT_NO_FATAL_FAILURE(expectData("after each reuse"));
    }
}

// Signaled by an earlier command, the event stands for the new one as soon
// as it is appended: a plain event would stay signaled.
TEST_F(CounterBasedEventTest, StandsForTheLastAppendedCommand) {
    Event gate;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 2, 1, counted_, {}));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(counted_, UINT64_MAX));
    const std::vector<int> before = snapshot();
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 3, 4, counted_, {gate}));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(counted_));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(counted_, 1000000));
    ASSERT_NO_FATAL_FAILURE(expectUntouched(before, "the gated command ran"));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(counted_, UINT64_MAX));
    ASSERT_NO_FATAL_FAILURE(expectData("after the gate"));
}

// A wait appended while the event stood for command A still waits for A
// after the event moves on to a later command.
TEST_F(CounterBasedEventTest, AnEarlierWaitKeepsWaitingForItsCommand) {
    CommandList other;
    ASSERT_NO_FATAL_FAILURE(createImmediateList(other, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS));
    Event gate, done;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(done, 2));
    const std::vector<int> before = snapshot();
    ASSERT_ZE_SUCCESS(appendMulAdd(list_, 2, 1, counted_, {gate}));     // A, held by the gate
    ASSERT_ZE_SUCCESS(appendMulAdd(other, -3, 4, done, {counted_}));    // B, after A
    ASSERT_ZE_SUCCESS(zeCommandListAppendSignalEvent(list_, counted_)); // the event moves on
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(done));
    ASSERT_NO_FATAL_FAILURE(expectUntouched(before, "B ran before A"));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(done, UINT64_MAX));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(counted_, UINT64_MAX));
    ASSERT_NO_FATAL_FAILURE(expectData("A then B"));
}

// A regular list's command signals the event anew at every execution.
TEST_F(CounterBasedEventTest, RegularListSignalsAtEachExecution) {
    ze_command_queue_desc_t qdesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    qdesc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
    CommandQueue queue;
    ASSERT_ZE_SUCCESS(zeCommandQueueCreate(context_, device_, &qdesc, queue.out()));
    ze_command_list_desc_t ldesc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    CommandList regular;
    ASSERT_ZE_SUCCESS(zeCommandListCreate(context_, device_, &ldesc, regular.out()));
    Event gate;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ASSERT_ZE_SUCCESS(appendMulAdd(regular, 5, -1, counted_, {gate}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(regular));
    ze_command_list_handle_t lists[] = {regular};
    expected_.assign(data_.data(), data_.data() + kN);
    for (int execution = 0; execution < 2; ++execution) {
        for (int &e : expected_)
            e = e * 5 - 1;
        ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue, 1, lists, nullptr));
        EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(counted_)) << execution;
        ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
        ASSERT_ZE_SUCCESS(zeEventHostSynchronize(counted_, UINT64_MAX));
        ASSERT_NO_FATAL_FAILURE(expectData("after an execution"));
        ASSERT_ZE_SUCCESS(zeEventHostReset(gate));
    }
    ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue, UINT64_MAX));
}

// The host asks about the event from another thread while the list's thread
// keeps giving it to new commands: each answer is about one of them, and the
// last wait sees the last command.
TEST_F(CounterBasedEventTest, HostQueriesWhileAnotherThreadReusesTheEvent) {
    std::atomic<bool> appending{true};
    std::thread host([&] {
        while (appending.load()) {
            ze_result_t r = zeEventQueryStatus(counted_);
            EXPECT_TRUE(r == ZE_RESULT_SUCCESS || r == ZE_RESULT_NOT_READY) << r;
            r = zeEventHostSynchronize(counted_, 1000);
            EXPECT_TRUE(r == ZE_RESULT_SUCCESS || r == ZE_RESULT_NOT_READY) << r;
        }
    });
    for (int round = 0; round < 200; ++round)
        ASSERT_ZE_SUCCESS(appendMulAdd(list_, -1, round % 7, counted_, {})); // stays bounded
    appending.store(false);
    host.join();
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(counted_, UINT64_MAX));
    ASSERT_NO_FATAL_FAILURE(expectData("after 200 reuses"));
}

TEST_F(CounterBasedEventTest, UnknownPoolFlagsAreRefused) {
    EventPool pool;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ENUMERATION, createCounterBasedPool(pool, 8));
}

class FenceTest : public WithQueueAndList {
  protected:
    void createFence(Fence &fence) {
        ze_fence_desc_t desc = {ZE_STRUCTURE_TYPE_FENCE_DESC};
        ASSERT_ZE_SUCCESS(zeFenceCreate(queue_, &desc, fence.out()));
    }
};

TEST_F(FenceTest, UnsubmittedFenceIsNotReady) {
    Fence fence;
    ASSERT_NO_FATAL_FAILURE(createFence(fence));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeFenceQueryStatus(fence));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeFenceHostSynchronize(fence, 0));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeFenceHostSynchronize(fence, 1000));
}

// A fence over a regular list executed twice, with a reset in between: each
// execution runs the recorded kernel once and signals the fence.
TEST_F(FenceTest, RegularListExecutedTwiceWithAFence) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "basic"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "mul_add_inplace"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    for (size_t i = 0; i < kN; ++i)
        data[i] = static_cast<int>(i);
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data), byValue(3), byValue(-1)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));

    Fence fence;
    ASSERT_NO_FATAL_FAILURE(createFence(fence));
    ze_command_list_handle_t list = list_;
    for (int round = 1; round <= 2; ++round) {
        ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue_, 1, &list, fence));
        ASSERT_ZE_SUCCESS(zeFenceHostSynchronize(fence, UINT64_MAX));
        EXPECT_ZE_SUCCESS(zeFenceQueryStatus(fence));
        for (size_t i = 0; i < kN; ++i) {
            int expected = static_cast<int>(i);
            for (int r = 0; r < round; ++r)
                expected = expected * 3 - 1;
            ASSERT_EQ(data[i], expected) << "round " << round << " i=" << i;
        }
        // Signaled stays signaled until reset.
        EXPECT_ZE_SUCCESS(zeFenceHostSynchronize(fence, 0));
        ASSERT_ZE_SUCCESS(zeFenceReset(fence));
        EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeFenceQueryStatus(fence));
    }
}

// On a synchronous queue the fence is signaled when Execute returns.
TEST_F(FenceTest, SynchronousQueueSignalsTheFenceOnReturn) {
    CommandQueue syncQueue;
    ASSERT_NO_FATAL_FAILURE(createQueue(syncQueue, ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS));
    ze_fence_desc_t desc = {ZE_STRUCTURE_TYPE_FENCE_DESC};
    Fence fence;
    ASSERT_ZE_SUCCESS(zeFenceCreate(syncQueue, &desc, fence.out()));
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "basic"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "increment"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    std::fill(data.data(), data.data() + kN, 1);
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ze_command_list_handle_t list = list_;
    ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(syncQueue, 1, &list, fence));
    EXPECT_ZE_SUCCESS(zeFenceQueryStatus(fence));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(data[i], 2);
}

// Lists on two queues ordered only by events: the list submitted first
// waits for the one submitted second.
TEST_F(FenceTest, TwoQueuesOrderedByEvents) {
    CommandQueue secondQueue;
    ASSERT_NO_FATAL_FAILURE(createQueue(secondQueue, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS));
    CommandList secondList;
    ASSERT_NO_FATAL_FAILURE(createList(secondList));
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "basic"));
    Kernel first, second;
    ASSERT_NO_FATAL_FAILURE(loadKernel(first, module, "mul_add_inplace"));
    ASSERT_NO_FATAL_FAILURE(loadKernel(second, module, "mul_add_inplace"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    for (size_t i = 0; i < kN; ++i)
        data[i] = static_cast<int>(i);
    Event producerDone;
    ASSERT_NO_FATAL_FAILURE(createEvent(producerDone, 1));

    // list_ on queue_ runs second: data = data * 2 + 1, after producerDone.
    ASSERT_ZE_SUCCESS(setArgs(first, {usm(data), byValue(2), byValue(1)}));
    ASSERT_ZE_SUCCESS(
        launch(list_, first, {static_cast<uint32_t>(kN), 1, 1}, nullptr, {producerDone}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    // secondList on secondQueue runs first: data = data * -3 + 5.
    ASSERT_ZE_SUCCESS(setArgs(second, {usm(data), byValue(-3), byValue(5)}));
    ASSERT_ZE_SUCCESS(launch(secondList, second, {static_cast<uint32_t>(kN), 1, 1}, producerDone));
    ASSERT_ZE_SUCCESS(zeCommandListClose(secondList));

    ze_command_list_handle_t consumer = list_, producer = secondList;
    ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue_, 1, &consumer, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(secondQueue, 1, &producer, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue_, UINT64_MAX));
    ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(secondQueue, UINT64_MAX));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(data[i], (static_cast<int>(i) * -3 + 5) * 2 + 1) << "i=" << i;
}

// A fence over work held back by a host event reports NOT_READY until the
// event opens the gate.
TEST_F(FenceTest, FenceFollowsGatedWork) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "basic"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "increment"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    std::fill(data.data(), data.data() + kN, 7);
    Event gate;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}, nullptr, {gate}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    Fence fence;
    ASSERT_NO_FATAL_FAILURE(createFence(fence));
    ze_command_list_handle_t list = list_;
    ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue_, 1, &list, fence));

    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeFenceHostSynchronize(fence, 0));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeFenceQueryStatus(fence));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(data[i], 7) << "ran before its gate";

    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeFenceHostSynchronize(fence, UINT64_MAX));
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(data[i], 8);
}

// Events signaled by a regular list's commands are signaled again on the
// second execution once the application resets them, as the spec requires
// (no implicit reset).
TEST_F(FenceTest, RegularListSignalsItsEventOnEachExecution) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "basic"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "increment"));
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, kN);
    std::fill(data.data(), data.data() + kN, 0);
    Event done;
    ASSERT_NO_FATAL_FAILURE(createEvent(done, 1));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(kN), 1, 1}, done));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list_));
    ze_command_list_handle_t list = list_;
    for (int round = 1; round <= 2; ++round) {
        EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(done));
        ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue_, 1, &list, nullptr));
        ASSERT_ZE_SUCCESS(zeEventHostSynchronize(done, UINT64_MAX));
        ASSERT_EQ(data[0], round);
        ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue_, UINT64_MAX));
        ASSERT_ZE_SUCCESS(zeEventHostReset(done));
    }
}

} // namespace
} // namespace zetest
