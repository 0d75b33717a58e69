// Unified shared memory: allocation kinds and alignment, allocation
// properties and address ranges (also for pointers that are not USM), and
// copies/fills/region copies of odd sizes at odd offsets.
#include "ze_test_common.hpp"

#include <array>
#include <string>
#include <thread>
#include <set>

namespace zetest {
namespace {

class MemoryTest : public WithImmediateList {
  protected:
    uint32_t maxFillPatternSize() {
        uint32_t count = 1;
        ze_command_queue_group_properties_t p = {
            ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES};
        EXPECT_ZE_SUCCESS(zeDeviceGetCommandQueueGroupProperties(device_, &count, &p));
        return p.maxMemoryFillPatternSize;
    }
    // Reads `bytes` bytes of any USM kind into host memory via the device.
    std::vector<uint8_t> readBack(const void *src, size_t bytes) {
        UsmBuffer<uint8_t> staging;
        allocate(staging, UsmKind::Host, bytes);
        EXPECT_ZE_SUCCESS(
            zeCommandListAppendMemoryCopy(list_, staging.ptr(), src, bytes, nullptr, 0, nullptr));
        sync();
        return {staging.data(), staging.data() + bytes};
    }
};

TEST_F(MemoryTest, AllocationPropertiesOfEachKind) {
    struct Case {
        UsmKind kind;
        ze_memory_type_t type;
        bool hasDevice;
    };
    const Case cases[] = {{UsmKind::Host, ZE_MEMORY_TYPE_HOST, false},
                          {UsmKind::Device, ZE_MEMORY_TYPE_DEVICE, true},
                          {UsmKind::Shared, ZE_MEMORY_TYPE_SHARED, true}};
    std::set<uint64_t> ids;
    std::vector<UsmBuffer<uint8_t>> keep(3);
    for (size_t i = 0; i < 3; ++i) {
        const Case &c = cases[i];
        allocate(keep[i], c.kind, 4096);
        ze_memory_allocation_properties_t props = {
            ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        ze_device_handle_t owner = reinterpret_cast<ze_device_handle_t>(0x1);
        ASSERT_ZE_SUCCESS(zeMemGetAllocProperties(context_, keep[i].ptr(), &props, &owner));
        EXPECT_EQ(props.type, c.type) << "case " << i;
        if (c.hasDevice)
            EXPECT_EQ(owner, device_) << "case " << i;
        else
            EXPECT_EQ(owner, nullptr) << "host allocations belong to no device";
        EXPECT_TRUE(ids.insert(props.id).second) << "allocation ids must be unique";

        // An interior pointer belongs to the same allocation.
        ze_memory_allocation_properties_t inner = {
            ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        ASSERT_ZE_SUCCESS(
            zeMemGetAllocProperties(context_, keep[i].data() + 1000, &inner, nullptr));
        EXPECT_EQ(inner.type, c.type);
        EXPECT_EQ(inner.id, props.id);
    }
}

// Pointers the driver did not allocate are ZE_MEMORY_TYPE_UNKNOWN, as are
// pointers just past the end of an allocation and freed allocations.
TEST_F(MemoryTest, NonUsmPointersAreUnknown) {
    int onStack = 0;
    std::vector<int> onHeap(100);
    UsmBuffer<uint8_t> freed;
    allocate(freed, UsmKind::Shared, 64);
    const void *freedPtr = freed.ptr();
    freed.reset();
    for (const void *p : {static_cast<const void *>(&onStack),
                          static_cast<const void *>(onHeap.data() + 50), freedPtr}) {
        ze_memory_allocation_properties_t props = {
            ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        ze_device_handle_t owner = reinterpret_cast<ze_device_handle_t>(0x1);
        ASSERT_ZE_SUCCESS(zeMemGetAllocProperties(context_, p, &props, &owner));
        EXPECT_EQ(props.type, ZE_MEMORY_TYPE_UNKNOWN) << p;
        EXPECT_EQ(owner, nullptr) << p;
    }
}

TEST_F(MemoryTest, AddressRangeOfAnInteriorPointer) {
    for (UsmKind kind : {UsmKind::Host, UsmKind::Device, UsmKind::Shared}) {
        UsmBuffer<uint8_t> buffer;
        allocate(buffer, kind, 10007);
        for (size_t offset : {size_t(0), size_t(1), size_t(4096), size_t(10006)}) {
            void *base = nullptr;
            size_t size = 0;
            ASSERT_ZE_SUCCESS(zeMemGetAddressRange(context_, buffer.data() + offset, &base, &size));
            EXPECT_EQ(base, buffer.ptr()) << "offset " << offset;
            EXPECT_GE(size, buffer.size()) << "offset " << offset;
        }
        // Either output may be omitted.
        void *base = nullptr;
        ASSERT_ZE_SUCCESS(zeMemGetAddressRange(context_, buffer.data() + 5, &base, nullptr));
        EXPECT_EQ(base, buffer.ptr());
        size_t size = 0;
        ASSERT_ZE_SUCCESS(zeMemGetAddressRange(context_, buffer.data() + 5, nullptr, &size));
        EXPECT_GE(size, buffer.size());
    }
}

// The spec does not define the result for a non-USM pointer. Intel's
// compute-runtime returns an error (ZE_RESULT_ERROR_UNKNOWN); a driver must
// not crash and must not claim a range, so either an error or an empty range
// is accepted.
TEST_F(MemoryTest, AddressRangeOfANonUsmPointer) {
    int onStack = 0;
    void *base = reinterpret_cast<void *>(0x1);
    size_t size = 12345;
    const ze_result_t r = zeMemGetAddressRange(context_, &onStack, &base, &size);
    if (r == ZE_RESULT_SUCCESS) {
        EXPECT_EQ(base, nullptr);
        EXPECT_EQ(size, 0u);
    }
}

TEST_F(MemoryTest, AlignmentIsHonoured) {
    for (UsmKind kind : {UsmKind::Host, UsmKind::Device, UsmKind::Shared}) {
        for (size_t alignment : {size_t(1), size_t(8), size_t(64), size_t(256), size_t(4096),
                                 size_t(65536)}) {
            // Several allocations, so a lucky default alignment does not pass.
            std::array<UsmBuffer<uint8_t>, 4> buffers;
            for (size_t i = 0; i < buffers.size(); ++i) {
                allocate(buffers[i], kind, 24 + i * 40, alignment);
                EXPECT_EQ(reinterpret_cast<uintptr_t>(buffers[i].ptr()) % alignment, 0u)
                    << "alignment " << alignment << " allocation " << i;
            }
        }
    }
}

// The spec requires a power-of-two alignment (or 0 for the default).
TEST_F(MemoryTest, NonPowerOfTwoAlignmentIsRejected) {
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void *ptr = nullptr;
    const ze_result_t r = zeMemAllocDevice(context_, &desc, 64, 48, device_, &ptr);
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT, r);
    if (r == ZE_RESULT_SUCCESS) {
        EXPECT_ZE_SUCCESS(zeMemFree(context_, ptr));
    }
}

TEST_F(MemoryTest, AllocationBeyondTheMaximumIsRejected) {
    ze_device_properties_t props = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetProperties(device_, &props));
    ze_device_mem_alloc_desc_t desc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void *ptr = nullptr;
    const ze_result_t r =
        zeMemAllocDevice(context_, &desc, props.maxMemAllocSize + 1, 0, device_, &ptr);
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, r);
    if (r == ZE_RESULT_SUCCESS) {
        EXPECT_ZE_SUCCESS(zeMemFree(context_, ptr));
    }
}

// Copies between every pair of USM kinds, with odd sizes at odd offsets
// and the bytes around the destination range left untouched.
TEST_F(MemoryTest, CopyOddSizesAndOffsetsBetweenAllKinds) {
    constexpr size_t kBytes = 4099;
    const UsmKind kinds[] = {UsmKind::Host, UsmKind::Device, UsmKind::Shared};
    // Source data lives in USM host memory: copy pointers must be accessible
    // by the device, which system memory need not be.
    UsmBuffer<uint8_t> pattern, guard;
    allocate(pattern, UsmKind::Host, kBytes);
    allocate(guard, UsmKind::Host, kBytes);
    for (size_t i = 0; i < kBytes; ++i) {
        pattern[i] = static_cast<uint8_t>(i * 13 + 7);
        guard[i] = static_cast<uint8_t>(0xEE ^ i);
    }
    struct Span {
        size_t srcOffset, dstOffset, size;
    };
    const Span spans[] = {{0, 0, kBytes}, {1, 3, 1}, {3, 1, 7}, {5, 0, 1001}, {0, 17, 4082},
                          {7, 9, 63}};
    for (UsmKind srcKind : kinds) {
        for (UsmKind dstKind : kinds) {
            UsmBuffer<uint8_t> src, dst;
            allocate(src, srcKind, kBytes);
            allocate(dst, dstKind, kBytes);
            for (const Span &s : spans) {
                // Fill both through the device so device memory works too.
                ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, src.ptr(), pattern.data(),
                                                                kBytes, nullptr, 0, nullptr));
                ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, dst.ptr(), guard.data(),
                                                                kBytes, nullptr, 0, nullptr));
                ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(
                    list_, dst.data() + s.dstOffset, src.data() + s.srcOffset, s.size, nullptr, 0,
                    nullptr));
                ASSERT_NO_FATAL_FAILURE(sync());
                const std::vector<uint8_t> got = readBack(dst.ptr(), kBytes);
                for (size_t i = 0; i < kBytes; ++i) {
                    const bool inside = i >= s.dstOffset && i < s.dstOffset + s.size;
                    const uint8_t expected =
                        inside ? pattern[i - s.dstOffset + s.srcOffset] : guard[i];
                    ASSERT_EQ(got[i], expected)
                        << "kinds " << int(srcKind) << "->" << int(dstKind) << " span "
                        << s.srcOffset << "," << s.dstOffset << "," << s.size << " byte " << i;
                }
            }
        }
    }
}

