// Streams over the framework's immediate list, over its regular list with and
// without a queue, and library-owned ones; stream_wait; memcpy and memset
// through each, including odd sizes and every pattern size.
#include "interop_fixtures.hpp"

#include <numeric>

using namespace interop_test;

namespace {

class StreamTest : public WithEngine {};
class CopyTest : public WithStream {};

imex_l0_stream_t sentinelStream() { return reinterpret_cast<imex_l0_stream_t>(uintptr_t(0x5e5e)); }

// Host reference of a fill: `size` bytes, `pattern` repeated from byte 0.
std::vector<uint8_t> filled(const void *pattern, size_t patternSize, size_t size) {
    std::vector<uint8_t> out(size);
    for (size_t i = 0; i < size; ++i)
        out[i] = static_cast<const uint8_t *>(pattern)[i % patternSize];
    return out;
}

TEST_F(StreamTest, UserImmediateListIsWrappedAndSurvivesDestroy) {
    ZeList list = newImmediateList();
    imex_l0_stream_t stream = nullptr;
    ASSERT_IMEX(imex_l0_interop_stream_create(&stream, engine.get(), list.get()));
    ze_command_list_handle_t got = nullptr;
    ASSERT_IMEX(imex_l0_interop_stream_get_list(stream, &got));
    EXPECT_EQ(got, list.get());

    UsmBuffer src = allocShared(1000), dst = allocShared(1000);
    std::iota(src.as<uint8_t>(), src.as<uint8_t>() + 1000, 0);
    ASSERT_IMEX(imex_l0_interop_memcpy(stream, dst.get(), src.get(), 1000, 0, nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream));
    EXPECT_EQ(std::memcmp(dst.get(), src.get(), 1000), 0);
    ASSERT_IMEX(imex_l0_stream_destroy(stream));

    // The framework's list still runs its own appends.
    userFill(list.get(), dst.get(), 0x5a, 1000);
    for (size_t i = 0; i < 1000; ++i)
        ASSERT_EQ(dst.as<uint8_t>()[i], 0x5a);
    // ~ZeList checks zeCommandListDestroy succeeds: the library did not destroy it.
}

TEST_F(StreamTest, OwnedStreamHasItsOwnList) {
    Stream stream;
    ASSERT_IMEX(imex_l0_stream_create(stream.out(), engine.get()));
    ze_command_list_handle_t list = nullptr;
    ASSERT_IMEX(imex_l0_interop_stream_get_list(stream.get(), &list));
    EXPECT_NE(list, nullptr);

    UsmBuffer buffer = allocShared(256);
    uint16_t pattern = 0xbeef;
    ASSERT_IMEX(imex_l0_interop_memset(stream.get(), buffer.get(), &pattern, 2, 256, 0, nullptr,
                                       nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (size_t i = 0; i < 128; ++i)
        ASSERT_EQ(buffer.as<uint16_t>()[i], pattern);
    // Destroying it does not touch the engine's (user) context.
    stream.reset();
    UsmBuffer again = allocShared(64);
    EXPECT_NE(again.get(), nullptr);
}

TEST_F(StreamTest, OwnedStreamWaitWaitsForEverything) {
    // Many independent copies, then one wait: each must be complete after it.
    Stream stream;
    ASSERT_IMEX(imex_l0_stream_create(stream.out(), engine.get()));
    constexpr size_t kCopies = 64, kChunk = 4096;
    UsmBuffer src = allocHost(kCopies * kChunk), dst = allocShared(kCopies * kChunk);
    for (size_t i = 0; i < kCopies * kChunk; ++i)
        src.as<uint8_t>()[i] = uint8_t(i * 7 + 1);
    std::memset(dst.get(), 0, dst.size());
    for (size_t c = 0; c < kCopies; ++c)
        ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), dst.as<uint8_t>() + c * kChunk,
                                           src.as<uint8_t>() + c * kChunk, kChunk, 0, nullptr,
                                           nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    EXPECT_EQ(std::memcmp(dst.get(), src.get(), dst.size()), 0);
}

TEST_F(StreamTest, RegularListWithQueueRunsAtWait) {
    ZeList list = newRegularList();
    ZeQueue queue = newQueue();
    imex_l0_stream_t stream = nullptr;
    ASSERT_IMEX(
        imex_l0_interop_stream_create_regular(&stream, engine.get(), list.get(), queue.get()));
    ze_command_list_handle_t got = nullptr;
    ASSERT_IMEX(imex_l0_interop_stream_get_list(stream, &got));
    EXPECT_EQ(got, list.get());

    UsmBuffer buffer = allocShared(512);
    std::memset(buffer.get(), 0, 512);
    // Two rounds: wait closes, executes, synchronizes and resets the list, so
    // the stream is reusable.
    for (uint8_t round = 1; round <= 2; ++round) {
        ASSERT_IMEX(imex_l0_interop_memset(stream, buffer.get(), &round, 1, 512, 0, nullptr,
                                           nullptr));
        // Only recorded: a regular list runs when executed on a queue.
        EXPECT_EQ(buffer.as<uint8_t>()[0], uint8_t(round - 1));
        ASSERT_IMEX(imex_l0_stream_wait(stream));
        for (size_t i = 0; i < 512; ++i)
            ASSERT_EQ(buffer.as<uint8_t>()[i], round) << "round " << int(round) << " byte " << i;
    }
    ASSERT_IMEX(imex_l0_stream_destroy(stream));

    // The framework's list and queue still work: record, close, execute, sync.
    uint8_t value = 0x77;
    ASSERT_ZE(zeCommandListAppendMemoryFill(list.get(), buffer.get(), &value, 1, 512, nullptr, 0,
                                            nullptr));
    ASSERT_ZE(zeCommandListClose(list.get()));
    ze_command_list_handle_t l = list.get();
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue.get(), 1, &l, nullptr));
    ASSERT_ZE(zeCommandQueueSynchronize(queue.get(), UINT64_MAX));
    EXPECT_EQ(buffer.as<uint8_t>()[511], 0x77);
}

