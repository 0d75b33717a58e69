// Two GPUs of libze_cuda.so: each reaches the other's memory (peer access,
// which the driver enables), so a copy between them, a kernel of one device
// on the other's memory and an event of one device awaited by the other's
// list all work, their results checked on the host. With fewer than two
// NVIDIA GPUs it says it skipped.
#include "cuda_test.hpp"

namespace zetest {
namespace {

class CudaPeers : public WithCudaModules {
protected:
    void SetUp() override {
        WithCudaModules::SetUp();
        if (IsSkipped() || HasFatalFailure())
            return;
        uint32_t count = 0;
        ASSERT_ZE_SUCCESS(zeDeviceGet(driver_, &count, nullptr));
        if (count < 2)
            GTEST_SKIP() << "skipped: fewer than two NVIDIA GPUs";
        count = 2;
        ASSERT_ZE_SUCCESS(zeDeviceGet(driver_, &count, devices_));
    }
    ze_command_list_handle_t immediateOn(ze_device_handle_t device) {
        ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
        desc.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
        ze_command_list_handle_t list = nullptr;
        EXPECT_ZE_SUCCESS(zeCommandListCreateImmediate(context_, device, &desc, &list));
        lists_.push_back(list);
        return list;
    }
    template <class T> T *deviceMemoryOn(ze_device_handle_t device, size_t n) {
        ze_device_mem_alloc_desc_t d = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        void *p = nullptr;
        EXPECT_ZE_SUCCESS(zeMemAllocDevice(context_, &d, n * sizeof(T), 0, device, &p));
        return static_cast<T *>(p);
    }
    ze_kernel_handle_t kernelOn(ze_device_handle_t device, const char *name, uint32_t group) {
        modules_.emplace_back();
        EXPECT_ZE_SUCCESS(createModule(context_, device, loadSpirv("basic"),
                                       ZE_MODULE_FORMAT_IL_SPIRV, modules_.back()));
        kernels_.emplace_back();
        EXPECT_ZE_SUCCESS(createKernel(modules_.back(), name, kernels_.back()));
        EXPECT_ZE_SUCCESS(zeKernelSetGroupSize(kernels_.back(), group, 1, 1));
        return kernels_.back();
    }
    ze_device_handle_t devices_[2] = {};
};

TEST_F(CudaPeers, EachDeviceReachesTheOthersMemory) {
    for (int d = 0; d < 2; ++d) {
        ze_bool_t can = false;
        ASSERT_ZE_SUCCESS(zeDeviceCanAccessPeer(devices_[d], devices_[1 - d], &can));
        EXPECT_TRUE(can) << "device " << d;
        ze_device_p2p_properties_t p2p = {ZE_STRUCTURE_TYPE_DEVICE_P2P_PROPERTIES};
        ASSERT_ZE_SUCCESS(zeDeviceGetP2PProperties(devices_[d], devices_[1 - d], &p2p));
        EXPECT_TRUE(p2p.flags & ZE_DEVICE_P2P_PROPERTY_FLAG_ACCESS) << "device " << d;
    }
}

// Device 0 writes values; device 1's list copies them into its own memory
// behind device 0's event; device 1's kernel adds device 0's values to its
// copy in place (reading the peer's memory directly); the host reads both.
TEST_F(CudaPeers, CopiesKernelsAndEventsAcrossDevices) {
    constexpr size_t n = size_t(16) << 20; // 64 MiB of ints
    ze_command_list_handle_t list0 = immediateOn(devices_[0]), list1 = immediateOn(devices_[1]);
    int *mem0 = deviceMemoryOn<int>(devices_[0], n), *mem1 = deviceMemoryOn<int>(devices_[1], n);
    std::vector<int> values(n);
    for (size_t i = 0; i < n; ++i)
        values[i] = testValue(i, 4);
    ze_event_handle_t written = event(), copied = event(), added = event(), back = event();
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list0, mem0, values.data(), n * sizeof(int),
                                                    written, 0, nullptr));
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryCopy(list1, mem1, mem0, n * sizeof(int), copied, 1, &written));
    // c = a + b with c and a in device 1's memory, b in device 0's.
    ze_kernel_handle_t add = kernelOn(devices_[1], "vector_add", 256);
    void *a = mem1, *b = mem0, *c = mem1;
    ASSERT_ZE_SUCCESS(
        setArgs(add, {Arg{sizeof(void *), &a}, Arg{sizeof(void *), &b}, Arg{sizeof(void *), &c}}));
    ASSERT_ZE_SUCCESS(launch(list1, add, {uint32_t(n / 256), 1, 1}, added, {copied}));
    std::vector<int> result(n, 0);
    // Read back on device 0's list, behind device 1's event.
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list0, result.data(), mem1, n * sizeof(int),
                                                    back, 1, &added));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(back, UINT64_MAX));
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(result[i], 2 * values[i]) << i;
}

} // namespace
} // namespace zetest