// Fill with every power-of-two pattern size the queue group allows, at odd
// offsets and with sizes that are whole multiples of the pattern; the bytes
// around the filled range are untouched.
TEST_F(MemoryTest, FillEveryPatternSizeAtOddOffsets) {
    const uint32_t maxPattern = maxFillPatternSize();
    ASSERT_GE(maxPattern, 1u);
    constexpr size_t kBytes = 8192;
    UsmBuffer<uint8_t> guard;
    allocate(guard, UsmKind::Host, kBytes);
    for (size_t i = 0; i < kBytes; ++i)
        guard[i] = static_cast<uint8_t>(0x5A ^ (i * 3));
    for (UsmKind kind : {UsmKind::Device, UsmKind::Shared, UsmKind::Host}) {
        UsmBuffer<uint8_t> buffer;
        allocate(buffer, kind, kBytes);
        for (uint32_t patternSize = 1; patternSize <= maxPattern; patternSize *= 2) {
            std::vector<uint8_t> pattern(patternSize);
            for (uint32_t i = 0; i < patternSize; ++i)
                pattern[i] = static_cast<uint8_t>(0x10 + i * 7);
            for (size_t offset : {size_t(0), size_t(1), size_t(3), size_t(patternSize + 5)}) {
                const size_t size = patternSize * (patternSize > 32 ? 5 : 37);
                ASSERT_LE(offset + size, kBytes);
                ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, buffer.ptr(), guard.data(),
                                                                kBytes, nullptr, 0, nullptr));
                const ze_result_t r = zeCommandListAppendMemoryFill(
                    list_, buffer.data() + offset, pattern.data(), patternSize, size, nullptr, 0,
                    nullptr);
                // Finish the copy appended before, even when the fill was
                // refused: the buffer must not be freed under it.
                ASSERT_NO_FATAL_FAILURE(sync());
                ASSERT_ZE_SUCCESS(r) << "kind " << int(kind) << " pattern " << patternSize
                                     << " offset " << offset;
                const std::vector<uint8_t> got = readBack(buffer.ptr(), kBytes);
                for (size_t i = 0; i < kBytes; ++i) {
                    const bool inside = i >= offset && i < offset + size;
                    const uint8_t expected =
                        inside ? pattern[(i - offset) % patternSize] : guard[i];
                    ASSERT_EQ(got[i], expected) << "kind " << int(kind) << " pattern "
                                                << patternSize << " offset " << offset
                                                << " byte " << i;
                }
            }
        }
    }
}

