// Event-based execution: returned events (also on the library's in-order
// stream), chains and fan-in across kernels and copies, gating by the
// framework's own host-signaled event, events across streams and engines of
// one context, release rules, and pool recycling over 1000 launches.
#include "interop_fixtures.hpp"

#include <set>

using namespace interop_test;

namespace {

class EventsTest : public WithKernels {
protected:
    // Launches `increment` over data[0..n) on s, after deps; returns its event.
    ze_event_handle_t increment(imex_l0_kernel_t k, imex_l0_stream_t s, int *data, size_t n,
                                std::vector<ze_event_handle_t> deps = {}) {
        imex_l0_exec_arg_t args[] = {usmArg(data)};
        imex_l0_range_t range = range1d(n);
        ze_event_handle_t e = nullptr;
        EXPECT_IMEX(imex_l0_interop_kernel_execute(k, s, 1, args, &range, deps.size(),
                                                   deps.data(), &e));
        return e;
    }
    void release(ze_event_handle_t e) { EXPECT_IMEX(imex_l0_event_release(engine.get(), e)); }
};

TEST_F(EventsTest, ReturnedEventOnTheOwnedInOrderStream) {
    Stream owned;
    ASSERT_IMEX(imex_l0_stream_create(owned.out(), engine.get()));
    Kernel inc = fromSource("increment");
    UsmBuffer data = allocShared(128 * sizeof(int));
    std::memset(data.get(), 0, data.size());
    ze_event_handle_t launched = increment(inc.get(), owned.get(), data.as<int>(), 128);
    ASSERT_NE(launched, nullptr) << "in-order streams return events too";
    uint8_t seven = 7;
    ze_event_handle_t filled = nullptr, copied = nullptr;
    UsmBuffer bytes = allocShared(64), copy = allocShared(64);
    ASSERT_IMEX(imex_l0_interop_memset(owned.get(), bytes.get(), &seven, 1, 64, 0, nullptr,
                                       &filled));
    ASSERT_IMEX(imex_l0_interop_memcpy(owned.get(), copy.get(), bytes.get(), 64, 0, nullptr,
                                       &copied));
    ASSERT_NE(filled, nullptr);
    ASSERT_NE(copied, nullptr);
    // Each event tells its own submission's completion.
    ASSERT_ZE(zeEventHostSynchronize(launched, UINT64_MAX));
    for (int i = 0; i < 128; ++i)
        ASSERT_EQ(data.as<int>()[i], 1);
    ASSERT_ZE(zeEventHostSynchronize(copied, UINT64_MAX));
    EXPECT_ZE(zeEventQueryStatus(filled));
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(copy.as<uint8_t>()[i], 7);
    for (auto e : {launched, filled, copied})
        release(e);
}

TEST_F(EventsTest, OwnedStreamRunsInOrderWithoutEvents) {
    // The library's stream is in order: dependent launches need no events.
    Stream owned;
    ASSERT_IMEX(imex_l0_stream_create(owned.out(), engine.get()));
    Kernel inc = fromSource("increment");
    UsmBuffer data = allocShared(256 * sizeof(int));
    std::memset(data.get(), 0, data.size());
    imex_l0_exec_arg_t args[] = {usmArg(data.get())};
    imex_l0_range_t range = range1d(256, 64);
    for (int i = 0; i < 50; ++i)
        ASSERT_IMEX(imex_l0_interop_kernel_execute(inc.get(), owned.get(), 1, args, &range, 0,
                                                   nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(owned.get()));
    for (int i = 0; i < 256; ++i)
        ASSERT_EQ(data.as<int>()[i], 50) << i;
}

TEST_F(EventsTest, ChainOfKernelsAndCopies) {
    Kernel scale = fromSource("scale");
    Kernel add = fromSpirv("add");
    constexpr size_t n = 512;
    UsmBuffer host = allocHost(n * sizeof(float));
    UsmBuffer a = allocDevice(n * sizeof(float)), b = allocDevice(n * sizeof(float)),
              c = allocDevice(n * sizeof(float)), result = allocShared(n * sizeof(float));
    for (size_t i = 0; i < n; ++i)
        host.as<float>()[i] = float(i);
    // host -> a; b = 2a; c = a + b; c -> result: each step on the previous event.
    ze_event_handle_t up = nullptr, scaled = nullptr, added = nullptr, down = nullptr;
    ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), a.get(), host.get(), n * sizeof(float), 0,
                                       nullptr, &up));
    float two = 2.0f;
    imex_l0_exec_arg_t scaleArgs[] = {usmArg(a.get()), usmArg(b.get()), valueArg(two)};
    imex_l0_exec_arg_t addArgs[] = {usmArg(a.get()), usmArg(b.get()), usmArg(c.get())};
    imex_l0_range_t range = range1d(n, 64);
    ASSERT_IMEX(imex_l0_interop_kernel_execute(scale.get(), stream.get(), 3, scaleArgs, &range, 1,
                                               &up, &scaled));
    ASSERT_IMEX(imex_l0_interop_kernel_execute(add.get(), stream.get(), 3, addArgs, &range, 1,
                                               &scaled, &added));
    ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), result.get(), c.get(), n * sizeof(float), 1,
                                       &added, &down));
    ASSERT_ZE(zeEventHostSynchronize(down, UINT64_MAX));
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(result.as<float>()[i], 3.0f * float(i)) << i;
    // Every earlier event is signaled too (each completed before its successor).
    for (auto e : {up, scaled, added})
        EXPECT_ZE(zeEventQueryStatus(e));
    for (auto e : {up, scaled, added, down})
        release(e);
}