TEST_F(StreamTest, RegularListWithoutQueueIsExecutedByItsOwner) {
    ZeList list = newRegularList();
    imex_l0_stream_t stream = nullptr;
    ASSERT_IMEX(imex_l0_interop_stream_create_regular(&stream, engine.get(), list.get(), nullptr));

    UsmBuffer src = allocShared(333), dst = allocShared(333);
    for (size_t i = 0; i < 333; ++i)
        src.as<uint8_t>()[i] = uint8_t(i ^ 0x3c);
    std::memset(dst.get(), 0, 333);
    ze_event_handle_t copied = nullptr;
    ASSERT_IMEX(imex_l0_interop_memcpy(stream, dst.get(), src.get(), 333, 0, nullptr, &copied));
    ASSERT_NE(copied, nullptr);

    // Without a queue the library cannot execute the list: wait is refused
    // and says why, and the list stays open for its owner.
    EXPECT_INVALID(imex_l0_stream_wait(stream), "queue");

    ZeQueue queue = newQueue();
    ASSERT_ZE(zeCommandListClose(list.get()));
    ze_command_list_handle_t l = list.get();
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue.get(), 1, &l, nullptr));
    // The returned event reports the copy to the owner's execution.
    ASSERT_ZE(zeEventHostSynchronize(copied, UINT64_MAX));
    ASSERT_ZE(zeCommandQueueSynchronize(queue.get(), UINT64_MAX));
    EXPECT_EQ(std::memcmp(dst.get(), src.get(), 333), 0);
    ASSERT_IMEX(imex_l0_event_release(engine.get(), copied));
    ASSERT_IMEX(imex_l0_stream_destroy(stream));

    // The list is the owner's after destroy: it resets and records again.
    ASSERT_ZE(zeCommandListReset(list.get()));
    uint8_t value = 9;
    ASSERT_ZE(zeCommandListAppendMemoryFill(list.get(), dst.get(), &value, 1, 333, nullptr, 0,
                                            nullptr));
    ASSERT_ZE(zeCommandListClose(list.get()));
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue.get(), 1, &l, nullptr));
    ASSERT_ZE(zeCommandQueueSynchronize(queue.get(), UINT64_MAX));
    EXPECT_EQ(dst.as<uint8_t>()[332], 9);
}

