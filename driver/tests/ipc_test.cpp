// Memory and event pools shared between processes. The child is this test
// program run again (a process that forks after initialising the driver
// cannot use it: PoCL's worker threads are not forked), told the IPC handle
// through the environment; it opens the parent's memory or events, uses
// them, and exits.
#include "ze_test_common.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

extern char **environ;

namespace zetest {
namespace {

constexpr char kHandleVariable[] = "ZE_OPENCL_TEST_IPC_HANDLE";
constexpr char kEventPoolVariable[] = "ZE_OPENCL_TEST_IPC_EVENT_POOL";
constexpr uint32_t kCount = 1000;

bool isChild() {
    return std::getenv(kHandleVariable) != nullptr || std::getenv(kEventPoolVariable) != nullptr;
}

template <class Handle> std::string toHex(const Handle &handle) {
    std::string text;
    for (unsigned char byte : handle.data) {
        char two[3];
        std::snprintf(two, sizeof(two), "%02x", byte);
        text += two;
    }
    return text;
}

template <class Handle> bool fromHex(const char *text, Handle *handle) {
    if (std::strlen(text) != 2 * sizeof(handle->data))
        return false;
    for (size_t i = 0; i < sizeof(handle->data); ++i)
        handle->data[i] = static_cast<char>(std::stoi(std::string(text + 2 * i, 2), nullptr, 16));
    return true;
}

// Runs this program again with `variable` set to `handle`, running only
// `test`, and returns its wait status.
template <class Handle>
void spawnChild(const char *variable, const Handle &handle, const char *test, pid_t *child) {
    std::string setting = std::string(variable) + "=" + toHex(handle);
    std::vector<char *> env;
    for (char **e = environ; *e != nullptr; ++e)
        env.push_back(*e);
    env.push_back(setting.data());
    env.push_back(nullptr);
    std::string filter = std::string("--gtest_filter=IpcTest.") + test;
    char self[] = "/proc/self/exe";
    char *argv[] = {self, filter.data(), nullptr};
    ASSERT_EQ(posix_spawn(child, self, nullptr, nullptr, argv, env.data()), 0);
}

void expectChildSucceeded(pid_t child) {
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
}

class IpcTest : public WithImmediateList {};

// Runs in the child only (the parent starts it with the handle set).
TEST_F(IpcTest, ChildIncrementsTheParentsMemory) {
    const char *text = std::getenv(kHandleVariable);
    if (text == nullptr)
        GTEST_SKIP() << "the child half of ParentMemoryIsWrittenByAChildProcess";
    ze_ipc_mem_handle_t handle;
    ASSERT_TRUE(fromHex(text, &handle));
    void *memory = nullptr;
    ASSERT_ZE_SUCCESS(zeMemOpenIpcHandle(context_, device_, handle, 0, &memory));
    ASSERT_NE(memory, nullptr);
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "basic"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "increment", 8));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {byValue(memory)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {kCount / 8, 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    ASSERT_ZE_SUCCESS(zeMemCloseIpcHandle(context_, memory));
}

// Device memory of the parent, written by a kernel of another process
// through an IPC handle, and read back by the parent.
TEST_F(IpcTest, ParentMemoryIsWrittenByAChildProcess) {
    if (isChild())
        GTEST_SKIP() << "this is the child";
    ze_driver_ipc_properties_t properties = {ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDriverGetIpcProperties(driver_, &properties));
    ASSERT_TRUE(properties.flags & ZE_IPC_PROPERTY_FLAG_MEMORY);

    UsmBuffer<int> memory, host;
    ASSERT_NO_FATAL_FAILURE(allocate(memory, UsmKind::Device, kCount));
    ASSERT_NO_FATAL_FAILURE(allocate(host, UsmKind::Host, kCount));
    for (uint32_t i = 0; i < kCount; ++i)
        host[i] = testValue(i, 5);
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, memory.ptr(), host.ptr(), host.bytes(),
                                                    nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    ze_ipc_mem_handle_t handle;
    ASSERT_ZE_SUCCESS(zeMemGetIpcHandle(context_, memory.ptr(), &handle));

    // The child: this program, running only the child's half.
    pid_t child = 0;
    ASSERT_NO_FATAL_FAILURE(
        spawnChild(kHandleVariable, handle, "ChildIncrementsTheParentsMemory", &child));
    ASSERT_NO_FATAL_FAILURE(expectChildSucceeded(child));

    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, host.ptr(), memory.ptr(), host.bytes(),
                                                    nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (uint32_t i = 0; i < kCount; ++i)
        ASSERT_EQ(host[i], testValue(i, 5) + 1) << i;
}

// In one process: every open maps the memory anew, so each has its own
// pointer to the same data; closing one leaves the others and the allocation.
TEST_F(IpcTest, OpensInTheSameProcessShareTheData) {
    if (isChild())
        GTEST_SKIP() << "this is the child";
    UsmBuffer<int> memory;
    ASSERT_NO_FATAL_FAILURE(allocate(memory, UsmKind::Shared, kCount));
    for (uint32_t i = 0; i < kCount; ++i)
        memory[i] = testValue(i, 6);
    ze_ipc_mem_handle_t handle;
    ASSERT_ZE_SUCCESS(zeMemGetIpcHandle(context_, memory.data() + 10, &handle));
    int *first = nullptr, *second = nullptr;
    ASSERT_ZE_SUCCESS(
        zeMemOpenIpcHandle(context_, device_, handle, 0, reinterpret_cast<void **>(&first)));
    ASSERT_ZE_SUCCESS(
        zeMemOpenIpcHandle(context_, device_, handle, 0, reinterpret_cast<void **>(&second)));
    ASSERT_NE(first, second);
    EXPECT_EQ(first[0], testValue(10, 6)) << "the handle keeps the pointer's offset";
    first[1] = -7;
    EXPECT_EQ(second[1], -7);
    EXPECT_EQ(memory[11], -7);
    ASSERT_ZE_SUCCESS(zeMemCloseIpcHandle(context_, first));
    EXPECT_EQ(second[2], testValue(12, 6));
    ASSERT_ZE_SUCCESS(zeMemCloseIpcHandle(context_, second));
    EXPECT_NE(Result{ZE_RESULT_SUCCESS}, Result{zeMemCloseIpcHandle(context_, second)});
    EXPECT_NE(Result{ZE_RESULT_SUCCESS}, Result{zeMemCloseIpcHandle(context_, memory.ptr())})
        << "an allocation is freed, not closed";
    int onStack = 0;
    EXPECT_NE(Result{ZE_RESULT_SUCCESS}, Result{zeMemGetIpcHandle(context_, &onStack, &handle)});
}

// Device memory opened through its handle in the exporting process itself:
// each open reaches the allocation's data from the exported pointer, and
// writes through it land there; every open is closed once.
TEST_F(IpcTest, OpensInTheExportingProcessReachTheDeviceMemory) {
    if (isChild())
        GTEST_SKIP() << "this is the child";
    UsmBuffer<int> memory, host;
    ASSERT_NO_FATAL_FAILURE(allocate(memory, UsmKind::Device, kCount));
    ASSERT_NO_FATAL_FAILURE(allocate(host, UsmKind::Host, kCount));
    for (uint32_t i = 0; i < kCount; ++i)
        host[i] = testValue(i, 7);
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, memory.ptr(), host.ptr(), host.bytes(),
                                                    nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    ze_ipc_mem_handle_t handle;
    ASSERT_ZE_SUCCESS(zeMemGetIpcHandle(context_, static_cast<int *>(memory.ptr()) + 10, &handle));
    int *first = nullptr, *second = nullptr;
    ASSERT_ZE_SUCCESS(
        zeMemOpenIpcHandle(context_, device_, handle, 0, reinterpret_cast<void **>(&first)));
    ASSERT_ZE_SUCCESS(
        zeMemOpenIpcHandle(context_, device_, handle, 0, reinterpret_cast<void **>(&second)));
    const int written = -7;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, second + 1, &written, sizeof(int),
                                                    nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, host.ptr(), first, 4 * sizeof(int),
                                                    nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    EXPECT_EQ(host[0], testValue(10, 7)) << "the handle keeps the pointer's offset";
    EXPECT_EQ(host[1], written);
    EXPECT_EQ(host[2], testValue(12, 7));
    ASSERT_ZE_SUCCESS(zeMemCloseIpcHandle(context_, first));
    ASSERT_ZE_SUCCESS(zeMemCloseIpcHandle(context_, second));
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, host.ptr(), memory.ptr(), host.bytes(),
                                                    nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    EXPECT_EQ(host[11], written) << "the allocation keeps what the opened pointer wrote";
    EXPECT_EQ(host[12], testValue(12, 7));
}

// IPC event pools: slots 1 and 2 of a pool of kEvents.
constexpr uint32_t kEvents = 4;
ze_event_pool_desc_t ipcPoolDesc() {
    return {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
            ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_IPC, kEvents};
}

// Runs in the child only: signals the parent's event 1 from a command, then
// waits on the host for event 2, which the parent's command signals once it
// has seen event 1.
TEST_F(IpcTest, ChildSignalsFromACommandAndWaitsOnTheHost) {
    const char *text = std::getenv(kEventPoolVariable);
    if (text == nullptr)
        GTEST_SKIP() << "the child half of EventsAreSignalledAndWaitedForAcrossProcesses";
    ze_ipc_event_pool_handle_t handle;
    ASSERT_TRUE(fromHex(text, &handle));
    ze_event_pool_handle_t pool = nullptr;
    ASSERT_ZE_SUCCESS(zeEventPoolOpenIpcHandle(context_, handle, &pool));
    {
        Event fromChild, fromParent;
        ASSERT_NO_FATAL_FAILURE(createEvent(fromChild, pool, 1));
        ASSERT_NO_FATAL_FAILURE(createEvent(fromParent, pool, 2));
        EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(fromParent));
        ASSERT_ZE_SUCCESS(zeCommandListAppendSignalEvent(list_, fromChild));
        EXPECT_ZE_SUCCESS(zeEventHostSynchronize(fromParent, 60'000'000'000ull));
    }
    ASSERT_ZE_SUCCESS(zeEventPoolCloseIpcHandle(pool));
}

// A command of the parent waits for an event the child signals; the event it
// signals then ends the child's host wait. The copy behind the wait must not
// have completed before the child started.
TEST_F(IpcTest, EventsAreSignalledAndWaitedForAcrossProcesses) {
    if (isChild())
        GTEST_SKIP() << "this is the child";
    ze_driver_ipc_properties_t properties = {ZE_STRUCTURE_TYPE_DRIVER_IPC_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDriverGetIpcProperties(driver_, &properties));
    ASSERT_TRUE(properties.flags & ZE_IPC_PROPERTY_FLAG_EVENT_POOL);

    ze_event_pool_desc_t desc = ipcPoolDesc();
    EventPool pool;
    ASSERT_ZE_SUCCESS(zeEventPoolCreate(context_, &desc, 0, nullptr, pool.out()));
    Event fromChild, fromParent;
    ASSERT_NO_FATAL_FAILURE(createEvent(fromChild, pool, 1));
    ASSERT_NO_FATAL_FAILURE(createEvent(fromParent, pool, 2));
    UsmBuffer<int> src, dst;
    ASSERT_NO_FATAL_FAILURE(allocate(src, UsmKind::Host, kCount));
    ASSERT_NO_FATAL_FAILURE(allocate(dst, UsmKind::Host, kCount));
    for (uint32_t i = 0; i < kCount; ++i) {
        src[i] = testValue(i, 7);
        dst[i] = 0;
    }
    ze_event_handle_t wait = fromChild;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, dst.ptr(), src.ptr(), src.bytes(),
                                                    fromParent, 1, &wait));
    // The copy (which signals fromParent) waits; dst is not read here, since
    // the copy writes it once the child signals, and ThreadSanitizer cannot
    // see the order that the other process gives those two accesses.
    EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(fromParent, 50'000'000))
        << "the copy ran before its wait event was signalled";

