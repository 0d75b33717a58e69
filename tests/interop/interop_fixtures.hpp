// Shared pieces of the interop tests: assertion macros that print the
// imex_l0 status name with the library's last error message (or the
// ze_result_t name), an RAII holder for the Level Zero objects a test creates
// as "the framework", and the fixture chain
//     WithDriver -> WithEngine -> WithStream -> WithKernels
// where each step creates the framework's own Level Zero objects and wraps
// them with the library, so every test starts from what a real embedder has.
#pragma once

#include "imex_l0_interop.h"

#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace interop_test {

// ------------------------------------------------------------- Diagnostics

inline const char *zeResultName(ze_result_t r) {
    switch (r) {
#define INTEROP_TEST_ZE_NAME(x)                                                                    \
    case x:                                                                                        \
        return #x;
        INTEROP_TEST_ZE_NAME(ZE_RESULT_SUCCESS)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_NOT_READY)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_DEVICE_LOST)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_UNINITIALIZED)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_INVALID_ARGUMENT)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_INVALID_SIZE)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_INVALID_ENUMERATION)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
        INTEROP_TEST_ZE_NAME(ZE_RESULT_ERROR_UNKNOWN)
#undef INTEROP_TEST_ZE_NAME
    default:
        return "ZE_RESULT_(other value)";
    }
}

// The message must be read right after the call: it is only valid until this
// thread's next library call. The predicate formatters run immediately after
// the expression, before anything else can call the library.
inline ::testing::AssertionResult imexSucceeded(const char *expr, imex_l0_status_t s) {
    if (s == imex_l0_success)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << expr << " returned " << imex_l0_status_str(s) << ": "
                                         << imex_l0_last_error_message();
}

inline ::testing::AssertionResult imexStatusIs(const char *expected_expr, const char *expr,
                                               imex_l0_status_t expected, imex_l0_status_t s) {
    if (s == expected)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << expr << " returned " << imex_l0_status_str(s) << " instead of "
           << imex_l0_status_str(expected) << " (" << expected_expr
           << "); message: " << imex_l0_last_error_message();
}

inline ::testing::AssertionResult zeSucceeded(const char *expr, ze_result_t r) {
    if (r == ZE_RESULT_SUCCESS)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << expr << " returned " << zeResultName(r);
}

// This thread's last library message, copied (the pointer dies on the next call).
inline std::string lastError() { return imex_l0_last_error_message(); }

} // namespace interop_test

#define ASSERT_IMEX(call) ASSERT_PRED_FORMAT1(::interop_test::imexSucceeded, call)
#define EXPECT_IMEX(call) EXPECT_PRED_FORMAT1(::interop_test::imexSucceeded, call)
#define ASSERT_IMEX_STATUS(expected, call)                                                         \
    ASSERT_PRED_FORMAT2(::interop_test::imexStatusIs, expected, call)
#define EXPECT_IMEX_STATUS(expected, call)                                                         \
    EXPECT_PRED_FORMAT2(::interop_test::imexStatusIs, expected, call)
#define ASSERT_ZE(call) ASSERT_PRED_FORMAT1(::interop_test::zeSucceeded, call)
#define EXPECT_ZE(call) EXPECT_PRED_FORMAT1(::interop_test::zeSucceeded, call)
// The last library message contains `text` (a substring, so wording may evolve).
#define EXPECT_MESSAGE_HAS(text)                                                                   \
    EXPECT_NE(::interop_test::lastError().find(text), std::string::npos)                         \
        << "message \"" << ::interop_test::lastError() << "\" does not mention \"" << (text)     \
        << "\""
// invalid_arguments, and the message names what was wrong.
#define EXPECT_INVALID(call, text)                                                                 \
    do {                                                                                           \
        EXPECT_IMEX_STATUS(imex_l0_invalid_arguments, call);                                       \
        EXPECT_MESSAGE_HAS(text);                                                                  \
    } while (0)