// Level Zero cannot tell a list's kind: a regular list wrapped as immediate
// is only seen when its work never completes. The bounded wait turns that
// into imex_l0_timeout with a hint, and the work stays queued.
TEST_F(StreamTest, BoundedWaitReportsARegularListWrappedAsImmediate) {
    ZeList list = newRegularList();
    Stream stream;
    ASSERT_IMEX(imex_l0_interop_stream_create(stream.out(), engine.get(), list.get()));
    UsmBuffer buffer = allocShared(64);
    std::memset(buffer.get(), 0, 64);
    uint8_t value = 5;
    ASSERT_IMEX(imex_l0_interop_memset(stream.get(), buffer.get(), &value, 1, 64, 0, nullptr,
                                       nullptr));
    EXPECT_IMEX_STATUS(imex_l0_timeout, imex_l0_stream_wait_timeout(stream.get(), 50'000'000));
    EXPECT_NE(lastError().find("imex_l0_interop_stream_create_regular"), std::string::npos)
        << lastError();
    // Executed by its owner, the list runs the fill, and the next wait returns.
    ZeQueue queue = newQueue();
    ze_command_list_handle_t l = list.get();
    ASSERT_ZE(zeCommandListClose(l));
    ASSERT_ZE(zeCommandQueueExecuteCommandLists(queue.get(), 1, &l, nullptr));
    ASSERT_ZE(zeCommandQueueSynchronize(queue.get(), UINT64_MAX));
    EXPECT_EQ(buffer.as<uint8_t>()[63], 5);
}