TEST_F(EventsTest, FanInGatedByAUserEvent) {
    // start (the framework's, host-signaled) -> {scale: b = 3a, copy: c = a}
    // -> add: out = b + c. Nothing may run before the framework says so.
    UserEvents user = newEvents(1);
    ze_event_handle_t start = user[0];
    Kernel scale = fromSource("scale");
    Kernel add = fromSource("add");
    constexpr size_t n = 1000;
    UsmBuffer a = allocShared(n * sizeof(float)), b = allocShared(n * sizeof(float)),
              c = allocShared(n * sizeof(float)), out = allocShared(n * sizeof(float));
    for (size_t i = 0; i < n; ++i) {
        a.as<float>()[i] = float(i) - 500.0f;
        out.as<float>()[i] = -1.0f;
    }
    float three = 3.0f;
    imex_l0_exec_arg_t scaleArgs[] = {usmArg(a.get()), usmArg(b.get()), valueArg(three)};
    imex_l0_exec_arg_t addArgs[] = {usmArg(b.get()), usmArg(c.get()), usmArg(out.get())};
    imex_l0_range_t range = range1d(n, 0);
    ze_event_handle_t scaled = nullptr, copied = nullptr, added = nullptr;
    ASSERT_IMEX(imex_l0_interop_kernel_execute(scale.get(), stream.get(), 3, scaleArgs, &range, 1,
                                               &start, &scaled));
    ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), c.get(), a.get(), n * sizeof(float), 1,
                                       &start, &copied));
    ze_event_handle_t both[2] = {scaled, copied};
    ASSERT_IMEX(imex_l0_interop_kernel_execute(add.get(), stream.get(), 3, addArgs, &range, 2,
                                               both, &added));

    // Gated: none of the three can have run.
    EXPECT_EQ(zeEventQueryStatus(scaled), ZE_RESULT_NOT_READY);
    EXPECT_EQ(zeEventQueryStatus(copied), ZE_RESULT_NOT_READY);
    EXPECT_EQ(zeEventQueryStatus(added), ZE_RESULT_NOT_READY);
    EXPECT_EQ(out.as<float>()[0], -1.0f);

    ASSERT_ZE(zeEventHostSignal(start));
    ASSERT_ZE(zeEventHostSynchronize(added, UINT64_MAX));
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out.as<float>()[i], 4.0f * (float(i) - 500.0f)) << i;
    for (auto e : {scaled, copied, added})
        release(e);
    // The framework's event is still its own: it resets and signals again.
    EXPECT_ZE(zeEventHostReset(start));
    EXPECT_EQ(zeEventQueryStatus(start), ZE_RESULT_NOT_READY);
}

