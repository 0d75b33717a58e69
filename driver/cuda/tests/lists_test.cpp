// Queues, lists, events and fences on libze_cuda.so, through the system
// loader (the CUDA driver alone): copies between host and device memory,
// fills of every pattern size on unaligned ranges, region copies, regular
// lists replayed with fences, immediate lists in both modes, events set by
// the host releasing work a stream waits for, events of work queued back to
// back set in order, barriers gated by their events, resets, timestamps. Device
// memory is only ever read back through copies. Without an NVIDIA GPU every
// test says it skipped.
#include "cuda_test.hpp"

#include <atomic>
#include <chrono>
#include <cstring>
#include <future>
#include <thread>

namespace zetest {
namespace {

using CudaLists = WithCudaLists;

TEST_F(CudaLists, CopiesThroughDeviceMemoryKeepEveryByte) {
    constexpr size_t n = 16 << 20; // 64 MiB of words
    uint32_t *in = host<uint32_t>(n), *out = host<uint32_t>(n);
    uint32_t *d = device<uint32_t>(n);
    for (size_t i = 0; i < n; ++i) {
        in[i] = uint32_t(i * 2654435761u);
        out[i] = 0;
    }
    ze_event_handle_t copied = event();
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, d, in, n * 4, copied, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, out, d, n * 4, nullptr, 1, &copied));
    sync(list_);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], in[i]) << i;
    // Plain host memory (malloc) works too.
    std::vector<uint32_t> back(1024, 0);
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryCopy(list_, back.data(), d, 4096, nullptr, 0, nullptr));
    sync(list_);
    for (size_t i = 0; i < back.size(); ++i)
        ASSERT_EQ(back[i], in[i]) << i;
}

// Every pattern size the queue group offers, on a range that starts off
// its alignment and is not a whole number of repetitions.
TEST_F(CudaLists, FillsOfEveryPatternSize) {
    uint32_t count = 1;
    ze_command_queue_group_properties_t group = {
        ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetCommandQueueGroupProperties(device_, &count, &group));
    constexpr size_t bytes = 100003, offset = 3;
    uint8_t *d = device<uint8_t>(bytes + 64);
    uint8_t *out = host<uint8_t>(bytes + 64);
    for (size_t size = 1; size <= group.maxMemoryFillPatternSize; size *= 2) {
        SCOPED_TRACE(size);
        std::vector<uint8_t> pattern(size);
        for (size_t i = 0; i < size; ++i)
            pattern[i] = uint8_t(0x11 * (i + 1) + size);
        uint8_t zero = 0;
        ASSERT_ZE_SUCCESS(
            zeCommandListAppendMemoryFill(list_, d, &zero, 1, bytes + 64, nullptr, 0, nullptr));
        ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, d + offset, pattern.data(), size,
                                                        bytes, nullptr, 0, nullptr));
        ASSERT_ZE_SUCCESS(
            zeCommandListAppendMemoryCopy(list_, out, d, bytes + 64, nullptr, 0, nullptr));
        sync(list_);
        for (size_t i = 0; i < bytes + 64; ++i) {
            uint8_t expected =
                i >= offset && i < offset + bytes ? pattern[(i - offset) % size] : 0;
            ASSERT_EQ(out[i], expected) << i;
        }
    }
}

TEST_F(CudaLists, RegionCopiesMoveTheirRectangle) {
    constexpr uint32_t w = 64, h = 32;
    uint8_t *src = host<uint8_t>(w * h), *out = host<uint8_t>(w * h);
    uint8_t *d = device<uint8_t>(w * h);
    for (uint32_t i = 0; i < w * h; ++i) {
        src[i] = uint8_t(i * 7);
        out[i] = 0;
    }
    uint8_t zero = 0;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, d, &zero, 1, w * h, nullptr, 0, nullptr));
    ze_copy_region_t from = {5, 3, 0, 20, 10, 1}, to = {30, 12, 0, 20, 10, 1};
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopyRegion(list_, d, &to, w, 0, src, &from, w, 0,
                                                          nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, out, d, w * h, nullptr, 0, nullptr));
    sync(list_);
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x < w; ++x) {
            bool inside = x >= 30 && x < 50 && y >= 12 && y < 22;
            uint8_t expected = inside ? src[(y - 12 + 3) * w + (x - 30 + 5)] : 0;
            ASSERT_EQ(out[y * w + x], expected) << x << "," << y;
        }
}