// A dependency the framework never signals: the bounded wait says so instead
// of hanging, and once the event is signaled the same stream completes.
TEST_F(StreamTest, BoundedWaitOnAnUnsignaledDependency) {
    ZeList list = newImmediateList();
    Stream stream;
    ASSERT_IMEX(imex_l0_interop_stream_create(stream.out(), engine.get(), list.get()));
    UserEvents gate = newEvents(1);
    UsmBuffer buffer = allocShared(64);
    std::memset(buffer.get(), 0, 64);
    uint8_t value = 3;
    ze_event_handle_t deps[] = {gate[0]};
    ASSERT_IMEX(imex_l0_interop_memset(stream.get(), buffer.get(), &value, 1, 64, 1, deps,
                                       nullptr));
    EXPECT_IMEX_STATUS(imex_l0_timeout, imex_l0_stream_wait_timeout(stream.get(), 20'000'000));
    EXPECT_NE(lastError().find("never signaled"), std::string::npos) << lastError();
    ASSERT_ZE(zeEventHostSignal(gate[0]));
    ASSERT_IMEX(imex_l0_stream_wait_timeout(stream.get(), 10'000'000'000ull));
    EXPECT_EQ(buffer.as<uint8_t>()[63], 3);
}

// An immediate list given as a regular one: the wait says what is wrong
// instead of failing inside Level Zero.
TEST_F(StreamTest, ImmediateListWrappedAsRegularIsNamed) {
    ZeList list = newImmediateList();
    ZeQueue queue = newQueue();
    Stream stream;
    ASSERT_IMEX(imex_l0_interop_stream_create_regular(stream.out(), engine.get(), list.get(),
                                                      queue.get()));
    UsmBuffer buffer = allocShared(64);
    uint8_t value = 1;
    ze_event_handle_t filled = nullptr;
    ASSERT_IMEX(imex_l0_interop_memset(stream.get(), buffer.get(), &value, 1, 64, 0, nullptr,
                                       &filled));
    EXPECT_INVALID(imex_l0_stream_wait(stream.get()), "imex_l0_interop_stream_create");
    // The immediate list ran the fill at once: it ends before the buffer goes.
    ASSERT_ZE(zeEventHostSynchronize(filled, UINT64_MAX));
    EXPECT_EQ(buffer.as<uint8_t>()[63], 1);
    ASSERT_IMEX(imex_l0_event_release(engine.get(), filled));
}

TEST_F(StreamTest, CreateRejectsNullAndForeignHandles) {
    ZeList list = newImmediateList();
    imex_l0_stream_t stream = sentinelStream();
    EXPECT_INVALID(imex_l0_interop_stream_create(&stream, engine.get(), nullptr), "list");
    EXPECT_INVALID(imex_l0_interop_stream_create(&stream, nullptr, list.get()), "engine");
    EXPECT_INVALID(imex_l0_interop_stream_create(nullptr, engine.get(), list.get()), "stream");
    EXPECT_INVALID(imex_l0_interop_stream_create_regular(&stream, engine.get(), nullptr, nullptr),
                   "list");
    EXPECT_INVALID(imex_l0_interop_stream_create_regular(&stream, nullptr, list.get(), nullptr),
                   "engine");
    EXPECT_INVALID(imex_l0_stream_create(&stream, nullptr), "engine");
    EXPECT_INVALID(imex_l0_stream_create(nullptr, engine.get()), "stream");
    Memory memory = newMemory(imex_l0_memory_kind_host, 16);
    EXPECT_INVALID(
        imex_l0_stream_create(&stream, reinterpret_cast<imex_l0_engine_t>(memory.get())),
        "engine");
    EXPECT_EQ(stream, sentinelStream());
    // Refused creations left no child behind: the engine destroys cleanly.
    memory.reset();
    EXPECT_IMEX(imex_l0_engine_destroy(engine.release()));
}

TEST_F(StreamTest, CallsRejectNullAndWrongHandles) {
    Memory memory = newMemory(imex_l0_memory_kind_host, 16);
    auto notAStream = reinterpret_cast<imex_l0_stream_t>(memory.get());
    ze_command_list_handle_t list = nullptr;
    EXPECT_INVALID(imex_l0_interop_stream_get_list(nullptr, &list), "stream");
    EXPECT_INVALID(imex_l0_interop_stream_get_list(notAStream, &list), "stream");
    EXPECT_EQ(list, nullptr);
    EXPECT_INVALID(imex_l0_stream_wait(nullptr), "stream");
    EXPECT_INVALID(imex_l0_stream_wait(notAStream), "stream");
    EXPECT_INVALID(imex_l0_stream_destroy(nullptr), "stream");
    EXPECT_INVALID(imex_l0_stream_destroy(notAStream), "stream");
    void *p = ptrOf(memory.get());
    EXPECT_INVALID(imex_l0_interop_memcpy(nullptr, p, p, 1, 0, nullptr, nullptr), "stream");
    uint8_t zero = 0;
    EXPECT_INVALID(imex_l0_interop_memset(notAStream, p, &zero, 1, 1, 0, nullptr, nullptr),
                   "stream");
    // The memory object survived being mistaken for a stream.
    EXPECT_EQ(ptrOf(memory.get()), p);

    Stream stream;
    ASSERT_IMEX(imex_l0_stream_create(stream.out(), engine.get()));
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                       imex_l0_interop_stream_get_list(stream.get(), nullptr));
}

// ---------------------------------------------------------------- memcpy

TEST_F(CopyTest, MemcpyOddSizesBetweenEveryKind) {
    const size_t sizes[] = {1, 3, 7, 13, 1023, 4097, 65537};
    UsmBuffer host = allocHost(65537), shared = allocShared(65537), dev = allocDevice(65537),
              back = allocShared(65537);
    for (size_t size : sizes) {
        for (size_t i = 0; i < size; ++i)
            host.as<uint8_t>()[i] = uint8_t(i * 31 + size);
        std::memset(back.get(), 0, size + (size < 65537));
        // host -> device -> shared -> back, each step after the previous one.
        ze_event_handle_t e1 = nullptr, e2 = nullptr, e3 = nullptr;
        ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), dev.get(), host.get(), size, 0, nullptr,
                                           &e1));
        ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), shared.get(), dev.get(), size, 1, &e1,
                                           &e2));
        ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), back.get(), shared.get(), size, 1, &e2,
                                           &e3));
        ASSERT_ZE(zeEventHostSynchronize(e3, UINT64_MAX));
        EXPECT_EQ(std::memcmp(back.get(), host.get(), size), 0) << "size " << size;
        if (size < 65537) {
            EXPECT_EQ(back.as<uint8_t>()[size], 0) << "copied past the end, size " << size;
        }
        for (auto e : {e1, e2, e3})
            ASSERT_IMEX(imex_l0_event_release(engine.get(), e));
    }
}

