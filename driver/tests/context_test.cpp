// Contexts: creation, status, and independence of several contexts on one
// device (frameworks and libraries in one process each own a context).
#include "ze_test_common.hpp"

namespace zetest {
namespace {

class ContextTest : public WithDevice {
  protected:
    // Runs c = a + b entirely inside `context`: its own module, list and
    // memory. Returns through gtest assertions.
    void vectorAddIn(ze_context_handle_t context, int seed) {
        constexpr size_t n = 257;
        const std::vector<uint8_t> spirv = loadSpirv("basic");
        ASSERT_FALSE(spirv.empty());
        Module module;
        ASSERT_ZE_SUCCESS(createModule(context, device_, spirv, ZE_MODULE_FORMAT_IL_SPIRV, module));
        Kernel kernel;
        ASSERT_ZE_SUCCESS(createKernel(module, "vector_add", kernel));
        ASSERT_ZE_SUCCESS(zeKernelSetGroupSize(kernel, 1, 1, 1));

        UsmBuffer<int> a, b, c;
        ASSERT_ZE_SUCCESS(a.allocate(context, device_, UsmKind::Host, n));
        ASSERT_ZE_SUCCESS(b.allocate(context, device_, UsmKind::Shared, n));
        ASSERT_ZE_SUCCESS(c.allocate(context, device_, UsmKind::Shared, n));
        for (size_t i = 0; i < n; ++i) {
            a[i] = testValue(i, seed);
            b[i] = testValue(i, seed + 1);
            c[i] = 0;
        }
        ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(a), usm(b), usm(c)}));

        ze_command_queue_desc_t qdesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
        qdesc.mode = ZE_COMMAND_QUEUE_MODE_SYNCHRONOUS;
        CommandList list;
        ASSERT_ZE_SUCCESS(zeCommandListCreateImmediate(context, device_, &qdesc, list.out()));
        // A synchronous immediate list returns once the launch has completed.
        ASSERT_ZE_SUCCESS(launch(list, kernel, {static_cast<uint32_t>(n), 1, 1}));
        for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(c[i], a[i] + b[i]) << "i=" << i;
    }
};

TEST_F(ContextTest, CreateReportsHealthyStatusAndDestroys) {
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    Context context;
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, context.out()));
    ASSERT_NE(context.get(), nullptr);
    EXPECT_ZE_SUCCESS(zeContextGetStatus(context));
}

TEST_F(ContextTest, CreateExWithAnExplicitDeviceList) {
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    ze_device_handle_t device = device_;
    Context context;
    ASSERT_ZE_SUCCESS(zeContextCreateEx(driver_, &desc, 1, &device, context.out()));
    EXPECT_ZE_SUCCESS(zeContextGetStatus(context));
    ASSERT_NO_FATAL_FAILURE(vectorAddIn(context, 5));
}

TEST_F(ContextTest, KernelRunsInAFreshContext) {
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    Context context;
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, context.out()));
    ASSERT_NO_FATAL_FAILURE(vectorAddIn(context, 1));
}

// Two live contexts do not interfere, and destroying one leaves the other
// fully usable.
TEST_F(ContextTest, TwoContextsAreIndependent) {
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    Context first, second;
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, first.out()));
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, second.out()));
    ASSERT_NE(first.get(), second.get());

    UsmBuffer<int> keptInSecond;
    ASSERT_ZE_SUCCESS(keptInSecond.allocate(second, device_, UsmKind::Shared, 4));
    keptInSecond[0] = 42;

    ASSERT_NO_FATAL_FAILURE(vectorAddIn(first, 2));
    ASSERT_NO_FATAL_FAILURE(vectorAddIn(second, 3));
    first.reset();

    EXPECT_ZE_SUCCESS(zeContextGetStatus(second));
    EXPECT_EQ(keptInSecond[0], 42);
    ASSERT_NO_FATAL_FAILURE(vectorAddIn(second, 4));
}

