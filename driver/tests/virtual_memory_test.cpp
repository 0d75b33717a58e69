// Physical and virtual memory: reservations, physical memory mapped into
// them, access attributes, and kernels, copies and fills on mapped ranges.
// The host reads and writes mapped ranges through copies only: on a GPU they
// are device memory.
#include "ze_test_common.hpp"

#include <numeric>

namespace zetest {
namespace {

class VirtualMemoryTest : public WithImmediateList {
protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(WithImmediateList::SetUp());
        ASSERT_ZE_SUCCESS(zeVirtualMemQueryPageSize(context_, device_, 1, &page_));
        ASSERT_GT(page_, 0u);
    }
    void TearDown() override {
        for (ze_physical_mem_handle_t memory : physical_)
            EXPECT_ZE_SUCCESS(zePhysicalMemDestroy(context_, memory));
        for (auto [base, size] : reserved_)
            EXPECT_ZE_SUCCESS(zeVirtualMemFree(context_, base, size));
        WithImmediateList::TearDown();
    }
    // A start hint of its own: the 1.8.12 loader's validation layer refuses a
    // null start, which the specification allows. The hint is only a hint,
    // so any free range will do.
    uint8_t *reserve(size_t size) {
        void *base = nullptr;
        void *hint =
            reinterpret_cast<void *>(uintptr_t(0x600000000000) + reserved_.size() * 2 * size);
        EXPECT_ZE_SUCCESS(zeVirtualMemReserve(context_, hint, size, &base));
        if (base != nullptr)
            reserved_.emplace_back(base, size);
        return static_cast<uint8_t *>(base);
    }
    ze_physical_mem_handle_t physical(size_t size) {
        ze_physical_mem_desc_t desc = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, size};
        ze_physical_mem_handle_t memory = nullptr;
        EXPECT_ZE_SUCCESS(zePhysicalMemCreate(context_, device_, &desc, &memory));
        if (memory != nullptr)
            physical_.push_back(memory);
        return memory;
    }
    // `bytes` of `values` (repeated) copied to `at`.
    void write(void *at, size_t bytes, const std::vector<uint32_t> &values) {
        UsmBuffer<uint32_t> host;
        ASSERT_NO_FATAL_FAILURE(allocate(host, UsmKind::Host, bytes / 4));
        for (size_t i = 0; i < bytes / 4; ++i)
            host[i] = values[i % values.size()];
        ASSERT_ZE_SUCCESS(
            zeCommandListAppendMemoryCopy(list_, at, host.ptr(), bytes, nullptr, 0, nullptr));
        ASSERT_NO_FATAL_FAILURE(sync());
    }
    // `bytes` at `at`, copied out.
    std::vector<uint32_t> read(const void *at, size_t bytes) {
        UsmBuffer<uint32_t> host;
        allocate(host, UsmKind::Host, bytes / 4);
        EXPECT_ZE_SUCCESS(
            zeCommandListAppendMemoryCopy(list_, host.ptr(), at, bytes, nullptr, 0, nullptr));
        sync();
        return std::vector<uint32_t>(host.data(), host.data() + bytes / 4);
    }
    // Values unlike any other call's: `seed` apart.
    std::vector<uint32_t> values(size_t count, uint32_t seed) {
        std::vector<uint32_t> v(count);
        std::iota(v.begin(), v.end(), seed * 0x10000u);
        return v;
    }
    void expectAccess(const void *at, size_t size, ze_memory_access_attribute_t expected,
                      size_t same) {
        ze_memory_access_attribute_t access = ZE_MEMORY_ACCESS_ATTRIBUTE_FORCE_UINT32;
        size_t bytes = 0;
        ASSERT_ZE_SUCCESS(zeVirtualMemGetAccessAttribute(context_, at, size, &access, &bytes));
        EXPECT_EQ(access, expected);
        EXPECT_EQ(bytes, same);
    }

    size_t page_ = 0;
    std::vector<std::pair<void *, size_t>> reserved_;
    std::vector<ze_physical_mem_handle_t> physical_;
};