TEST_F(CopyTest, MemcpyZeroBytesIsANoOp) {
    UsmBuffer a = allocShared(8), b = allocShared(8);
    std::memset(a.get(), 1, 8);
    std::memset(b.get(), 2, 8);
    ze_event_handle_t done = nullptr;
    ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), b.get(), a.get(), 0, 0, nullptr, &done));
    ASSERT_ZE(zeEventHostSynchronize(done, UINT64_MAX));
    EXPECT_EQ(b.as<uint8_t>()[0], 2);
    EXPECT_IMEX(imex_l0_event_release(engine.get(), done));
}

TEST_F(CopyTest, MemcpyRejectsNullPointersAndDeps) {
    UsmBuffer a = allocShared(8);
    ze_event_handle_t done = reinterpret_cast<ze_event_handle_t>(uintptr_t(0x5e5e));
    EXPECT_INVALID(imex_l0_interop_memcpy(stream.get(), nullptr, a.get(), 8, 0, nullptr, &done),
                   "dst");
    EXPECT_INVALID(imex_l0_interop_memcpy(stream.get(), a.get(), nullptr, 8, 0, nullptr, &done),
                   "src");
    EXPECT_INVALID(imex_l0_interop_memcpy(stream.get(), a.get(), a.get(), 8, 2, nullptr, &done),
                   "deps");
    ze_event_handle_t deps[2] = {nullptr, nullptr};
    EXPECT_INVALID(imex_l0_interop_memcpy(stream.get(), a.get(), a.get(), 8, 2, deps, &done),
                   "deps[0]");
    EXPECT_EQ(done, reinterpret_cast<ze_event_handle_t>(uintptr_t(0x5e5e)));
}

TEST_F(CopyTest, CopiesBeyondAUsmAllocationAreRefused) {
    // The extent of USM is known: a copy or fill past its end would touch
    // other memory, so it is refused before anything is appended.
    UsmBuffer small = allocShared(100), big = allocShared(200);
    std::memset(small.get(), 1, 100);
    std::memset(big.get(), 2, 200);
    ze_event_handle_t e = nullptr;
    EXPECT_INVALID(imex_l0_interop_memcpy(stream.get(), small.get(), big.get(), 101, 0, nullptr,
                                          &e),
                   "dst");
    EXPECT_INVALID(imex_l0_interop_memcpy(stream.get(), big.get(), small.get(), 101, 0, nullptr,
                                          &e),
                   "src");
    EXPECT_INVALID(imex_l0_interop_memcpy(stream.get(), big.as<char>() + 150, small.get(), 51, 0,
                                          nullptr, &e),
                   "dst");
    uint8_t zero = 0;
    EXPECT_INVALID(imex_l0_interop_memset(stream.get(), small.as<char>() + 1, &zero, 1, 100, 0,
                                          nullptr, &e),
                   "dst");
    EXPECT_INVALID(imex_l0_interop_memcpy(stream.get(), big.get(), small.get(), SIZE_MAX, 0,
                                          nullptr, &e),
                   "size");
    EXPECT_EQ(e, nullptr);
    // Nothing ran, and the exact extents are fine.
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    EXPECT_EQ(small.as<uint8_t>()[99], 1);
    EXPECT_EQ(big.as<uint8_t>()[199], 2);
    ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), big.as<char>() + 100, small.get(), 100, 0,
                                       nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    EXPECT_EQ(big.as<uint8_t>()[199], 1);
    EXPECT_EQ(big.as<uint8_t>()[99], 2);
}