// A fill whose size is not a multiple of the pattern repeats the pattern
// and truncates the last repetition. The spec does not require the size to
// be a multiple; Intel's driver fills the remainder with the leading bytes
// of the pattern, which is what frameworks rely on.
TEST_F(MemoryTest, FillSizeNotAMultipleOfThePattern) {
    const uint32_t maxPattern = maxFillPatternSize();
    constexpr size_t kBytes = 1024;
    UsmBuffer<uint8_t> buffer;
    allocate(buffer, UsmKind::Shared, kBytes);
    for (uint32_t patternSize = 2; patternSize <= maxPattern; patternSize *= 2) {
        std::vector<uint8_t> pattern(patternSize);
        for (uint32_t i = 0; i < patternSize; ++i)
            pattern[i] = static_cast<uint8_t>(0x80 + i);
        std::fill(buffer.data(), buffer.data() + kBytes, 0);
        const size_t size = patternSize * 3 + 1;
        ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, buffer.data() + 2, pattern.data(),
                                                        patternSize, size, nullptr, 0, nullptr))
            << "pattern " << patternSize;
        ASSERT_NO_FATAL_FAILURE(sync());
        for (size_t i = 0; i < kBytes; ++i) {
            const bool inside = i >= 2 && i < 2 + size;
            ASSERT_EQ(buffer[i], inside ? pattern[(i - 2) % patternSize] : 0)
                << "pattern " << patternSize << " byte " << i;
        }
    }
}