// Regions of whole-row slices (one pitched CUDA copy each, queue.cpp): a 3D
// box between host and device memory of different pitches, and a 2D region
// in a later slice, whose slice the copy folds into its start.
TEST_F(CudaLists, RegionCopiesOfSlicesKeepEveryByteInPlace) {
    constexpr uint32_t srcPitch = 48, srcRows = 10, dstPitch = 64, dstRows = 12, slices = 5;
    constexpr size_t srcSlice = srcPitch * srcRows, dstSlice = dstPitch * dstRows;
    uint8_t *src = host<uint8_t>(srcSlice * slices), *out = host<uint8_t>(dstSlice * slices);
    uint8_t *d = device<uint8_t>(dstSlice * slices);
    for (size_t i = 0; i < srcSlice * slices; ++i)
        src[i] = uint8_t(i * 13 + 1);
    const uint8_t blank = 0xEE;
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryFill(list_, d, &blank, 1, dstSlice * slices, nullptr, 0, nullptr));
    const ze_copy_region_t box = {3, 2, 1, 30, 6, 3}, boxTo = {7, 4, 0, 30, 6, 3};
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopyRegion(
        list_, d, &boxTo, dstPitch, dstSlice, src, &box, srcPitch, srcSlice, nullptr, 0, nullptr));
    const ze_copy_region_t flat = {0, 0, 4, 16, 3, 1}, flatTo = {40, 9, 4, 16, 3, 1};
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopyRegion(list_, d, &flatTo, dstPitch, dstSlice,
                                                          src, &flat, srcPitch, srcSlice, nullptr,
                                                          0, nullptr));
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryCopy(list_, out, d, dstSlice * slices, nullptr, 0, nullptr));
    sync(list_);
    std::vector<uint8_t> expected(dstSlice * slices, blank);
    for (const auto &[from, to] : {std::make_pair(box, boxTo), std::make_pair(flat, flatTo)})
        for (uint32_t z = 0; z < from.depth; ++z)
            for (uint32_t y = 0; y < from.height; ++y)
                for (uint32_t x = 0; x < from.width; ++x)
                    expected[(to.originZ + z) * dstSlice + (to.originY + y) * dstPitch +
                             to.originX + x] =
                        src[(from.originZ + z) * srcSlice + (from.originY + y) * srcPitch +
                            from.originX + x];
    for (size_t i = 0; i < expected.size(); ++i)
        ASSERT_EQ(out[i], expected[i])
            << "byte " << i << " (slice " << i / dstSlice << ", row " << i % dstSlice / dstPitch
            << ", column " << i % dstPitch << ")";
}

// A regular list replayed: each execution copies what the host buffer holds
// then; the fence and the queue's synchronize report each one.
TEST_F(CudaLists, RegularListsReplayWithFences) {
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    ze_command_queue_handle_t queue = nullptr;
    ASSERT_ZE_SUCCESS(zeCommandQueueCreate(context_, device_, &qd, &queue));
    ze_fence_desc_t fd = {ZE_STRUCTURE_TYPE_FENCE_DESC};
    ze_fence_handle_t fence = nullptr;
    ASSERT_ZE_SUCCESS(zeFenceCreate(queue, &fd, &fence));
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    ze_command_list_handle_t list = nullptr;
    ASSERT_ZE_SUCCESS(zeCommandListCreate(context_, device_, &ld, &list));
    constexpr size_t n = 1 << 20;
    uint32_t *in = host<uint32_t>(n), *out = host<uint32_t>(n);
    uint32_t *d = device<uint32_t>(n);
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list, d, in, n * 4, nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list, nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list, out, d, n * 4, nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list));
    for (uint32_t round = 0; round < 3; ++round) {
        for (size_t i = 0; i < n; ++i)
            in[i] = uint32_t(i + round * 1000);
        ASSERT_ZE_SUCCESS(zeFenceReset(fence));
        ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue, 1, &list, fence));
        ASSERT_ZE_SUCCESS(zeFenceHostSynchronize(fence, UINT64_MAX));
        EXPECT_ZE_SUCCESS(zeFenceQueryStatus(fence));
        for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(out[i], uint32_t(i + round * 1000)) << round << ":" << i;
    }
    EXPECT_ZE_SUCCESS(zeCommandQueueSynchronize(queue, UINT64_MAX));
    EXPECT_ZE_SUCCESS(zeCommandListDestroy(list));
    EXPECT_ZE_SUCCESS(zeFenceDestroy(fence));
    EXPECT_ZE_SUCCESS(zeCommandQueueDestroy(queue));
}