// One virtual range backed by two physical allocations, written by a kernel,
// a fill and a copy.
TEST_F(VirtualMemoryTest, KernelCopyAndFillOnARangeOfTwoPhysicalAllocations) {
    const size_t half = 4 * page_, whole = 2 * half;
    uint8_t *range = reserve(whole);
    ASSERT_NE(range, nullptr);
    ze_physical_mem_handle_t first = physical(half), second = physical(half);
    ASSERT_ZE_SUCCESS(
        zeVirtualMemMap(context_, range, half, first, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    ASSERT_ZE_SUCCESS(zeVirtualMemMap(context_, range + half, half, second, 0,
                                      ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));

    // c = a + b over the whole range, so the kernel crosses the seam.
    const size_t n = whole / sizeof(int) / 2;
    auto *a = reinterpret_cast<int *>(range);
    int *c = a + n;
    std::vector<uint32_t> aValues(n);
    for (size_t i = 0; i < n; ++i)
        aValues[i] = uint32_t(testValue(i, 3));
    ASSERT_NO_FATAL_FAILURE(write(a, n * sizeof(int), aValues));
    UsmBuffer<int> b;
    ASSERT_NO_FATAL_FAILURE(allocate(b, UsmKind::Shared, n));
    for (size_t i = 0; i < n; ++i)
        b[i] = testValue(i, 4);
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "basic"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "vector_add", 16));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {byValue(a), usm(b), byValue(c)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(n / 16), 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    std::vector<uint32_t> sums = read(c, n * sizeof(int));
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(int(sums[i]), testValue(i, 3) + testValue(i, 4)) << i;

    // A copy out of the second allocation, and a fill across both.
    const std::vector<uint32_t> saved = read(range + half, half);
    const uint32_t pattern = 0xa5c3e1f7;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, range + half / 2, &pattern,
                                                    sizeof(pattern), half, nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (uint32_t v : read(range + half / 2, half))
        ASSERT_EQ(v, pattern);

    // The data lives in the physical memory: mapped elsewhere, it is still there.
    ASSERT_ZE_SUCCESS(zeVirtualMemUnmap(context_, range + half, half));
    uint8_t *other = reserve(half);
    ASSERT_NE(other, nullptr);
    ASSERT_ZE_SUCCESS(
        zeVirtualMemMap(context_, other, half, second, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
    std::vector<uint32_t> moved = read(other, half);
    for (size_t i = 0; i < half / 8; ++i)
        ASSERT_EQ(moved[i], pattern) << i;
    for (size_t i = half / 8; i < half / 4; ++i)
        ASSERT_EQ(moved[i], saved[i]) << i;
    ASSERT_ZE_SUCCESS(zeVirtualMemUnmap(context_, other, half));
    ASSERT_ZE_SUCCESS(zeVirtualMemUnmap(context_, range, half));
}

// A reservation starts inaccessible; attributes follow maps, unmaps and sets,
// page by page, and changing them keeps the data.
TEST_F(VirtualMemoryTest, AccessAttributes) {
    const size_t size = 8 * page_;
    uint8_t *range = reserve(size);
    ASSERT_NE(range, nullptr);
    expectAccess(range, size, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, size);

    ze_physical_mem_handle_t memory = physical(2 * page_);
    ASSERT_ZE_SUCCESS(zeVirtualMemMap(context_, range + 2 * page_, 2 * page_, memory, 0,
                                      ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    expectAccess(range, size, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, 2 * page_);
    expectAccess(range + 2 * page_, 6 * page_, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, 2 * page_);
    const std::vector<uint32_t> data = values(2 * page_ / 4, 1);
    ASSERT_NO_FATAL_FAILURE(write(range + 2 * page_, 2 * page_, data));

    ASSERT_ZE_SUCCESS(zeVirtualMemSetAccessAttribute(context_, range + 3 * page_, page_,
                                                     ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
    expectAccess(range + 2 * page_, 2 * page_, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE, page_);
    expectAccess(range + 3 * page_, page_, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY, page_);
    EXPECT_EQ(read(range + 2 * page_, 2 * page_), data);

    // Inaccessible, then read-write again: the data is still there.
    ASSERT_ZE_SUCCESS(zeVirtualMemSetAccessAttribute(context_, range + 2 * page_, 2 * page_,
                                                     ZE_MEMORY_ACCESS_ATTRIBUTE_NONE));
    expectAccess(range, size, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, size);
    ASSERT_ZE_SUCCESS(zeVirtualMemSetAccessAttribute(context_, range + 2 * page_, 2 * page_,
                                                     ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    EXPECT_EQ(read(range + 2 * page_, 2 * page_), data);

    ASSERT_ZE_SUCCESS(zeVirtualMemUnmap(context_, range + 2 * page_, 2 * page_));
    expectAccess(range, size, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, size);
}

// Unmapping the middle of a mapping keeps its ends, and mapping physical
// memory from an offset fills the middle again with the same data.
TEST_F(VirtualMemoryTest, PartOfAMappingUnmappedAndMappedFromAnOffset) {
    const size_t size = 4 * page_;
    uint8_t *range = reserve(size);
    ASSERT_NE(range, nullptr);
    ze_physical_mem_handle_t memory = physical(size);
    const auto rw = ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE;
    ASSERT_ZE_SUCCESS(zeVirtualMemMap(context_, range, size, memory, 0, rw));
    const std::vector<uint32_t> data = values(size / 4, 2);
    ASSERT_NO_FATAL_FAILURE(write(range, size, data));

    ASSERT_ZE_SUCCESS(zeVirtualMemUnmap(context_, range + page_, 2 * page_));
    expectAccess(range, size, rw, page_);
    expectAccess(range + page_, 3 * page_, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE, 2 * page_);
    expectAccess(range + 3 * page_, page_, rw, page_);
    const size_t perPage = page_ / 4;
    std::vector<uint32_t> ends = read(range, page_), last = read(range + 3 * page_, page_);
    ends.insert(ends.end(), last.begin(), last.end());
    std::vector<uint32_t> expected(data.begin(), data.begin() + perPage);
    expected.insert(expected.end(), data.end() - perPage, data.end());
    EXPECT_EQ(ends, expected);

    // The second page of the memory, mapped where the third was: the
    // kernel-visible range now holds pages 0, 1, 1, 3 of the data.
    ASSERT_ZE_SUCCESS(zeVirtualMemMap(context_, range + page_, page_, memory, page_, rw));
    ASSERT_ZE_SUCCESS(zeVirtualMemMap(context_, range + 2 * page_, page_, memory, page_, rw));
    std::vector<uint32_t> now = read(range, size);
    for (size_t i = 0; i < now.size(); ++i) {
        size_t page = i / perPage, source = page == 2 ? 1 : page;
        ASSERT_EQ(now[i], data[source * perPage + i % perPage]) << i;
    }
    // A mapping over mapped pages replaces them.
    ASSERT_ZE_SUCCESS(zeVirtualMemMap(context_, range, size, memory, 0, rw));
    EXPECT_EQ(read(range, size), data);
    ASSERT_ZE_SUCCESS(zeVirtualMemUnmap(context_, range, size));
}

// Bad sizes, alignments and ranges are errors that leave the reservation
// usable.
TEST_F(VirtualMemoryTest, BadArgumentsAreRefused) {
    const size_t size = 4 * page_;
    uint8_t *range = reserve(size);
    ASSERT_NE(range, nullptr);
    void *unused = nullptr;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
                     zeVirtualMemReserve(context_, range, page_ + 1, &unused));
    ze_physical_mem_desc_t odd = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, page_ / 2};
    ze_physical_mem_handle_t none = nullptr;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
                     zePhysicalMemCreate(context_, device_, &odd, &none));
    ze_physical_mem_handle_t memory = physical(2 * page_);
    const auto rw = ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
                     zeVirtualMemMap(context_, range + 1, page_, memory, 0, rw));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                     zeVirtualMemMap(context_, range + 3 * page_, 2 * page_, memory, 0, rw))
        << "past the reservation's end";
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                     zeVirtualMemMap(context_, range, 2 * page_, memory, page_, rw))
        << "past the physical memory's end";
    int notReserved[64];
    EXPECT_NE(Result{ZE_RESULT_SUCCESS},
              Result{zeVirtualMemMap(context_, notReserved, page_, memory, 0, rw)});
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE, zeVirtualMemFree(context_, range, page_));
    ASSERT_ZE_SUCCESS(zeVirtualMemMap(context_, range, 2 * page_, memory, 0, rw));
    const std::vector<uint32_t> data = values(2 * page_ / 4, 3);
    ASSERT_NO_FATAL_FAILURE(write(range, 2 * page_, data));
    EXPECT_EQ(read(range, 2 * page_), data);
    ASSERT_ZE_SUCCESS(zeVirtualMemUnmap(context_, range, 2 * page_));
}

// Physical memory destroyed while mapped stays until it is unmapped; a
// reservation freed with mappings in it, or a context destroyed with
// reservations, unmaps and frees what is left.
TEST_F(VirtualMemoryTest, MappedMemoryOutlivesItsHandleAndGoesWithItsReservation) {
    uint8_t *range = reserve(2 * page_);
    ASSERT_NE(range, nullptr);
    ze_physical_mem_desc_t desc = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, 2 * page_};
    ze_physical_mem_handle_t memory = nullptr;
    ASSERT_ZE_SUCCESS(zePhysicalMemCreate(context_, device_, &desc, &memory));
    ASSERT_ZE_SUCCESS(zeVirtualMemMap(context_, range, 2 * page_, memory, 0,
                                      ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    ASSERT_ZE_SUCCESS(zePhysicalMemDestroy(context_, memory));
    const std::vector<uint32_t> data = values(2 * page_ / 4, 4);
    ASSERT_NO_FATAL_FAILURE(write(range, 2 * page_, data));
    EXPECT_EQ(read(range, 2 * page_), data);
    // TearDown frees the reservation, still mapped.

    Context other;
    ze_context_desc_t contextDesc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &contextDesc, other.out()));
    void *base = nullptr;
    ASSERT_ZE_SUCCESS(
        zeVirtualMemReserve(other, reinterpret_cast<void *>(0x640000000000), 2 * page_, &base));
    ASSERT_ZE_SUCCESS(zePhysicalMemCreate(other, device_, &desc, &memory));
    ASSERT_ZE_SUCCESS(
        zeVirtualMemMap(other, base, page_, memory, page_, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    ASSERT_ZE_SUCCESS(zePhysicalMemDestroy(other, memory));
    other.reset(); // with its reservation and mapping
}

} // namespace
} // namespace zetest
