// What the CUDA driver's GPU suites share: a fixture on the first GPU of
// libze_cuda.so (the only driver listed), with a context, that makes every
// test say it skipped where there is no NVIDIA GPU.
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

} // namespace zetest
