// What the gpu* and mgpu* runtime tests share: reading the SPIR-V test
// kernels and an error handler that records instead of aborting
// (gpu_test_recorder.hpp, which the SYCL flavour's tests use too), and the
// first driver and device with a context of the test's own (a framework's
// objects).
#pragma once

#include "gpu_test_recorder.hpp"
#include "imex_gpu_runtime.h"

#include <gtest/gtest.h>

namespace gputest {

// The first driver and device, and a context the test owns; destroy() checks
// the context is destroyable (nothing of it outlived its users).
struct UserContext {
    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t device = nullptr;
    ze_context_handle_t context = nullptr;

    UserContext() {
        EXPECT_EQ(zeInit(0), ZE_RESULT_SUCCESS);
        uint32_t n = 1;
        EXPECT_EQ(zeDriverGet(&n, &driver), ZE_RESULT_SUCCESS);
        n = 1;
        EXPECT_EQ(zeDeviceGet(driver, &n, &device), ZE_RESULT_SUCCESS);
        ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC, nullptr, 0};
        EXPECT_EQ(zeContextCreate(driver, &desc, &context), ZE_RESULT_SUCCESS);
    }
    ~UserContext() { destroy(); }
    UserContext(const UserContext &) = delete;
    UserContext &operator=(const UserContext &) = delete;

    void destroy() {
        if (context)
            EXPECT_EQ(zeContextDestroy(context), ZE_RESULT_SUCCESS);
        context = nullptr;
    }
    // Whether ptr is a live allocation of this context.
    bool owns(const void *ptr) const {
        ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
        return zeMemGetAllocProperties(context, ptr, &props, nullptr) == ZE_RESULT_SUCCESS &&
               props.type != ZE_MEMORY_TYPE_UNKNOWN;
    }
    ze_command_list_handle_t immediateList() const {
        ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC, nullptr, 0, 0, 0,
                                        ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
        ze_command_list_handle_t list = nullptr;
        EXPECT_EQ(zeCommandListCreateImmediate(context, device, &desc, &list), ZE_RESULT_SUCCESS);
        return list;
    }
};

} // namespace gputest
