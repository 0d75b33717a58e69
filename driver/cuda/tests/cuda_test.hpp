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

// The GPU with lists and events, and modules and kernels made from SPIR-V,
// destroyed at the end of the test.
class WithCudaModules : public WithCudaLists {
protected:
    void TearDown() override {
        kernels_.clear();
        modules_.clear();
        WithCudaLists::TearDown();
    }
    // A module of the driver tests' kernels (driver/tests/kernels/<name>.cl).
    ze_module_handle_t module(const std::string &name) {
        return moduleOf(loadSpirv(name));
    }
    // A module of this backend's own test kernels (tests/kernels/<name>.cl).
    ze_module_handle_t cudaModule(const std::string &name) {
        return moduleOf(readFile(std::string(ZE_CUDA_TEST_SPIRV_DIR) + "/" + name + ".spv"));
    }
    ze_module_handle_t moduleOf(const std::vector<uint8_t> &spirv) {
        modules_.emplace_back();
        EXPECT_ZE_SUCCESS(
            createModule(context_, device_, spirv, ZE_MODULE_FORMAT_IL_SPIRV, modules_.back()));
        return modules_.back();
    }
    ze_kernel_handle_t kernel(ze_module_handle_t module, const char *name, uint32_t gx,
                              uint32_t gy = 1, uint32_t gz = 1) {
        kernels_.emplace_back();
        EXPECT_ZE_SUCCESS(createKernel(module, name, kernels_.back()));
        EXPECT_ZE_SUCCESS(zeKernelSetGroupSize(kernels_.back(), gx, gy, gz));
        return kernels_.back();
    }
    // Device memory holding `values`, copied in on list_.
    template <class T> T *deviceWith(const std::vector<T> &values) {
        T *d = device<T>(values.size());
        EXPECT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, d, values.data(),
                                                        values.size() * sizeof(T), nullptr, 0,
                                                        nullptr));
        sync(list_);
        return d;
    }
    // What `n` elements of device memory hold, copied back on list_ after
    // the work appended to it so far.
    template <class T> std::vector<T> read(const T *d, size_t n) {
        std::vector<T> out(n);
        EXPECT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, out.data(), d, n * sizeof(T),
                                                        nullptr, 0, nullptr));
        sync(list_);
        return out;
    }
    static Arg pointer(void *const &p) { return Arg{sizeof(void *), &p}; }
    // The build log of a module that must not build, with `expected`.
    std::string refusedBuild(const std::vector<uint8_t> &input, ze_module_format_t format,
                             ze_result_t expected) {
        ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
        desc.format = format;
        desc.inputSize = input.size();
        desc.pInputModule = input.data();
        ze_module_handle_t module = nullptr;
        ze_module_build_log_handle_t log = nullptr;
        EXPECT_ZE_RESULT(expected, zeModuleCreate(context_, device_, &desc, &module, &log));
        std::string text = buildLogText(log);
        EXPECT_ZE_SUCCESS(zeModuleBuildLogDestroy(log));
        return text;
    }

    std::vector<Module> modules_;
    std::vector<Kernel> kernels_;
};

} // namespace zetest