// 2D region copy (depth 0) between pitched buffers, at odd origins.
TEST_F(MemoryTest, CopyRegion2D) {
    constexpr uint32_t srcPitch = 67, srcRows = 13, dstPitch = 45, dstRows = 11;
    UsmBuffer<uint8_t> src, dst;
    allocate(src, UsmKind::Device, srcPitch * srcRows);
    allocate(dst, UsmKind::Shared, dstPitch * dstRows);
    UsmBuffer<uint8_t> srcHost;
    allocate(srcHost, UsmKind::Host, src.size());
    for (size_t i = 0; i < srcHost.size(); ++i)
        srcHost[i] = static_cast<uint8_t>(i * 5 + 1);
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, src.ptr(), srcHost.data(), src.size(),
                                                    nullptr, 0, nullptr));
    std::fill(dst.data(), dst.data() + dst.size(), 0xCC);

    const ze_copy_region_t srcRegion = {3, 2, 0, 29, 7, 0};
    const ze_copy_region_t dstRegion = {11, 1, 0, 29, 7, 0};
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopyRegion(list_, dst.ptr(), &dstRegion, dstPitch, 0,
                                                          src.ptr(), &srcRegion, srcPitch, 0,
                                                          nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    std::vector<uint8_t> expected(dst.size(), 0xCC);
    for (uint32_t y = 0; y < srcRegion.height; ++y)
        for (uint32_t x = 0; x < srcRegion.width; ++x)
            expected[(dstRegion.originY + y) * dstPitch + dstRegion.originX + x] =
                srcHost[(srcRegion.originY + y) * srcPitch + srcRegion.originX + x];
    for (size_t i = 0; i < expected.size(); ++i)
        ASSERT_EQ(dst[i], expected[i]) << "byte " << i << " (row " << i / dstPitch << ", col "
                                       << i % dstPitch << ")";
}

