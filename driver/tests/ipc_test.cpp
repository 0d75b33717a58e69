// Memory shared between processes. The child is this test program run again
// (a process that forks after initialising the driver cannot use it: PoCL's
// worker threads are not forked), told the IPC handle through the
// environment; it opens the parent's memory, runs a kernel on it, and exits.
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
constexpr uint32_t kCount = 1000;

std::string toHex(const ze_ipc_mem_handle_t &handle) {
    std::string text;
    for (unsigned char byte : handle.data) {
        char two[3];
        std::snprintf(two, sizeof(two), "%02x", byte);
        text += two;
    }
    return text;
}

bool fromHex(const char *text, ze_ipc_mem_handle_t *handle) {
    if (std::strlen(text) != 2 * sizeof(handle->data))
        return false;
    for (size_t i = 0; i < sizeof(handle->data); ++i)
        handle->data[i] = static_cast<char>(std::stoi(std::string(text + 2 * i, 2), nullptr, 16));
    return true;
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
    if (std::getenv(kHandleVariable) != nullptr)
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
    std::string variable = std::string(kHandleVariable) + "=" + toHex(handle);
    std::vector<char *> env;
    for (char **e = environ; *e != nullptr; ++e)
        env.push_back(*e);
    env.push_back(variable.data());
    env.push_back(nullptr);
    std::string filter = "--gtest_filter=IpcTest.ChildIncrementsTheParentsMemory";
    char self[] = "/proc/self/exe";
    char *argv[] = {self, filter.data(), nullptr};
    pid_t child = 0;
    ASSERT_EQ(posix_spawn(&child, self, nullptr, nullptr, argv, env.data()), 0);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;

    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, host.ptr(), memory.ptr(), host.bytes(),
                                                    nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (uint32_t i = 0; i < kCount; ++i)
        ASSERT_EQ(host[i], testValue(i, 5) + 1) << i;
}

// In one process: every open maps the memory anew, so each has its own
// pointer to the same data; closing one leaves the others and the allocation.
TEST_F(IpcTest, OpensInTheSameProcessShareTheData) {
    if (std::getenv(kHandleVariable) != nullptr)
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

} // namespace
} // namespace zetest