// The contexts of one driver share what their objects need: a kernel of one
// context runs on a list and queue of a second, over memory of a third,
// signalling an event of the third, as on Intel's driver (frameworks pass
// kernels and memory between their contexts); memory is freed through any of
// them. Only wait events must be of the list's context.
TEST_F(ContextTest, ObjectsOfDifferentContextsWorkTogether) {
    constexpr size_t n = 129;
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    Context forModule, forList, forMemory;
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, forModule.out()));
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, forList.out()));
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, forMemory.out()));

    Module module;
    ASSERT_ZE_SUCCESS(
        createModule(forModule, device_, loadSpirv("basic"), ZE_MODULE_FORMAT_IL_SPIRV, module));
    Kernel kernel;
    ASSERT_ZE_SUCCESS(createKernel(module, "vector_add", kernel));
    ASSERT_ZE_SUCCESS(zeKernelSetGroupSize(kernel, 1, 1, 1));
    UsmBuffer<int> a, b, c;
    ASSERT_ZE_SUCCESS(a.allocate(forMemory, device_, UsmKind::Host, n));
    ASSERT_ZE_SUCCESS(b.allocate(forMemory, device_, UsmKind::Shared, n));
    ASSERT_ZE_SUCCESS(c.allocate(forMemory, device_, UsmKind::Shared, n));
    for (size_t i = 0; i < n; ++i) {
        a[i] = testValue(i, 7);
        b[i] = testValue(i, 8);
        c[i] = 0;
    }
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(a), usm(b), usm(c)}));

    ze_event_pool_desc_t poolDesc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC};
    poolDesc.flags = ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
    poolDesc.count = 2;
    ze_device_handle_t device = device_;
    EventPool listPool, memoryPool;
    ASSERT_ZE_SUCCESS(zeEventPoolCreate(forList, &poolDesc, 1, &device, listPool.out()));
    ASSERT_ZE_SUCCESS(zeEventPoolCreate(forMemory, &poolDesc, 1, &device, memoryPool.out()));
    Event gate, done, foreignGate;
    ze_event_desc_t eventDesc = {ZE_STRUCTURE_TYPE_EVENT_DESC};
    ASSERT_ZE_SUCCESS(zeEventCreate(listPool, &eventDesc, gate.out()));
    ASSERT_ZE_SUCCESS(zeEventCreate(memoryPool, &eventDesc, done.out()));
    eventDesc.index = 1;
    ASSERT_ZE_SUCCESS(zeEventCreate(memoryPool, &eventDesc, foreignGate.out()));

    ze_command_queue_desc_t queueDesc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    CommandQueue queue;
    ASSERT_ZE_SUCCESS(zeCommandQueueCreate(forList, device_, &queueDesc, queue.out()));
    ze_command_list_desc_t listDesc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    CommandList list;
    ASSERT_ZE_SUCCESS(zeCommandListCreate(forList, device_, &listDesc, list.out()));
    EXPECT_EQ(Result{ZE_RESULT_ERROR_INVALID_ARGUMENT},
              Result{launch(list, kernel, {static_cast<uint32_t>(n), 1, 1}, done, {foreignGate})});
    ASSERT_ZE_SUCCESS(launch(list, kernel, {static_cast<uint32_t>(n), 1, 1}, done, {gate}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list));
    ze_command_list_handle_t lists[] = {list};
    ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue, 1, lists, nullptr));
    EXPECT_EQ(Result{ZE_RESULT_NOT_READY}, Result{zeEventQueryStatus(done)});
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(done, UINT64_MAX));
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(c[i], a[i] + b[i]) << "i=" << i;
    ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue, UINT64_MAX));

    // Memory of one context can be freed through another, once.
    void *raw = nullptr;
    ze_host_mem_alloc_desc_t hostDesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    ASSERT_ZE_SUCCESS(zeMemAllocHost(forMemory, &hostDesc, 64, 0, &raw));
    EXPECT_ZE_SUCCESS(zeMemFree(forModule, raw));
    EXPECT_EQ(Result{ZE_RESULT_ERROR_INVALID_ARGUMENT}, Result{zeMemFree(forMemory, raw)});
}