// 3D region copy with slice pitches larger than rows * pitch.
TEST_F(MemoryTest, CopyRegion3D) {
    constexpr uint32_t srcPitch = 40, srcSlice = 40 * 9 + 8, srcSlices = 6;
    constexpr uint32_t dstPitch = 33, dstSlice = 33 * 7, dstSlices = 5;
    UsmBuffer<uint8_t> src, dst;
    allocate(src, UsmKind::Shared, srcSlice * srcSlices);
    allocate(dst, UsmKind::Device, dstSlice * dstSlices);
    for (size_t i = 0; i < src.size(); ++i)
        src[i] = static_cast<uint8_t>(i * 11 + 3);
    const uint8_t initByte = 0x77;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, dst.ptr(), &initByte, 1, dst.size(),
                                                    nullptr, 0, nullptr));

    const ze_copy_region_t srcRegion = {5, 1, 1, 21, 6, 4};
    const ze_copy_region_t dstRegion = {2, 0, 1, 21, 6, 4};
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopyRegion(list_, dst.ptr(), &dstRegion, dstPitch,
                                                          dstSlice, src.ptr(), &srcRegion, srcPitch,
                                                          srcSlice, nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    const std::vector<uint8_t> got = readBack(dst.ptr(), dst.size());
    std::vector<uint8_t> expected(dst.size(), initByte);
    for (uint32_t z = 0; z < srcRegion.depth; ++z)
        for (uint32_t y = 0; y < srcRegion.height; ++y)
            for (uint32_t x = 0; x < srcRegion.width; ++x)
                expected[(dstRegion.originZ + z) * dstSlice + (dstRegion.originY + y) * dstPitch +
                         dstRegion.originX + x] =
                    src[(srcRegion.originZ + z) * srcSlice + (srcRegion.originY + y) * srcPitch +
                        srcRegion.originX + x];
    for (size_t i = 0; i < expected.size(); ++i)
        ASSERT_EQ(got[i], expected[i]) << "byte " << i;
}

// Shared and host allocations are directly usable by the host and by the
// device, in both directions, with the device work synchronised in between.
TEST_F(MemoryTest, HostAndDeviceSeeEachOthersWrites) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "basic"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "increment"));
    for (UsmKind kind : {UsmKind::Host, UsmKind::Shared}) {
        UsmBuffer<int> data;
        allocate(data, kind, 100);
        for (int round = 0; round < 3; ++round) {
            for (int i = 0; i < 100; ++i)
                data[i] = i * round;
            ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
            ASSERT_ZE_SUCCESS(launch(list_, kernel, {100, 1, 1}));
            ASSERT_NO_FATAL_FAILURE(sync());
            for (int i = 0; i < 100; ++i)
                ASSERT_EQ(data[i], i * round + 1);
        }
    }
}

// Plain host memory (malloc, new) is shared-system USM: a CPU device's
// kernels, copies and fills reach it, and the device says so.
TEST_F(MemoryTest, SystemMemoryIsUsableByKernelsCopiesAndFills) {
    ze_device_memory_access_properties_t access = {
        ZE_STRUCTURE_TYPE_DEVICE_MEMORY_ACCESS_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetMemoryAccessProperties(device_, &access));
    ASSERT_TRUE(access.sharedSystemAllocCapabilities & ZE_MEMORY_ACCESS_CAP_FLAG_RW)
        << "PoCL's CPU device runs kernels in this process";
    constexpr size_t n = 1000;
    std::vector<int> a(n), b(n), c(n, 0), copy(n, 0);
    for (size_t i = 0; i < n; ++i) {
        a[i] = testValue(i, 1);
        b[i] = testValue(i, 2);
    }
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "basic"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "vector_add", 8));
    int *pa = a.data(), *pb = b.data(), *pc = c.data();
    ASSERT_ZE_SUCCESS(setArgs(kernel, {byValue(pa), byValue(pb), byValue(pc)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(n / 8), 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, copy.data(), c.data(), n * sizeof(int),
                                                    nullptr, 0, nullptr));
    const int pattern = 0x5a5a5a5a;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, a.data(), &pattern, sizeof(pattern),
                                                    n / 2 * sizeof(int), nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (size_t i = 0; i < n; ++i) {
        ASSERT_EQ(copy[i], testValue(i, 1) + b[i]) << i;
        ASSERT_EQ(a[i], i < n / 2 ? pattern : testValue(i, 1)) << i;
    }
}

// Prefetch and advice are hints: accepted, with no effect on results.
TEST_F(MemoryTest, PrefetchAndAdviseAreAccepted) {
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, 1024);
    std::fill(data.data(), data.data() + 1024, 3);
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryPrefetch(list_, data.ptr(), data.bytes()));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemAdvise(list_, device_, data.ptr(), data.bytes(),
                                                   ZE_MEMORY_ADVICE_SET_READ_MOSTLY));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (int i = 0; i < 1024; ++i)
        ASSERT_EQ(data[i], 3);
}