// Work on one list waits on the device for an event the host sets later;
// another list's signal and wait order work across lists.
TEST_F(CudaLists, StreamsWaitForEventsTheHostSets) {
    ze_command_list_handle_t other = immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    constexpr size_t n = 1 << 16;
    uint32_t *in = host<uint32_t>(n), *out = host<uint32_t>(n);
    uint32_t *d = device<uint32_t>(n);
    for (size_t i = 0; i < n; ++i) {
        in[i] = uint32_t(i ^ 0x5a5a);
        out[i] = 7;
    }
    ze_event_handle_t gate = event(), staged = event(), done = event();
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, d, in, n * 4, staged, 1, &gate));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(other, out, d, n * 4, done, 1, &staged));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(staged));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, 1000000));
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], 7u) << i;
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(done, UINT64_MAX));
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], in[i]) << i;
}

// A barrier with wait events is gated by those events alone: its signal
// comes once they are set, while work before it still waits for its own
// event; later work waits for both.
TEST_F(CudaLists, BarriersWithWaitEventsAreGatedByThoseEventsAlone) {
    constexpr size_t n = 1 << 12;
    uint32_t *in = host<uint32_t>(n), *out = host<uint32_t>(n);
    uint32_t *d = device<uint32_t>(n);
    for (size_t i = 0; i < n; ++i) {
        in[i] = uint32_t(i + 11);
        out[i] = 0;
    }
    ze_event_handle_t blocked = event(), gate = event(), passed = event(), after = event();
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, d, in, n * 4, nullptr, 1, &blocked));
    ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, passed, 1, &gate));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, out, d, n * 4, after, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(passed, 5000000000ull));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(after));
    EXPECT_EQ(out[0], 0u); // the copies still wait
    ASSERT_ZE_SUCCESS(zeEventHostSignal(blocked));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(after, UINT64_MAX));
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], in[i]) << i;
}

// Copies and fills with host memory, pinned or pageable (malloc), wait in
// stream order like any other work: appended behind an event the host has
// not set, each append returns at once, nothing moves before the event, and
// everything is right after it. Pageable memory larger than the driver's
// staging buffer goes through it in pieces.
TEST_F(CudaLists, CopiesWithHostMemoryNeverBlockTheAppend) {
    constexpr size_t n = (10 << 20) / 4; // 10 MiB of words: three staging pieces
    std::vector<uint32_t> in(n), back(n, 1), copied(n, 2), filled(1000, 3), fromDevice(1000, 4);
    for (size_t i = 0; i < n; ++i)
        in[i] = uint32_t(i * 2654435761u);
    uint32_t *d = device<uint32_t>(n), *pinnedIn = host<uint32_t>(1000),
             *pinnedOut = host<uint32_t>(1000);
    uint8_t *dFill = device<uint8_t>(4000);
    for (size_t i = 0; i < 1000; ++i) {
        pinnedIn[i] = uint32_t(7 * i);
        pinnedOut[i] = 5;
    }
    // 3998 bytes from an odd address: neither side is whole repetitions, so
    // the pattern goes to the device through the staging buffer.
    constexpr size_t fillBytes = 3998;
    const uint8_t pattern[4] = {0xa1, 0xb2, 0xc3, 0xd4};
    ze_event_handle_t gate = event();
    auto appends = std::async(std::launch::async, [&] {
        EXPECT_ZE_SUCCESS(
            zeCommandListAppendMemoryCopy(list_, d, in.data(), n * 4, nullptr, 1, &gate));
        EXPECT_ZE_SUCCESS(
            zeCommandListAppendMemoryCopy(list_, back.data(), d, n * 4, nullptr, 0, nullptr));
        EXPECT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, copied.data(), in.data(), n * 4,
                                                        nullptr, 0, nullptr));
        EXPECT_ZE_SUCCESS(
            zeCommandListAppendMemoryCopy(list_, pinnedOut, pinnedIn, 4000, nullptr, 0, nullptr));
        EXPECT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, filled.data(), pattern, 4,
                                                        fillBytes, nullptr, 0, nullptr));
        EXPECT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, dFill + 1, pattern, 4, fillBytes,
                                                        nullptr, 0, nullptr));
        EXPECT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, fromDevice.data(), dFill + 1,
                                                        fillBytes, nullptr, 0, nullptr));
    });
    if (appends.wait_for(std::chrono::seconds(10)) != std::future_status::ready)
        ADD_FAILURE() << "an append waited for the event";
    else
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(back[0], 1u);
    EXPECT_EQ(copied[0], 2u);
    EXPECT_EQ(pinnedOut[0], 5u);
    EXPECT_EQ(filled[0], 3u);
    // Whatever happened, nothing may still run when the buffers go away.
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    appends.wait();
    sync(list_);
    for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(back[i], in[i]) << i;
        ASSERT_EQ(copied[i], in[i]) << i;
    }
    const auto *f = reinterpret_cast<const uint8_t *>(filled.data());
    const auto *fd = reinterpret_cast<const uint8_t *>(fromDevice.data());
    for (size_t i = 0; i < fillBytes; ++i) {
        ASSERT_EQ(f[i], pattern[i % 4]) << i;
        ASSERT_EQ(fd[i], pattern[i % 4]) << i;
    }
    for (size_t i = 0; i < 1000; ++i)
        ASSERT_EQ(pinnedOut[i], 7 * i) << i;
}

