// A kernel that faults on the GPU (it writes where no allocation is): the
// device is lost, and every wait on work of that device returns
// ZE_RESULT_ERROR_DEVICE_LOST promptly, infinite timeouts included: an event
// the faulting kernel signals, a queue and a fence waiting behind a gate, a
// list whose copy waits for that gate; the statuses say so, later appends are
// refused, and everything is destroyed cleanly. A lost device stays lost for
// the process, so this suite runs in a process of its own. Without an NVIDIA
// GPU it says it skipped.
#include "cuda_test.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>

namespace zetest {
namespace {

using Clock = std::chrono::steady_clock;

// Ends the process if the test has not finished within `limit`: a wait that
// never returns fails the test with a message instead of hanging it.
class Watchdog {
public:
    explicit Watchdog(std::chrono::seconds limit)
        : thread_([this, limit] {
              std::unique_lock<std::mutex> lock(mutex_);
              if (!done_.wait_for(lock, limit, [this] { return finished_; })) {
                  std::fprintf(stderr, "FAILED: a wait on the lost device did not return\n");
                  std::_Exit(3);
              }
          }) {}
    ~Watchdog() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            finished_ = true;
        }
        done_.notify_one();
        thread_.join();
    }

private:
    std::mutex mutex_;
    std::condition_variable done_;
    bool finished_ = false;
    std::thread thread_;
};

double msSince(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

using CudaDeviceLoss = WithCudaModules;

TEST_F(CudaDeviceLoss, AFaultingKernelLosesTheDeviceAndNoWaitHangs) {
    Watchdog watchdog(std::chrono::seconds(60));
    ze_kernel_handle_t increment = kernel(module("basic"), "increment", 64);
    ze_kernel_handle_t fault = kernel(cudaModule("faults"), "write_at", 64);
    int *data = device<int>(64);
    void *dataArg = data;
    ASSERT_ZE_SUCCESS(setArgs(increment, {Arg{sizeof(void *), &dataArg}}));
    // Before the fault, work runs and the statuses are clean.
    ASSERT_ZE_SUCCESS(launch(list_, increment, {1, 1, 1}));
    sync(list_);
    EXPECT_ZE_SUCCESS(zeContextGetStatus(context_));
    EXPECT_ZE_SUCCESS(zeDeviceGetStatus(device_));

    // Work waiting behind a gate the host sets only after the fault: on a
    // queue (a regular list) with a fence, and on a second immediate list.
    ze_event_handle_t gate = event(), faulted = event(), copied = event(), later = event();
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    ze_command_queue_handle_t queue = nullptr;
    ASSERT_ZE_SUCCESS(zeCommandQueueCreate(context_, device_, &qd, &queue));
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    ze_command_list_handle_t regular = nullptr;
    ASSERT_ZE_SUCCESS(zeCommandListCreate(context_, device_, &ld, &regular));
    ASSERT_ZE_SUCCESS(launch(regular, increment, {1, 1, 1}, nullptr, {gate}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(regular));
    ze_fence_desc_t fd = {ZE_STRUCTURE_TYPE_FENCE_DESC};
    ze_fence_handle_t fence = nullptr;
    ASSERT_ZE_SUCCESS(zeFenceCreate(queue, &fd, &fence));
    ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue, 1, &regular, fence));
    ze_command_list_handle_t second = immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    int host[64] = {};
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryCopy(second, host, data, sizeof(host), copied, 1, &gate));

    // The fault, waited for with no timeout.
    uint64_t nowhere = 0x1000; // page 1: no allocation is there
    ASSERT_ZE_SUCCESS(setArgs(fault, {byValue(nowhere)}));
    Clock::time_point start = Clock::now();
    ASSERT_ZE_SUCCESS(launch(list_, fault, {1, 1, 1}, faulted));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeEventHostSynchronize(faulted, UINT64_MAX));
    std::printf("the wait on the faulting kernel returned DEVICE_LOST %.1f ms after its launch\n",
                msSince(start));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeEventQueryStatus(faulted));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeContextGetStatus(context_));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeDeviceGetStatus(device_));

    // What waited behind the gate will never run: every wait says so.
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    start = Clock::now();
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeEventHostSynchronize(copied, UINT64_MAX));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeFenceHostSynchronize(fence, UINT64_MAX));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, zeCommandQueueSynchronize(queue, UINT64_MAX));
    std::printf("the three waits behind the gate returned DEVICE_LOST in %.1f ms\n",
                msSince(start));

    // Nothing more is accepted for the device.
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_LOST, launch(list_, increment, {1, 1, 1}, later));
    EXPECT_ZE_RESULT(
        ZE_RESULT_ERROR_DEVICE_LOST,
        zeCommandListAppendMemoryCopy(list_, host, data, sizeof(host), nullptr, 0, nullptr));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_DEVICE_LOST,
                     zeCommandQueueExecuteCommandLists(queue, 1, &regular, nullptr));

    // Everything is destroyed cleanly (the fixture destroys the rest).
    EXPECT_ZE_SUCCESS(zeFenceDestroy(fence));
    EXPECT_ZE_SUCCESS(zeCommandListDestroy(regular));
    EXPECT_ZE_SUCCESS(zeCommandQueueDestroy(queue));
}

} // namespace
} // namespace zetest