// A shared allocation need not be associated with a device (hDevice is
// optional); it is still usable by the device.
TEST_F(MemoryTest, SharedAllocationWithoutADevice) {
    ze_device_mem_alloc_desc_t deviceDesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hostDesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    void *ptr = nullptr;
    ASSERT_ZE_SUCCESS(
        zeMemAllocShared(context_, &deviceDesc, &hostDesc, 64 * sizeof(int), 0, nullptr, &ptr));
    ASSERT_NE(ptr, nullptr);
    ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    EXPECT_ZE_SUCCESS(zeMemGetAllocProperties(context_, ptr, &props, nullptr));
    EXPECT_EQ(props.type, ZE_MEMORY_TYPE_SHARED);

    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "basic"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "increment"));
    int *data = static_cast<int *>(ptr);
    std::fill(data, data + 64, 9);
    EXPECT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 0, sizeof(ptr), &ptr));
    EXPECT_ZE_SUCCESS(launch(list_, kernel, {64, 1, 1}));
    sync();
    for (int i = 0; i < 64; ++i)
        EXPECT_EQ(data[i], 10) << "i=" << i;
    EXPECT_ZE_SUCCESS(zeMemFree(context_, ptr));
}

// Allocation bookkeeping is thread-safe: threads allocate, query and free
// concurrently, and every query answers for the caller's own allocation.
TEST_F(MemoryTest, ConcurrentAllocationsAndQueries) {
    constexpr int kThreads = 4, kRounds = 300;
    std::vector<std::string> errors(kThreads);
    auto body = [&](int t) {
        for (int i = 0; i < kRounds && errors[t].empty(); ++i) {
            const UsmKind kind = static_cast<UsmKind>((i + t) % 3);
            UsmBuffer<uint8_t> buffer;
            const size_t size = 32 + 97 * ((i * 7 + t) % 11);
            if (buffer.allocate(context_, device_, kind, size, 64) != ZE_RESULT_SUCCESS) {
                errors[t] = "allocation failed";
                break;
            }
            ze_memory_allocation_properties_t props = {
                ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
            void *base = nullptr;
            size_t rangeSize = 0;
            const ze_memory_type_t expected[] = {ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_DEVICE,
                                                 ZE_MEMORY_TYPE_SHARED};
            if (zeMemGetAllocProperties(context_, buffer.data() + size - 1, &props, nullptr) !=
                    ZE_RESULT_SUCCESS ||
                props.type != expected[static_cast<int>(kind)])
                errors[t] = "wrong properties in round " + std::to_string(i);
            else if (zeMemGetAddressRange(context_, buffer.data() + size / 2, &base,
                                          &rangeSize) != ZE_RESULT_SUCCESS ||
                     base != buffer.ptr() || rangeSize < size)
                errors[t] = "wrong address range in round " + std::to_string(i);
            else if (reinterpret_cast<uintptr_t>(buffer.ptr()) % 64 != 0)
                errors[t] = "misaligned in round " + std::to_string(i);
        }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back(body, t);
    for (auto &th : threads)
        th.join();
    for (int t = 0; t < kThreads; ++t)
        EXPECT_TRUE(errors[t].empty()) << "thread " << t << ": " << errors[t];
}

// Many allocations and frees: addresses are reused without stale
// bookkeeping (properties of a new allocation are its own).
TEST_F(MemoryTest, AllocateAndFreeRepeatedly) {
    for (int i = 0; i < 200; ++i) {
        UsmBuffer<uint8_t> buffer;
        const UsmKind kind = static_cast<UsmKind>(i % 3);
        allocate(buffer, kind, 64 + (i % 7) * 1000);
        ze_memory_allocation_properties_t props = {
            ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        ASSERT_ZE_SUCCESS(zeMemGetAllocProperties(context_, buffer.ptr(), &props, nullptr));
        const ze_memory_type_t expected[] = {ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_DEVICE,
                                             ZE_MEMORY_TYPE_SHARED};
        ASSERT_EQ(props.type, expected[i % 3]) << "allocation " << i;
        void *base = nullptr;
        size_t size = 0;
        ASSERT_ZE_SUCCESS(zeMemGetAddressRange(context_, buffer.data() + 63, &base, &size));
        ASSERT_EQ(base, buffer.ptr());
        ASSERT_GE(size, buffer.size());
    }
}

} // namespace
} // namespace zetest
