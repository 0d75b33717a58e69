// USM on libze_cuda.so, through the system loader (the CUDA driver alone):
// device memory the host never touches, host memory pinned and mapped,
// shared memory managed; properties, ranges, alignment, frees across
// contexts, and the refusals. Without an NVIDIA GPU every test says it
// skipped.
#include "cuda_test.hpp"

namespace zetest {
namespace {

class CudaUsm : public OnCudaGpu {
protected:
    void SetUp() override {
        OnCudaGpu::SetUp();
        if (IsSkipped() || HasFatalFailure())
            return;
        ze_device_memory_properties_t memory = {ZE_STRUCTURE_TYPE_DEVICE_MEMORY_PROPERTIES};
        uint32_t count = 1;
        ASSERT_ZE_SUCCESS(zeDeviceGetMemoryProperties(device_, &count, &memory));
        total_ = memory.totalSize;
    }

    void *alloc(ze_memory_type_t type, size_t size, size_t alignment = 0) {
        ze_device_mem_alloc_desc_t d = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        ze_host_mem_alloc_desc_t h = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        void *p = nullptr;
        ze_result_t r = type == ZE_MEMORY_TYPE_DEVICE
                            ? zeMemAllocDevice(context_, &d, size, alignment, device_, &p)
                        : type == ZE_MEMORY_TYPE_HOST
                            ? zeMemAllocHost(context_, &h, size, alignment, &p)
                            : zeMemAllocShared(context_, &d, &h, size, alignment, device_, &p);
        EXPECT_ZE_SUCCESS(r);
        return p;
    }

    uint64_t total_ = 0;
};

TEST_F(CudaUsm, EachKindHasItsPropertiesAndRange) {
    const ze_memory_type_t kinds[] = {ZE_MEMORY_TYPE_DEVICE, ZE_MEMORY_TYPE_HOST,
                                      ZE_MEMORY_TYPE_SHARED};
    for (ze_memory_type_t kind : kinds) {
        SCOPED_TRACE(kind);
        constexpr size_t size = 3 << 20;
        char *p = static_cast<char *>(alloc(kind, size));
        ASSERT_NE(p, nullptr);
        ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        ze_device_handle_t owner = nullptr;
        ASSERT_ZE_SUCCESS(zeMemGetAllocProperties(context_, p + size - 1, &props, &owner));
        EXPECT_EQ(props.type, kind);
        EXPECT_NE(props.id, 0u);
        EXPECT_EQ(owner, kind == ZE_MEMORY_TYPE_HOST ? nullptr : device_);
        void *base = nullptr;
        size_t bytes = 0;
        ASSERT_ZE_SUCCESS(zeMemGetAddressRange(context_, p + 12345, &base, &bytes));
        EXPECT_EQ(base, p);
        EXPECT_EQ(bytes, size);
        EXPECT_ZE_SUCCESS(zeMemFree(context_, p));
        EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(context_, p));
    }
}

// Host and shared memory are the host's to read and write (device memory
// is not: it is only ever reached through commands).
TEST_F(CudaUsm, HostAndSharedMemoryKeepWhatTheHostWrites) {
    for (ze_memory_type_t kind : {ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_SHARED}) {
        constexpr size_t n = 1 << 20;
        auto *p = static_cast<uint32_t *>(alloc(kind, n * sizeof(uint32_t)));
        ASSERT_NE(p, nullptr);
        for (size_t i = 0; i < n; ++i)
            p[i] = uint32_t(i * 2654435761u);
        for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(p[i], uint32_t(i * 2654435761u)) << i;
        EXPECT_ZE_SUCCESS(zeMemFree(context_, p));
    }
}

TEST_F(CudaUsm, AlignmentsAboveTheAllocatorsAreMet) {
    for (ze_memory_type_t kind :
         {ZE_MEMORY_TYPE_DEVICE, ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_SHARED}) {
        for (size_t alignment : {size_t(64), size_t(4096), size_t(64) << 10, size_t(2) << 20}) {
            void *p = alloc(kind, 100, alignment);
            ASSERT_NE(p, nullptr);
            EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % alignment, 0u) << alignment;
            EXPECT_ZE_SUCCESS(zeMemFree(context_, p));
        }
    }
}