TEST_F(EventsTest, WaitsOnAnEventTheFrameworksOwnCommandSignals) {
    // The framework appends its own signal command to its list; a library
    // fill depends on that event. stream_wait returns after both fills.
    UserEvents user = newEvents(1);
    UsmBuffer data = allocShared(4096);
    std::memset(data.get(), 0, data.size());
    uint8_t one = 1, two = 2;
    ASSERT_IMEX(imex_l0_interop_memset(stream.get(), data.get(), &one, 1, 2048, 0, nullptr,
                                       nullptr));
    // The framework appends its own signal on its list; the library's fill waits on it.
    ASSERT_ZE(zeCommandListAppendSignalEvent(list.get(), user[0]));
    ze_event_handle_t gate = user[0];
    ASSERT_IMEX(imex_l0_interop_memset(stream.get(), data.as<uint8_t>() + 2048, &two, 1, 2048, 1,
                                       &gate, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (size_t i = 0; i < 4096; ++i)
        ASSERT_EQ(data.as<uint8_t>()[i], i < 2048 ? 1 : 2) << i;
}

TEST_F(EventsTest, EventsCrossStreamsAndEnginesOfOneContext) {
    // "pass it as a dependency anywhere in the same context": another stream
    // of the engine, a stream of another engine, and the framework's own list.
    Engine other;
    ASSERT_IMEX(imex_l0_interop_engine_create(other.out(), driver, device, context.get()));
    Stream owned, otherStream;
    ASSERT_IMEX(imex_l0_stream_create(owned.out(), engine.get()));
    ASSERT_IMEX(imex_l0_stream_create(otherStream.out(), other.get()));
    Kernel inc = fromSource("increment");
    Kernel otherInc;
    ASSERT_IMEX(imex_l0_kernel_create_from_source(otherInc.out(), other.get(),
                                                  kernelSource().c_str(), "increment", nullptr, 0,
                                                  nullptr));
    UserEvents gate = newEvents(2);
    UsmBuffer data = allocShared(64 * sizeof(int));
    std::memset(data.get(), 0, data.size());
    int *d = data.as<int>();
    ze_event_handle_t e1 = increment(inc.get(), stream.get(), d, 64, {gate[0]});
    ze_event_handle_t e2 = increment(inc.get(), owned.get(), d, 64, {e1});
    ze_event_handle_t e3 = increment(otherInc.get(), otherStream.get(), d, 64, {e2});
    // The framework's own list waits on the library's event, then signals its own.
    ASSERT_ZE(zeCommandListAppendWaitOnEvents(list.get(), 1, &e3));
    ASSERT_ZE(zeCommandListAppendSignalEvent(list.get(), gate[1]));
    EXPECT_EQ(zeEventQueryStatus(gate[1]), ZE_RESULT_NOT_READY);
    ASSERT_ZE(zeEventHostSignal(gate[0]));
    ASSERT_ZE(zeEventHostSynchronize(gate[1], UINT64_MAX));
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(d[i], 3) << i;
    release(e1);
    release(e2);
    // An event goes back to the engine that handed it out, not another one.
    EXPECT_INVALID(imex_l0_event_release(engine.get(), e3), "event");
    EXPECT_IMEX(imex_l0_event_release(other.get(), e3));
    otherInc.reset();
    otherStream.reset();
}

TEST_F(EventsTest, ReleaseRules) {
    UsmBuffer data = allocShared(16);
    uint8_t zero = 0;
    ze_event_handle_t e = nullptr;
    ASSERT_IMEX(imex_l0_interop_memset(stream.get(), data.get(), &zero, 1, 16, 0, nullptr, &e));
    ASSERT_ZE(zeEventHostSynchronize(e, UINT64_MAX));
    ASSERT_IMEX(imex_l0_event_release(engine.get(), e));
    EXPECT_INVALID(imex_l0_event_release(engine.get(), e), "released");

    UserEvents user = newEvents(1);
    EXPECT_INVALID(imex_l0_event_release(engine.get(), user[0]), "event");
    // The refused release did not touch the framework's event.
    ASSERT_ZE(zeEventHostSignal(user[0]));
    EXPECT_ZE(zeEventQueryStatus(user[0]));

    EXPECT_INVALID(imex_l0_event_release(engine.get(), nullptr), "event");
    EXPECT_INVALID(imex_l0_event_release(nullptr, user[0]), "engine");
    EXPECT_INVALID(imex_l0_event_release(reinterpret_cast<imex_l0_engine_t>(stream.get()), e),
                   "engine");
}

TEST_F(EventsTest, RecycledEventsStartUnsignaled) {
    // A released (signaled) event handed out again must not look complete
    // before its new submission ran: gate the new submission and check.
    Stream owned;
    ASSERT_IMEX(imex_l0_stream_create(owned.out(), engine.get()));
    UsmBuffer data = allocShared(64);
    uint8_t v = 1;
    std::set<ze_event_handle_t> released;
    for (int i = 0; i < 8; ++i) {
        ze_event_handle_t e = nullptr;
        ASSERT_IMEX(imex_l0_interop_memset(owned.get(), data.get(), &v, 1, 64, 0, nullptr, &e));
        ASSERT_ZE(zeEventHostSynchronize(e, UINT64_MAX));
        release(e);
        released.insert(e);
    }
    UserEvents gate = newEvents(1);
    ze_event_handle_t gateEvent = gate[0];
    ze_event_handle_t again = nullptr;
    ASSERT_IMEX(
        imex_l0_interop_memset(stream.get(), data.get(), &v, 1, 64, 1, &gateEvent, &again));
    EXPECT_TRUE(released.count(again)) << "the pool handed out a new event instead of recycling";
    EXPECT_EQ(zeEventQueryStatus(again), ZE_RESULT_NOT_READY);
    ASSERT_ZE(zeEventHostSignal(gateEvent));
    ASSERT_ZE(zeEventHostSynchronize(again, UINT64_MAX));
    release(again);
}

TEST_F(EventsTest, ReleasingAPendingEventKeepsItsDependentsWaiting) {
    // The framework drops its reference to a producer's event as soon as the
    // consumer is submitted (as with clReleaseEvent). The consumer must still
    // wait for the producer, even if the pool hands the handle out again to
    // unrelated work that completes first.
    Stream owned;
    ASSERT_IMEX(imex_l0_stream_create(owned.out(), engine.get()));
    Kernel inc = fromSource("increment");
    UserEvents gate = newEvents(1);
    UsmBuffer data = allocShared(16 * sizeof(int)), other = allocShared(64);
    std::memset(data.get(), 0, data.size());
    ze_event_handle_t producer = increment(inc.get(), stream.get(), data.as<int>(), 16, {gate[0]});
    ze_event_handle_t consumer = increment(inc.get(), stream.get(), data.as<int>(), 16, {producer});
    ASSERT_IMEX(imex_l0_event_release(engine.get(), producer));
    // Unrelated, ungated work on another stream takes events from the pool.
    uint8_t v = 3;
    std::vector<ze_event_handle_t> unrelated;
    for (int i = 0; i < 4; ++i) {
        ze_event_handle_t e = nullptr;
        ASSERT_IMEX(imex_l0_interop_memset(owned.get(), other.get(), &v, 1, 64, 0, nullptr, &e));
        unrelated.push_back(e);
    }
    for (auto e : unrelated)
        ASSERT_ZE(zeEventHostSynchronize(e, UINT64_MAX));
    // The gate is still closed: neither launch may have run.
    EXPECT_EQ(zeEventQueryStatus(consumer), ZE_RESULT_NOT_READY);
    EXPECT_EQ(data.as<int>()[0], 0);
    ASSERT_ZE(zeEventHostSignal(gate[0]));
    ASSERT_ZE(zeEventHostSynchronize(consumer, UINT64_MAX));
    for (int i = 0; i < 16; ++i)
        ASSERT_EQ(data.as<int>()[i], 2) << i;
    release(consumer);
    for (auto e : unrelated)
        release(e);
}

TEST_F(EventsTest, ReleasingAPendingEventDoesNotSignalItsNextOwner) {
    // A pending event released early must not be handed out while its
    // submission can still signal it: the next owner would see its own
    // (gated) work as complete.
    Stream owned;
    ASSERT_IMEX(imex_l0_stream_create(owned.out(), engine.get()));
    UserEvents gates = newEvents(2);
    UsmBuffer a = allocShared(64), b = allocShared(64);
    std::memset(a.get(), 0, 64);
    std::memset(b.get(), 0, 64);
    uint8_t one = 1, two = 2;
    ze_event_handle_t gate0 = gates[0], gate1 = gates[1];
    ze_event_handle_t early = nullptr, later = nullptr;
    ASSERT_IMEX(imex_l0_interop_memset(stream.get(), a.get(), &one, 1, 64, 1, &gate0, &early));
    ASSERT_IMEX(imex_l0_event_release(engine.get(), early));
    ASSERT_IMEX(imex_l0_interop_memset(owned.get(), b.get(), &two, 1, 64, 1, &gate1, &later));
    // Let the first fill run to completion; the second stays gated.
    ASSERT_ZE(zeEventHostSignal(gate0));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    EXPECT_EQ(a.as<uint8_t>()[63], 1);
    EXPECT_EQ(zeEventQueryStatus(later), ZE_RESULT_NOT_READY)
        << "the event of gated work reads as signaled"
        << (later == early ? " (it is the released pending event, recycled)" : "");
    EXPECT_EQ(b.as<uint8_t>()[0], 0);
    ASSERT_ZE(zeEventHostSignal(gate1));
    ASSERT_ZE(zeEventHostSynchronize(later, UINT64_MAX));
    ASSERT_IMEX(imex_l0_stream_wait(owned.get()));
    EXPECT_EQ(b.as<uint8_t>()[63], 2);
    release(later);
}

TEST_F(EventsTest, ThousandLaunchesRecycleTheirEvents) {
    // Steady state: launch, wait, release. After a warm-up, no launch may
    // get an event the pool did not already have (no growth), and every
    // launch ran (the read-modify-write kernel counts them).
    Stream owned;
    ASSERT_IMEX(imex_l0_stream_create(owned.out(), engine.get()));
    Kernel inc = fromSpirv("increment");
    UsmBuffer data = allocShared(32 * sizeof(int));
    std::memset(data.get(), 0, data.size());
    constexpr int kLaunches = 1000, kWarmUp = 100;
    std::set<ze_event_handle_t> warm, later;
    for (int i = 0; i < kLaunches; ++i) {
        ze_event_handle_t e = increment(inc.get(), owned.get(), data.as<int>(), 32);
        ASSERT_NE(e, nullptr);
        ASSERT_ZE(zeEventHostSynchronize(e, UINT64_MAX));
        (i < kWarmUp ? warm : later).insert(e);
        ASSERT_IMEX(imex_l0_event_release(engine.get(), e));
    }
    for (auto e : later)
        EXPECT_TRUE(warm.count(e)) << "event " << e << " is new after the warm-up: the pool grew";
    for (int i = 0; i < 32; ++i)
        ASSERT_EQ(data.as<int>()[i], kLaunches) << i;
}

TEST_F(EventsTest, ThousandLaunchesInBatchesRecycleTheirEvents) {
    // Up to 100 events outstanding at once (the pool must grow past any one
    // Level Zero pool chunk), released per batch; later batches reuse them.
    Stream owned;
    ASSERT_IMEX(imex_l0_stream_create(owned.out(), engine.get()));
    Kernel inc = fromSource("increment");
    UsmBuffer data = allocShared(16 * sizeof(int));
    std::memset(data.get(), 0, data.size());
    constexpr int kBatches = 10, kBatch = 100;
    std::set<ze_event_handle_t> first, seen;
    for (int b = 0; b < kBatches; ++b) {
        std::vector<ze_event_handle_t> batch;
        for (int i = 0; i < kBatch; ++i) {
            batch.push_back(increment(inc.get(), owned.get(), data.as<int>(), 16));
            ASSERT_NE(batch.back(), nullptr);
        }
        std::set<ze_event_handle_t> distinct(batch.begin(), batch.end());
        EXPECT_EQ(distinct.size(), size_t(kBatch)) << "an outstanding event was handed out twice";
        ASSERT_ZE(zeEventHostSynchronize(batch.back(), UINT64_MAX));
        for (auto e : batch) {
            EXPECT_ZE(zeEventQueryStatus(e)); // in order: all earlier ones are done
            ASSERT_IMEX(imex_l0_event_release(engine.get(), e));
        }
        if (b == 0) {
            first = distinct;
            continue;
        }
        for (auto e : distinct)
            EXPECT_TRUE(first.count(e)) << "batch " << b << ": the pool grew";
    }
    for (int i = 0; i < 16; ++i)
        ASSERT_EQ(data.as<int>()[i], kBatches * kBatch) << i;
}

} // namespace

namespace {

// An event a regular list signals belongs to that list until it is reset: a
// replay of the list must not complete a later submission that took the
// released event from the pool.
TEST_F(EventsTest, ReplayOfARegularListCompletesNoRecycledEvent) {
    ZeList regular = newRegularList();
    ZeQueue queue = newQueue();
    Stream recorded;
    ASSERT_IMEX(imex_l0_interop_stream_create_regular(recorded.out(), engine.get(), regular.get(),
                                                      nullptr));
    Kernel inc = fromSource("increment");
    UsmBuffer data = allocShared(sizeof(int)), other = allocShared(sizeof(int));
    data.as<int>()[0] = other.as<int>()[0] = 0;
    ze_event_handle_t baked = increment(inc.get(), recorded.get(), data.as<int>(), 1);
    ASSERT_NE(baked, nullptr);
    // The framework runs its list once, then the event is released.
    ze_command_list_handle_t lists[] = {regular.get()};
    ASSERT_ZE(zeCommandListClose(regular.get()));
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue.get(), 1, lists, nullptr));
    ASSERT_ZE(zeCommandQueueSynchronize(queue.get(), UINT64_MAX));
    ASSERT_EQ(data.as<int>()[0], 1);
    release(baked);
    // A launch gated by the framework's event takes an event from the pool.
    UserEvents gate = newEvents(1);
    ze_event_handle_t gated = increment(inc.get(), stream.get(), other.as<int>(), 1, {gate[0]});
    ASSERT_NE(gated, nullptr);
    // The framework replays its list: that must not complete the gated launch.
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue.get(), 1, lists, nullptr));
    ASSERT_ZE(zeCommandQueueSynchronize(queue.get(), UINT64_MAX));
    ASSERT_EQ(data.as<int>()[0], 2);
    EXPECT_EQ(zeEventQueryStatus(gated), ZE_RESULT_NOT_READY)
        << "the replay signaled the event of a launch that has not run";
    ASSERT_ZE(zeEventHostSignal(gate[0]));
    ASSERT_ZE(zeEventHostSynchronize(gated, UINT64_MAX));
    EXPECT_EQ(other.as<int>()[0], 1);
    release(gated);
    // Once the owner has reset its list, the parked event is recycled.
    ASSERT_ZE(zeCommandListReset(regular.get()));
    ASSERT_IMEX(imex_l0_interop_stream_list_reset(recorded.get()));
    bool reused = false;
    for (int i = 0; i < 4 && !reused; ++i) {
        ze_event_handle_t e = increment(inc.get(), stream.get(), other.as<int>(), 1);
        ASSERT_ZE(zeEventHostSynchronize(e, UINT64_MAX));
        reused = e == baked;
        release(e);
    }
    EXPECT_TRUE(reused) << "the event stayed parked after the list was reset";
    EXPECT_INVALID(imex_l0_interop_stream_list_reset(stream.get()), "not over a regular list");
}

// Released before its list ran, an event of a regular list neither blocks the
// stream's wait nor signals anyone else's work.
TEST_F(EventsTest, EventOfARegularListReleasedBeforeItRan) {
    ZeList regular = newRegularList();
    ZeQueue queue = newQueue();
    Stream recorded;
    ASSERT_IMEX(imex_l0_interop_stream_create_regular(recorded.out(), engine.get(), regular.get(),
                                                      queue.get()));
    Kernel inc = fromSource("increment");
    UsmBuffer data = allocShared(sizeof(int));
    data.as<int>()[0] = 0;
    ze_event_handle_t early = increment(inc.get(), recorded.get(), data.as<int>(), 1);
    release(early);
    ze_event_handle_t next = increment(inc.get(), recorded.get(), data.as<int>(), 1, {});
    EXPECT_NE(next, early);
    ASSERT_IMEX(imex_l0_stream_wait(recorded.get()));
    EXPECT_EQ(data.as<int>()[0], 2);
    release(next);
}

} // namespace