namespace interop_test {

// ------------------------------------------------------------- RAII holders

// Reports a failed destroy as a test failure. For the user's Level Zero
// objects that means the library destroyed (or broke) something it does not
// own: exactly what the ownership tests look for.
inline void expectDestroyed(ze_result_t result) { EXPECT_ZE(result); }
inline void expectDestroyed(imex_l0_status_t status) { EXPECT_IMEX(status); }

// Owns one handle and destroys it with Destroy: the user's Level Zero objects
// (ZeHolder) and library objects whose destruction is not under test
// (ImexHolder). Move-only; release() hands the handle back without destroying it.
template <typename T, typename Result, Result (*Destroy)(T)> class Holder {
public:
    Holder() = default;
    explicit Holder(T h) : h_(h) {}
    Holder(Holder &&o) noexcept : h_(std::exchange(o.h_, nullptr)) {}
    Holder &operator=(Holder &&o) noexcept {
        if (this != &o) {
            reset();
            h_ = std::exchange(o.h_, nullptr);
        }
        return *this;
    }
    Holder(const Holder &) = delete;
    Holder &operator=(const Holder &) = delete;
    ~Holder() { reset(); }

    T get() const { return h_; }
    T *out() {
        reset();
        return &h_;
    }
    T release() { return std::exchange(h_, nullptr); }
    void reset() {
        if (h_)
            expectDestroyed(Destroy(h_));
        h_ = nullptr;
    }

private:
    T h_ = nullptr;
};

template <typename T, ze_result_t (*Destroy)(T)> using ZeHolder = Holder<T, ze_result_t, Destroy>;
template <typename T, imex_l0_status_t (*Destroy)(T)>
using ImexHolder = Holder<T, imex_l0_status_t, Destroy>;

using ZeContext = ZeHolder<ze_context_handle_t, zeContextDestroy>;
using ZeList = ZeHolder<ze_command_list_handle_t, zeCommandListDestroy>;
using ZeQueue = ZeHolder<ze_command_queue_handle_t, zeCommandQueueDestroy>;
using ZeEventPool = ZeHolder<ze_event_pool_handle_t, zeEventPoolDestroy>;
using ZeEvent = ZeHolder<ze_event_handle_t, zeEventDestroy>;
using ZeFence = ZeHolder<ze_fence_handle_t, zeFenceDestroy>;

// A USM allocation the user owns: freed with zeMemFree on its context.
class UsmBuffer {
public:
    UsmBuffer() = default;
    UsmBuffer(ze_context_handle_t context, void *ptr, size_t size)
        : context_(context), ptr_(ptr), size_(size) {}
    UsmBuffer(UsmBuffer &&o) noexcept
        : context_(o.context_), ptr_(std::exchange(o.ptr_, nullptr)), size_(o.size_) {}
    UsmBuffer &operator=(UsmBuffer &&o) noexcept {
        if (this != &o) {
            reset();
            context_ = o.context_;
            ptr_ = std::exchange(o.ptr_, nullptr);
            size_ = o.size_;
        }
        return *this;
    }
    UsmBuffer(const UsmBuffer &) = delete;
    UsmBuffer &operator=(const UsmBuffer &) = delete;
    ~UsmBuffer() { reset(); }