// A system barrier succeeds for the context's devices only.
TEST_F(ContextTest, SystemBarrier) {
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    Context context;
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, context.out()));
    ASSERT_NO_FATAL_FAILURE(vectorAddIn(context, 9));
    EXPECT_ZE_SUCCESS(zeContextSystemBarrier(context, device_));
    EXPECT_NE(Result{ZE_RESULT_SUCCESS},
              Result{zeContextSystemBarrier(
                  context, reinterpret_cast<ze_device_handle_t>(context.get()))});
}

// Memory belongs to the context it was allocated in.
TEST_F(ContextTest, AllocationsAreTiedToTheirContext) {
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    Context context;
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, context.out()));
    UsmBuffer<int> buffer;
    ASSERT_ZE_SUCCESS(buffer.allocate(context, device_, UsmKind::Device, 64));
    ze_memory_allocation_properties_t props = {ZE_STRUCTURE_TYPE_MEMORY_ALLOCATION_PROPERTIES};
    ze_device_handle_t owner = nullptr;
    ASSERT_ZE_SUCCESS(zeMemGetAllocProperties(context, buffer.ptr(), &props, &owner));
    EXPECT_EQ(props.type, ZE_MEMORY_TYPE_DEVICE);
    EXPECT_EQ(owner, device_);
}

// Handles are validated where cheap: a handle of the wrong type is an error,
// not a crash. The issue allows INVALID_ARGUMENT or INVALID_NULL_HANDLE.
TEST_F(ContextTest, WrongTypeHandlesAreRejected) {
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    Context context;
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, context.out()));
    auto rejected = [](ze_result_t r) {
        return r == ZE_RESULT_ERROR_INVALID_ARGUMENT || r == ZE_RESULT_ERROR_INVALID_NULL_HANDLE;
    };
    // A context where a command list, an event, a fence and a kernel belong.
    const ze_result_t asList =
        zeCommandListClose(reinterpret_cast<ze_command_list_handle_t>(context.get()));
    EXPECT_TRUE(rejected(asList)) << resultName(asList);
    const ze_result_t asEvent =
        zeEventHostSignal(reinterpret_cast<ze_event_handle_t>(context.get()));
    EXPECT_TRUE(rejected(asEvent)) << resultName(asEvent);
    const ze_result_t asFence =
        zeFenceQueryStatus(reinterpret_cast<ze_fence_handle_t>(context.get()));
    EXPECT_TRUE(rejected(asFence)) << resultName(asFence);
    ze_kernel_properties_t props = {ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    const ze_result_t asKernel =
        zeKernelGetProperties(reinterpret_cast<ze_kernel_handle_t>(context.get()), &props);
    EXPECT_TRUE(rejected(asKernel)) << resultName(asKernel);
    // A device where a context belongs.
    const ze_result_t asContext =
        zeContextGetStatus(reinterpret_cast<ze_context_handle_t>(device_));
    EXPECT_TRUE(rejected(asContext)) << resultName(asContext);
    // The context is unharmed.
    EXPECT_ZE_SUCCESS(zeContextGetStatus(context));
}

// Freeing memory the driver did not allocate, or freeing twice, is an error
// and leaves the driver working.
TEST_F(ContextTest, FreeingForeignOrFreedMemoryIsAnError) {
    ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
    Context context;
    ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, context.out()));
    int onStack = 0;
    EXPECT_NE(Result{ZE_RESULT_SUCCESS}, Result{zeMemFree(context, &onStack)});
    UsmBuffer<int> buffer;
    ASSERT_ZE_SUCCESS(buffer.allocate(context, device_, UsmKind::Shared, 8));
    void *ptr = buffer.ptr();
    buffer.reset();
    EXPECT_NE(Result{ZE_RESULT_SUCCESS}, Result{zeMemFree(context, ptr)}) << "double free";
    ASSERT_NO_FATAL_FAILURE(vectorAddIn(context, 6));
}

} // namespace
} // namespace zetest