    ze_ipc_event_pool_handle_t handle;
    ASSERT_ZE_SUCCESS(zeEventPoolGetIpcHandle(pool, &handle));
    pid_t child = 0;
    ASSERT_NO_FATAL_FAILURE(spawnChild(kEventPoolVariable, handle,
                                       "ChildSignalsFromACommandAndWaitsOnTheHost", &child));
    ASSERT_NO_FATAL_FAILURE(expectChildSucceeded(child));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(fromParent, UINT64_MAX));
    EXPECT_ZE_SUCCESS(zeEventQueryStatus(fromChild));
    for (uint32_t i = 0; i < kCount; ++i)
        ASSERT_EQ(dst[i], src[i]) << i;
}

// A pool opened in its own process shares the states: signals and resets
// through one handle are seen through the other, by the host and by commands.
TEST_F(IpcTest, AnOpenedPoolSharesEventStatesWithItsOrigin) {
    if (isChild())
        GTEST_SKIP() << "this is the child";
    ze_event_pool_desc_t desc = ipcPoolDesc();
    EventPool pool;
    ASSERT_ZE_SUCCESS(zeEventPoolCreate(context_, &desc, 0, nullptr, pool.out()));
    ze_ipc_event_pool_handle_t handle;
    ASSERT_ZE_SUCCESS(zeEventPoolGetIpcHandle(pool, &handle));
    ze_event_pool_handle_t opened = nullptr;
    ASSERT_ZE_SUCCESS(zeEventPoolOpenIpcHandle(context_, handle, &opened));
    {
        Event origin, copy, done;
        ASSERT_NO_FATAL_FAILURE(createEvent(origin, pool, 3));
        ASSERT_NO_FATAL_FAILURE(createEvent(copy, opened, 3));
        ASSERT_NO_FATAL_FAILURE(createEvent(done, 1));
        ASSERT_ZE_SUCCESS(zeEventHostSignal(origin));
        EXPECT_ZE_SUCCESS(zeEventQueryStatus(copy));
        ASSERT_ZE_SUCCESS(zeEventHostReset(copy));
        EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventQueryStatus(origin));

        ze_event_handle_t wait = copy;
        ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, nullptr, 1, &wait));
        ASSERT_ZE_SUCCESS(zeCommandListAppendSignalEvent(list_, done));
        EXPECT_ZE_RESULT(ZE_RESULT_NOT_READY, zeEventHostSynchronize(done, 20'000'000));
        ASSERT_ZE_SUCCESS(zeEventHostSignal(origin));
        EXPECT_ZE_SUCCESS(zeEventHostSynchronize(done, UINT64_MAX));
    }
    ASSERT_ZE_SUCCESS(zeEventPoolCloseIpcHandle(opened));

    ze_event_pool_desc_t plain = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                  ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    EventPool notShared;
    ASSERT_ZE_SUCCESS(zeEventPoolCreate(context_, &plain, 0, nullptr, notShared.out()));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, zeEventPoolGetIpcHandle(notShared, &handle));
}

} // namespace
} // namespace zetest