    void *get() const { return ptr_; }
    template <typename T> T *as() const { return static_cast<T *>(ptr_); }
    size_t size() const { return size_; }
    void reset() {
        // zeMemFree fails on memory already freed: a library that freed the
        // user's pointer shows up here.
        if (ptr_) {
            EXPECT_ZE(zeMemFree(context_, ptr_));
        }
        ptr_ = nullptr;
    }

private:
    ze_context_handle_t context_ = nullptr;
    void *ptr_ = nullptr;
    size_t size_ = 0;
};

using Engine = ImexHolder<imex_l0_engine_t, imex_l0_engine_destroy>;
using Stream = ImexHolder<imex_l0_stream_t, imex_l0_stream_destroy>;
using Memory = ImexHolder<imex_l0_memory_t, imex_l0_memory_destroy>;
using Kernel = ImexHolder<imex_l0_kernel_t, imex_l0_kernel_destroy>;

// Host-visible events of the user's own pool (the framework's DAG nodes).
struct UserEvents {
    ZeEventPool pool;
    std::vector<ZeEvent> events;
    ze_event_handle_t operator[](size_t i) const { return events[i].get(); }
};

// ------------------------------------------------------------- Launch helpers

inline imex_l0_exec_arg_t memArg(imex_l0_memory_t m) { return {imex_l0_arg_memory, m, nullptr, 0}; }
inline imex_l0_exec_arg_t usmArg(const void *p) { return {imex_l0_arg_usm, nullptr, p, 0}; }
template <typename T> imex_l0_exec_arg_t valueArg(const T &v) {
    return {imex_l0_arg_value, nullptr, &v, sizeof(T)};
}
inline imex_l0_exec_arg_t localArg(size_t bytes) {
    return {imex_l0_arg_local, nullptr, nullptr, bytes};
}
inline imex_l0_range_t range1d(size_t global, size_t local = 0) {
    return {{global, 1, 1}, {local, local ? 1u : 0u, local ? 1u : 0u}};
}

// Mirrors affine_t of kernels/interop_kernels.cl: {float, float, int}.
struct AffineParams {
    float scale;
    float offset;
    int count;
};
static_assert(sizeof(AffineParams) == 12, "must match the OpenCL C layout of affine_t");

// The test kernels as OpenCL C text and as SPIR-V compiled at build time.
inline std::string readFile(const std::string &path, std::ios::openmode mode = std::ios::in) {
    std::ifstream in(path, mode);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}
inline const std::string &kernelSource() {
    static const std::string source = readFile(INTEROP_KERNELS_CL);
    return source;
}
inline const std::string &kernelSpirv() {
    static const std::string spirv = readFile(INTEROP_KERNELS_SPV, std::ios::binary);
    return spirv;
}

// ------------------------------------------------------------- Fixtures

// The framework: its driver, device and its own context, plus helpers to
// create further framework-owned objects on them.
class WithDriver : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_ZE(zeInit(0));
        uint32_t count = 1;
        ASSERT_ZE(zeDriverGet(&count, &driver));
        ASSERT_GE(count, 1u);
        count = 1;
        ASSERT_ZE(zeDeviceGet(driver, &count, &device));
        ASSERT_GE(count, 1u);
        uint32_t ngroups = 0;
        ASSERT_ZE(zeDeviceGetCommandQueueGroupProperties(device, &ngroups, nullptr));
        std::vector<ze_command_queue_group_properties_t> groups(
            ngroups, {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES});
        ASSERT_ZE(zeDeviceGetCommandQueueGroupProperties(device, &ngroups, groups.data()));
        bool found = false;
        for (uint32_t i = 0; i < ngroups && !found; ++i)
            if (groups[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE) {
                ordinal = i;
                found = true;
            }
        ASSERT_TRUE(found) << "the device has no compute queue group";
        context = newContext();
        ASSERT_NE(context.get(), nullptr);
    }

    ZeContext newContext() {
        ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
        ZeContext c;
        EXPECT_ZE(zeContextCreate(driver, &desc, c.out()));
        return c;
    }

    ZeList newImmediateList(ze_context_handle_t ctx = nullptr) {
        ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                        nullptr,
                                        ordinal,
                                        0,
                                        0,
                                        ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
        ZeList l;
        EXPECT_ZE(zeCommandListCreateImmediate(ctx ? ctx : context.get(), device, &desc, l.out()));
        return l;
    }

