// What the CUDA driver's GPU suites share: a fixture on the first GPU of
// libze_cuda.so (the only driver listed), with a context, that makes every
// test say it skipped where there is no NVIDIA GPU; and one with lists,
// events and USM helpers.
#pragma once

#include "ze_test_common.hpp"

namespace zetest {

class OnCudaGpu : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_ZE_SUCCESS(zeInit(0));
        uint32_t drivers = 1;
        if (zeDriverGet(&drivers, &driver_) != ZE_RESULT_SUCCESS || drivers == 0)
            GTEST_SKIP() << "skipped: no NVIDIA GPU";
        uint32_t devices = 1;
        ASSERT_ZE_SUCCESS(zeDeviceGet(driver_, &devices, &device_));
        ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
        ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, &context_));
    }
    // Destroying the context frees what the test allocated in it.
    void TearDown() override {
        if (context_ != nullptr)
            EXPECT_ZE_SUCCESS(zeContextDestroy(context_));
    }

    ze_driver_handle_t driver_ = nullptr;
    ze_device_handle_t device_ = nullptr;
    ze_context_handle_t context_ = nullptr;
};

// The GPU with an event pool of 64 host-visible events, an asynchronous
// immediate list (list_), and helpers for more lists, events and USM; what
// they made is destroyed at the end of the test.
class WithCudaLists : public OnCudaGpu {
protected:
    void SetUp() override {
        OnCudaGpu::SetUp();
        if (IsSkipped() || HasFatalFailure())
            return;
        ze_event_pool_desc_t pool = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                     ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 64};
        ASSERT_ZE_SUCCESS(zeEventPoolCreate(context_, &pool, 1, &device_, &pool_));
        list_ = immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    }
    void TearDown() override {
        for (ze_event_handle_t e : events_)
            EXPECT_ZE_SUCCESS(zeEventDestroy(e));
        for (ze_command_list_handle_t l : lists_)
            EXPECT_ZE_SUCCESS(zeCommandListDestroy(l));
        if (pool_ != nullptr)
            EXPECT_ZE_SUCCESS(zeEventPoolDestroy(pool_));
        OnCudaGpu::TearDown();
    }

    ze_command_list_handle_t immediate(ze_command_queue_mode_t mode) {
        ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
        desc.mode = mode;
        ze_command_list_handle_t list = nullptr;
        EXPECT_ZE_SUCCESS(zeCommandListCreateImmediate(context_, device_, &desc, &list));
        lists_.push_back(list);
        return list;
    }
    ze_event_handle_t event() {
        ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr,
                                static_cast<uint32_t>(events_.size()), ZE_EVENT_SCOPE_FLAG_HOST,
                                ZE_EVENT_SCOPE_FLAG_HOST};
        ze_event_handle_t e = nullptr;
        EXPECT_ZE_SUCCESS(zeEventCreate(pool_, &desc, &e));
        events_.push_back(e);
        return e;
    }
    template <class T> T *host(size_t n) {
        ze_host_mem_alloc_desc_t h = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        void *p = nullptr;
        EXPECT_ZE_SUCCESS(zeMemAllocHost(context_, &h, n * sizeof(T), 0, &p));
        return static_cast<T *>(p);
    }
    template <class T> T *device(size_t n) {
        ze_device_mem_alloc_desc_t d = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        void *p = nullptr;
        EXPECT_ZE_SUCCESS(zeMemAllocDevice(context_, &d, n * sizeof(T), 0, device_, &p));
        return static_cast<T *>(p);
    }
    void sync(ze_command_list_handle_t list) {
        ze_event_handle_t done = event();
        ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list, done, 0, nullptr));
        ASSERT_ZE_SUCCESS(zeEventHostSynchronize(done, UINT64_MAX));
    }

    ze_event_pool_handle_t pool_ = nullptr;
    ze_command_list_handle_t list_ = nullptr;
    std::vector<ze_command_list_handle_t> lists_;
    std::vector<ze_event_handle_t> events_;
};

} // namespace zetest