// Work queued back to back while the device is behind signals its events
// from a second stream (queue.cpp, signalAfterWork): they are still set in
// the order of their work, each once its own work is done, so once the last
// is set every earlier one is too.
TEST_F(CudaLists, EventsOfWorkQueuedBackToBackAreSetInOrder) {
    constexpr size_t k = 32, n = 1 << 18; // 32 copies of 1 MiB
    uint32_t *in = host<uint32_t>(k * n), *out = host<uint32_t>(k * n);
    uint32_t *d = device<uint32_t>(k * n);
    for (size_t i = 0; i < k * n; ++i) {
        in[i] = uint32_t(i * 2246822519u);
        out[i] = 0;
    }
    ze_event_handle_t gate = event();
    std::vector<ze_event_handle_t> copied(k);
    for (size_t c = 0; c < k; ++c) {
        copied[c] = event();
        ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, d + c * n, in + c * n, n * 4,
                                                        copied[c], c == 0 ? 1 : 0, &gate));
    }
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(copied[0]));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(copied.back(), UINT64_MAX));
    for (size_t c = 0; c < k; ++c)
        EXPECT_ZE_SUCCESS(zeEventQueryStatus(copied[c])) << c;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, out, d, k * n * 4, nullptr, 0, nullptr));
    sync(list_);
    for (size_t i = 0; i < k * n; ++i)
        ASSERT_EQ(out[i], in[i]) << i;
}

TEST_F(CudaLists, EventsResetAndSignalAgain) {
    ze_event_handle_t e = event();
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(e));
    EXPECT_ZE_SUCCESS(zeEventQueryStatus(e));
    ASSERT_ZE_SUCCESS(zeEventHostReset(e));
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
    ASSERT_ZE_SUCCESS(zeCommandListAppendSignalEvent(list_, e));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(e, UINT64_MAX));
    ASSERT_ZE_SUCCESS(zeCommandListAppendEventReset(list_, e));
    sync(list_);
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(e));
    // A wait for an event that is never set times out instead of hanging.
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(e, 2000000));
}

// A synchronous immediate list has finished the copy when the append returns.
TEST_F(CudaLists, SynchronousImmediateListsFinishEachAppend) {
    ze_command_list_handle_t sync = immediate(ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS);
    constexpr size_t n = 1 << 20;
    uint32_t *in = host<uint32_t>(n), *out = host<uint32_t>(n);
    uint32_t *d = device<uint32_t>(n);
    for (size_t i = 0; i < n; ++i)
        in[i] = uint32_t(3 * i);
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(sync, d, in, n * 4, nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(sync, out, d, n * 4, nullptr, 0, nullptr));
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], in[i]) << i;
}

// Global timestamps are written by the host when the stream gets there.
TEST_F(CudaLists, GlobalTimestampsAreWrittenByTheHost) {
    uint64_t *stamps = host<uint64_t>(2);
    stamps[0] = stamps[1] = 0;
    ASSERT_ZE_SUCCESS(zeCommandListAppendWriteGlobalTimestamp(list_, stamps, nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendWriteGlobalTimestamp(list_, stamps + 1, nullptr, 0, nullptr));
    sync(list_);
    EXPECT_GT(stamps[0], 0u);
    EXPECT_GE(stamps[1], stamps[0]);
    // Written by the host: not into device memory.
    uint64_t *d = device<uint64_t>(1);
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
                     zeCommandListAppendWriteGlobalTimestamp(list_, d, nullptr, 0, nullptr));
}