    ZeList newRegularList() {
        ze_command_list_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, ordinal, 0};
        ZeList l;
        EXPECT_ZE(zeCommandListCreate(context.get(), device, &desc, l.out()));
        return l;
    }

    ZeQueue newQueue() {
        ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                        nullptr,
                                        ordinal,
                                        0,
                                        0,
                                        ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                        ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
        ZeQueue q;
        EXPECT_ZE(zeCommandQueueCreate(context.get(), device, &desc, q.out()));
        return q;
    }

    UserEvents newEvents(uint32_t n, ze_context_handle_t ctx = nullptr) {
        UserEvents e;
        ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                                     ZE_EVENT_POOL_FLAG_HOST_VISIBLE, n};
        EXPECT_ZE(zeEventPoolCreate(ctx ? ctx : context.get(), &desc, 1, &device, e.pool.out()));
        for (uint32_t i = 0; i < n; ++i) {
            ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, i,
                                  ZE_EVENT_SCOPE_FLAG_HOST, ZE_EVENT_SCOPE_FLAG_HOST};
            ZeEvent ev;
            EXPECT_ZE(zeEventCreate(e.pool.get(), &ed, ev.out()));
            e.events.push_back(std::move(ev));
        }
        return e;
    }

    UsmBuffer allocShared(size_t bytes, ze_context_handle_t ctx = nullptr) {
        ctx = ctx ? ctx : context.get();
        ze_device_mem_alloc_desc_t d = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        ze_host_mem_alloc_desc_t h = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        void *p = nullptr;
        EXPECT_ZE(zeMemAllocShared(ctx, &d, &h, bytes, 64, device, &p));
        return UsmBuffer(ctx, p, bytes);
    }
    // Device memory of `on` (the fixture's device by default).
    UsmBuffer allocDevice(size_t bytes, ze_context_handle_t ctx = nullptr,
                          ze_device_handle_t on = nullptr) {
        ctx = ctx ? ctx : context.get();
        ze_device_mem_alloc_desc_t d = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        void *p = nullptr;
        EXPECT_ZE(zeMemAllocDevice(ctx, &d, bytes, 64, on ? on : device, &p));
        return UsmBuffer(ctx, p, bytes);
    }
    UsmBuffer allocHost(size_t bytes, ze_context_handle_t ctx = nullptr) {
        ctx = ctx ? ctx : context.get();
        ze_host_mem_alloc_desc_t h = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        void *p = nullptr;
        EXPECT_ZE(zeMemAllocHost(ctx, &h, bytes, 64, &p));
        return UsmBuffer(ctx, p, bytes);
    }

    // The framework uses its own immediate list directly (no library
    // involved): a fill of `bytes` bytes of `value` into dst, waited on with
    // its own event. Proves a list/context is alive and usable.
    void userFill(ze_command_list_handle_t list, void *dst, uint8_t value, size_t bytes,
                  ze_context_handle_t ctx = nullptr) {
        UserEvents done = newEvents(1, ctx);
        ASSERT_ZE(zeCommandListAppendMemoryFill(list, dst, &value, 1, bytes, done[0], 0, nullptr));
        ASSERT_ZE(zeEventHostSynchronize(done[0], UINT64_MAX));
    }

    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t device = nullptr;
    uint32_t ordinal = 0;
    ZeContext context; // the framework's context
};

// The framework's context wrapped in an engine (the library never owns it).
class WithEngine : public WithDriver {
protected:
    void SetUp() override {
        WithDriver::SetUp();
        if (HasFatalFailure())
            return;
        ASSERT_IMEX(imex_l0_interop_engine_create(engine.out(), driver, device, context.get()));
    }

    // ALLOCATEd memory of the engine.
    Memory newMemory(imex_l0_memory_kind_t kind, size_t bytes, imex_l0_engine_t e = nullptr) {
        Memory m;
        EXPECT_IMEX(imex_l0_interop_memory_create(m.out(), e ? e : engine.get(), kind, bytes,
                                                  IMEX_L0_MEMORY_ALLOCATE));
        return m;
    }
    // A memory object over a user USM pointer.
    Memory wrap(const UsmBuffer &b, imex_l0_memory_kind_t kind = imex_l0_memory_kind_shared) {
        Memory m;
        EXPECT_IMEX(imex_l0_interop_memory_create(m.out(), engine.get(), kind, b.size(), b.get()));
        return m;
    }
    static void *ptrOf(imex_l0_memory_t m, size_t index = 0) {
        void *p = nullptr;
        EXPECT_IMEX(imex_l0_interop_memory_get_mem_object(m, index, &p));
        return p;
    }

    Engine engine; // declared after context: destroyed before it
};

// A stream over the framework's own immediate list.
class WithStream : public WithEngine {
protected:
    void SetUp() override {
        WithEngine::SetUp();
        if (HasFatalFailure())
            return;
        list = newImmediateList();
        ASSERT_NE(list.get(), nullptr);
        ASSERT_IMEX(imex_l0_interop_stream_create(stream.out(), engine.get(), list.get()));
    }

    ZeList list;   // the framework's immediate list
    Stream stream; // destroyed before the list and the engine
};

// Builds the test kernels on the engine, from source or from SPIR-V.
class WithKernels : public WithStream {
protected:
    // Builds kernel `name` of the test source; fails the test on error.
    Kernel fromSource(const char *name) {
        Kernel k;
        EXPECT_IMEX(imex_l0_kernel_create_from_source(k.out(), engine.get(),
                                                      kernelSource().c_str(), name, nullptr, 0,
                                                      nullptr));
        return k;
    }
    Kernel fromSpirv(const char *name) {
        Kernel k;
        EXPECT_IMEX(imex_l0_kernel_create_from_spirv(k.out(), engine.get(), kernelSpirv().data(),
                                                     kernelSpirv().size(), name, nullptr));
        return k;
    }
};

} // namespace interop_test