// Device memory is freed in stream order (memory_release.hpp): what a free
// gave back must serve the next allocation. Over half of the device's memory
// is allocated and freed again and again, and an image of that size after.
TEST_F(CudaUsm, FreedDeviceMemoryServesTheNextAllocations) {
    const size_t size = size_t(total_ / 100 * 55);
    for (int round = 0; round < 4; ++round) {
        void *p = alloc(ZE_MEMORY_TYPE_DEVICE, size);
        ASSERT_NE(p, nullptr) << "round " << round;
        ASSERT_ZE_SUCCESS(zeMemFree(context_, p));
    }
    ze_image_desc_t desc = {ZE_STRUCTURE_TYPE_IMAGE_DESC};
    desc.type = ZE_IMAGE_TYPE_BUFFER;
    desc.format = {ZE_IMAGE_FORMAT_LAYOUT_8,  ZE_IMAGE_FORMAT_TYPE_UINT, ZE_IMAGE_FORMAT_SWIZZLE_R,
                   ZE_IMAGE_FORMAT_SWIZZLE_0, ZE_IMAGE_FORMAT_SWIZZLE_0, ZE_IMAGE_FORMAT_SWIZZLE_1};
    desc.width = size;
    desc.height = desc.depth = 1;
    for (int round = 0; round < 2; ++round) {
        ze_image_handle_t image = nullptr;
        ASSERT_ZE_SUCCESS(zeImageCreate(context_, device_, &desc, &image)) << "round " << round;
        ASSERT_ZE_SUCCESS(zeImageDestroy(image));
    }
}

TEST_F(CudaUsm, RefusalsSayWhatWasWrong) {
    ze_device_mem_alloc_desc_t d = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void *p = nullptr;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT,
                     zeMemAllocDevice(context_, &d, 64, 3, device_, &p));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_SIZE,
                     zeMemAllocDevice(context_, &d, total_ + 1, 0, device_, &p));
    int local = 0;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeMemFree(context_, &local));
    // Two allocations of 60% of the memory: the second does not fit.
    size_t big = size_t(total_ / 10 * 6);
    void *first = alloc(ZE_MEMORY_TYPE_DEVICE, big);
    ASSERT_NE(first, nullptr);
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY,
                     zeMemAllocDevice(context_, &d, big, 0, device_, &p));
    EXPECT_ZE_SUCCESS(zeMemFree(context_, first));
}

// CUDA shares device memory between processes, not pinned host memory or
// managed memory: their IPC handles are refused as unsupported (the device
// memory case runs in the driver suite's IpcTest, scripts/gpu_check.sh).
TEST_F(CudaUsm, IpcHandlesOfHostAndSharedMemoryAreRefused) {
    ze_driver_ipc_properties_t properties = {ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDriverGetIpcProperties(driver_, &properties));
    EXPECT_TRUE(properties.flags & ZE_IPC_PROPERTY_FLAG_MEMORY);
    ze_ipc_mem_handle_t handle;
    for (ze_memory_type_t kind : {ZE_MEMORY_TYPE_HOST, ZE_MEMORY_TYPE_SHARED}) {
        void *p = alloc(kind, 4096);
        ASSERT_NE(p, nullptr);
        EXPECT_ZE_RESULT(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE,
                         zeMemGetIpcHandle(context_, p, &handle));
        EXPECT_ZE_SUCCESS(zeMemFree(context_, p));
    }
    int local = 0;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                     zeMemGetIpcHandle(context_, &local, &handle));
    std::memset(handle.data, 0x5a, sizeof(handle.data));
    void *opened = nullptr;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT,
                     zeMemOpenIpcHandle(context_, device_, handle, 0, &opened));
}

// As on Intel's driver, memory of one context of the driver is freed
// through another; memory never freed goes with its context.
TEST_F(CudaUsm, ContextsOfTheDriverShareTheirMemory) {
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ze_context_handle_t other = nullptr;
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, &other));
    void *p = alloc(ZE_MEMORY_TYPE_DEVICE, 4096);
    EXPECT_ZE_SUCCESS(zeMemFree(other, p));
    ze_device_mem_alloc_desc_t d = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    void *kept = nullptr;
    EXPECT_ZE_SUCCESS(zeMemAllocDevice(other, &d, 1 << 20, 0, device_, &kept));
    EXPECT_ZE_SUCCESS(zeContextDestroy(other));
}

} // namespace
} // namespace zetest