// Threads that each replay a list waiting for an event the thread itself
// then sets, while another thread allocates and frees device and host memory:
// CUDA's cuMemFree and cuMemFreeHost wait for the whole device while holding
// CUDA's locks, so such a free used to hang every thread (memory_release.hpp).
// The waits have timeouts: a regression fails instead of hanging, where it
// hangs in a thread's own wait.
TEST_F(CudaLists, FreesWhileOtherThreadsWaitForTheirHostEventsDoNotHang) {
    constexpr int kThreads = 8, kIterations = 100;
    std::atomic<bool> running{true};
    std::atomic<int> failures{0};
    auto worker = [&] {
        ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
        ze_command_queue_handle_t queue = nullptr;
        ze_fence_handle_t fence = nullptr;
        ze_command_list_handle_t list = nullptr;
        ze_event_pool_handle_t pool = nullptr;
        ze_event_handle_t set = nullptr;
        ze_fence_desc_t fd = {ZE_STRUCTURE_TYPE_FENCE_DESC};
        ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
        ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                   ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
        ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                              ZE_EVENT_SCOPE_FLAG_HOST};
        ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        void *d = nullptr, *h = nullptr, *back = nullptr;
        if (zeCommandQueueCreate(context_, device_, &qd, &queue) ||
            zeFenceCreate(queue, &fd, &fence) ||
            zeCommandListCreate(context_, device_, &ld, &list) ||
            zeEventPoolCreate(context_, &pd, 0, nullptr, &pool) || zeEventCreate(pool, &ed, &set) ||
            zeMemAllocDevice(context_, &dd, 4096, 0, device_, &d) ||
            zeMemAllocHost(context_, &hd, 4096, 0, &h) ||
            zeMemAllocHost(context_, &hd, 4096, 0, &back)) {
            ++failures;
            return;
        }
        for (int i = 0; i < kIterations; ++i) {
            std::memset(h, i, 4096);
            ze_result_t r = ZE_RESULT_SUCCESS;
            r = r ? r : zeCommandListAppendWaitOnEvents(list, 1, &set);
            r = r ? r : zeCommandListAppendMemoryCopy(list, d, h, 4096, nullptr, 0, nullptr);
            r = r ? r : zeCommandListAppendBarrier(list, nullptr, 0, nullptr);
            r = r ? r : zeCommandListAppendMemoryCopy(list, back, d, 4096, nullptr, 0, nullptr);
            r = r ? r : zeCommandListClose(list);
            r = r ? r : zeCommandQueueExecuteCommandLists(queue, 1, &list, fence);
            r = r ? r : zeEventHostSignal(set);
            r = r ? r : zeFenceHostSynchronize(fence, 20'000'000'000ull);
            if (r != ZE_RESULT_SUCCESS || static_cast<uint8_t *>(back)[4095] != uint8_t(i)) {
                ++failures;
                break;
            }
            if (zeFenceReset(fence) || zeEventHostReset(set) || zeCommandListReset(list)) {
                ++failures;
                break;
            }
        }
        zeMemFree(context_, d);
        zeMemFree(context_, h);
        zeMemFree(context_, back);
        zeEventDestroy(set);
        zeEventPoolDestroy(pool);
        zeCommandListDestroy(list);
        zeFenceDestroy(fence);
        zeCommandQueueDestroy(queue);
    };
    std::thread allocator([&] {
        ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        while (running) {
            void *d = nullptr, *h = nullptr;
            if (zeMemAllocDevice(context_, &dd, 1 << 20, 0, device_, &d) == ZE_RESULT_SUCCESS)
                zeMemFree(context_, d);
            if (zeMemAllocHost(context_, &hd, 1 << 20, 0, &h) == ZE_RESULT_SUCCESS)
                zeMemFree(context_, h);
        }
    });
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back(worker);
    for (std::thread &t : threads)
        t.join();
    running = false;
    allocator.join();
    EXPECT_EQ(failures.load(), 0);
}

} // namespace
} // namespace zetest
