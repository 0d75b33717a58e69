// Physical and virtual memory: reservations, physical memory mapped into
// them, access attributes, and kernels, copies and fills on mapped ranges.
#include "ze_test_common.hpp"

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
    void *reserve(size_t size) {
        void *base = nullptr;
        void *hint =
            reinterpret_cast<void *>(uintptr_t(0x600000000000) + reserved_.size() * 2 * size);
        EXPECT_ZE_SUCCESS(zeVirtualMemReserve(context_, hint, size, &base));
        if (base != nullptr)
            reserved_.emplace_back(base, size);
        return base;
    }
    ze_physical_mem_handle_t physical(size_t size) {
        ze_physical_mem_desc_t desc = {ZE_STRUCTURE_TYPE_PHYSICAL_MEM_DESC, nullptr, 0, size};
        ze_physical_mem_handle_t memory = nullptr;
        EXPECT_ZE_SUCCESS(zePhysicalMemCreate(context_, device_, &desc, &memory));
        if (memory != nullptr)
            physical_.push_back(memory);
        return memory;
    }

    size_t page_ = 0;
    std::vector<std::pair<void *, size_t>> reserved_;
    std::vector<ze_physical_mem_handle_t> physical_;
};

// One virtual range backed by two physical allocations, written by a kernel,
// a fill and a copy, and read on the host.
TEST_F(VirtualMemoryTest, KernelCopyAndFillOnARangeOfTwoPhysicalAllocations) {
    const size_t half = 4 * page_, whole = 2 * half;
    auto *range = static_cast<uint8_t *>(reserve(whole));
    ASSERT_NE(range, nullptr);
    ze_physical_mem_handle_t first = physical(half), second = physical(half);
    ASSERT_ZE_SUCCESS(
        zeVirtualMemMap(context_, range, half, first, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    ASSERT_ZE_SUCCESS(zeVirtualMemMap(context_, range + half, half, second, 0,
                                      ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));

    // c = a + b over the whole range, so the kernel crosses the seam.
    const size_t n = whole / sizeof(int) / 2;
    int *a = reinterpret_cast<int *>(range);
    UsmBuffer<int> b;
    ASSERT_NO_FATAL_FAILURE(allocate(b, UsmKind::Shared, n));
    int *c = a + n;
    for (size_t i = 0; i < n; ++i) {
        a[i] = testValue(i, 3);
        b[i] = testValue(i, 4);
    }
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "basic"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "vector_add", 16));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {byValue(a), usm(b), byValue(c)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(n / 16), 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(c[i], a[i] + b[i]) << i;

    // A copy out of the second allocation into the first, and a fill across both.
    UsmBuffer<uint8_t> saved;
    ASSERT_NO_FATAL_FAILURE(allocate(saved, UsmKind::Host, half));
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryCopy(list_, saved.ptr(), range + half, half, nullptr, 0, nullptr));
    const uint32_t pattern = 0xa5c3e1f7;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, range + half / 2, &pattern,
                                                    sizeof(pattern), half, nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (size_t i = 0; i < half; i += 4)
        ASSERT_EQ(*reinterpret_cast<uint32_t *>(range + half / 2 + i), pattern) << i;
    EXPECT_EQ(std::memcmp(saved.data() + half / 2, range + 3 * half / 2, half / 2), 0);

    // The data lives in the physical memory: mapped elsewhere, it is still there.
    ASSERT_ZE_SUCCESS(zeVirtualMemUnmap(context_, range + half, half));
    auto *other = static_cast<uint8_t *>(reserve(half));
    ASSERT_ZE_SUCCESS(
        zeVirtualMemMap(context_, other, half, second, 0, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
    for (size_t i = 0; i < half / 2; i += 4)
        ASSERT_EQ(*reinterpret_cast<uint32_t *>(other + i), pattern) << i;
    EXPECT_EQ(std::memcmp(saved.data() + half / 2, other + half / 2, half / 2), 0);
    ASSERT_ZE_SUCCESS(zeVirtualMemUnmap(context_, other, half));
    ASSERT_ZE_SUCCESS(zeVirtualMemUnmap(context_, range, half));
}

// A reservation starts inaccessible; attributes follow maps, unmaps and sets,
// page by page.
TEST_F(VirtualMemoryTest, AccessAttributes) {
    const size_t size = 8 * page_;
    auto *range = static_cast<uint8_t *>(reserve(size));
    ASSERT_NE(range, nullptr);
    ze_memory_access_attribute_t access = ZE_MEMORY_ACCESS_ATTRIBUTE_FORCE_UINT32;
    size_t same = 0;
    ASSERT_ZE_SUCCESS(zeVirtualMemGetAccessAttribute(context_, range, size, &access, &same));
    EXPECT_EQ(access, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    EXPECT_EQ(same, size);

    ze_physical_mem_handle_t memory = physical(2 * page_);
    ASSERT_ZE_SUCCESS(zeVirtualMemMap(context_, range + 2 * page_, 2 * page_, memory, 0,
                                      ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE));
    ASSERT_ZE_SUCCESS(zeVirtualMemGetAccessAttribute(context_, range, size, &access, &same));
    EXPECT_EQ(access, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    EXPECT_EQ(same, 2 * page_);
    ASSERT_ZE_SUCCESS(
        zeVirtualMemGetAccessAttribute(context_, range + 2 * page_, 6 * page_, &access, &same));
    EXPECT_EQ(access, ZE_MEMORY_ACCESS_ATTRIBUTE_READWRITE);
    EXPECT_EQ(same, 2 * page_);
    range[2 * page_] = 42;

    ASSERT_ZE_SUCCESS(zeVirtualMemSetAccessAttribute(context_, range + 3 * page_, page_,
                                                     ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY));
    ASSERT_ZE_SUCCESS(
        zeVirtualMemGetAccessAttribute(context_, range + 3 * page_, page_, &access, &same));
    EXPECT_EQ(access, ZE_MEMORY_ACCESS_ATTRIBUTE_READONLY);
    EXPECT_EQ(range[3 * page_], 0) << "a fresh physical page reads zero";

    ASSERT_ZE_SUCCESS(zeVirtualMemUnmap(context_, range + 2 * page_, 2 * page_));
    ASSERT_ZE_SUCCESS(zeVirtualMemGetAccessAttribute(context_, range, size, &access, &same));
    EXPECT_EQ(access, ZE_MEMORY_ACCESS_ATTRIBUTE_NONE);
    EXPECT_EQ(same, size);
}

// Bad sizes, alignments and ranges are errors that leave the reservation
// usable.
TEST_F(VirtualMemoryTest, BadArgumentsAreRefused) {
    const size_t size = 4 * page_;
    auto *range = static_cast<uint8_t *>(reserve(size));
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
    range[0] = 7;
    EXPECT_EQ(range[0], 7);
    ASSERT_ZE_SUCCESS(zeVirtualMemUnmap(context_, range, 2 * page_));
}

} // namespace
} // namespace zetest