// ---------------------------------------------------------------- memset

TEST_F(CopyTest, MemsetEveryPatternSizeAndOddLengths) {
    const uint8_t pattern[16] = {0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
                                 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32, 0x10};
    UsmBuffer dst = allocShared(4096 + 64);
    for (size_t patternSize : {1, 2, 4, 8, 16}) {
        // Whole repetitions of the pattern, including a single one and odd counts.
        for (size_t reps : {1, 3, 17, 255}) {
            size_t size = patternSize * reps;
            std::memset(dst.get(), 0xee, dst.size());
            ze_event_handle_t done = nullptr;
            ASSERT_IMEX(imex_l0_interop_memset(stream.get(), dst.get(), pattern, patternSize, size,
                                               0, nullptr, &done));
            ASSERT_ZE(zeEventHostSynchronize(done, UINT64_MAX));
            std::vector<uint8_t> expected = filled(pattern, patternSize, size);
            EXPECT_EQ(std::memcmp(dst.get(), expected.data(), size), 0)
                << "pattern " << patternSize << " x " << reps;
            EXPECT_EQ(dst.as<uint8_t>()[size], 0xee)
                << "filled past the end: pattern " << patternSize << " x " << reps;
            ASSERT_IMEX(imex_l0_event_release(engine.get(), done));
        }
    }
}

TEST_F(CopyTest, MemsetOddByteCountsAndOffsets) {
    UsmBuffer dst = allocDevice(4096), back = allocShared(4096);
    for (size_t size : {1, 5, 999, 4093}) {
        for (size_t offset : {0, 1, 3}) {
            uint8_t zero = 0, value = uint8_t(size + offset);
            ze_event_handle_t cleared = nullptr, set = nullptr, copied = nullptr;
            ASSERT_IMEX(imex_l0_interop_memset(stream.get(), dst.get(), &zero, 1, 4096, 0,
                                               nullptr, &cleared));
            size_t n = std::min(size, 4096 - offset);
            ASSERT_IMEX(imex_l0_interop_memset(stream.get(), dst.as<uint8_t>() + offset, &value,
                                               1, n, 1, &cleared, &set));
            ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), back.get(), dst.get(), 4096, 1, &set,
                                               &copied));
            ASSERT_ZE(zeEventHostSynchronize(copied, UINT64_MAX));
            for (size_t i = 0; i < 4096; ++i) {
                uint8_t expected = i >= offset && i < offset + n ? value : 0;
                ASSERT_EQ(back.as<uint8_t>()[i], expected)
                    << "size " << size << " offset " << offset << " byte " << i;
            }
            for (auto e : {cleared, set, copied})
                ASSERT_IMEX(imex_l0_event_release(engine.get(), e));
        }
    }
}

TEST_F(CopyTest, MemsetRejectsBadPatterns) {
    UsmBuffer dst = allocShared(64);
    const uint8_t pattern[16] = {};
    EXPECT_INVALID(imex_l0_interop_memset(stream.get(), dst.get(), pattern, 3, 63, 0, nullptr,
                                          nullptr),
                   "pattern_size");
    EXPECT_INVALID(imex_l0_interop_memset(stream.get(), dst.get(), pattern, 0, 64, 0, nullptr,
                                          nullptr),
                   "pattern_size");
    EXPECT_INVALID(imex_l0_interop_memset(stream.get(), dst.get(), pattern, 4, 63, 0, nullptr,
                                          nullptr),
                   "size");
    EXPECT_INVALID(imex_l0_interop_memset(stream.get(), dst.get(), nullptr, 1, 64, 0, nullptr,
                                          nullptr),
                   "pattern");
    EXPECT_INVALID(imex_l0_interop_memset(stream.get(), nullptr, pattern, 1, 64, 0, nullptr,
                                          nullptr),
                   "dst");
}

} // namespace
