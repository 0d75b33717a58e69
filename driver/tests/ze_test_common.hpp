// Shared helpers of the driver's GoogleTest suites.
//
// The suites test the driver only through the public Level Zero API, loaded by
// the system loader (ZE_ENABLE_ALT_DRIVERS points it at the driver), so they
// also exercise the loader's pass-through and intercept paths and the
// validation layer. Nothing here links or includes the driver.
//
// Contents:
//  - ASSERT_ZE_SUCCESS / EXPECT_ZE_SUCCESS / EXPECT_ZE_RESULT: compare
//    ze_result_t values and print their names on failure;
//  - ZeHandle<>: an RAII holder that destroys an L0 object exactly once;
//    UsmBuffer<T>: an RAII USM allocation with typed host access;
//  - fixture chains WithDriver -> WithDevice -> WithContext ->
//    {WithImmediateList, WithQueueAndList}, and WithModule helpers to load the
//    SPIR-V test kernels compiled at build time.
#pragma once

#include <level_zero/ze_api.h>

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace zetest {

// ---------------------------------------------------------------------------
// Result names and assertions

inline const char *resultName(ze_result_t r) {
    switch (r) {
#define ZETEST_CASE(x)                                                                             \
    case x:                                                                                        \
        return #x;
        ZETEST_CASE(ZE_RESULT_SUCCESS)
        ZETEST_CASE(ZE_RESULT_NOT_READY)
        ZETEST_CASE(ZE_RESULT_ERROR_DEVICE_LOST)
        ZETEST_CASE(ZE_RESULT_ERROR_OUT_OF_HOST_MEMORY)
        ZETEST_CASE(ZE_RESULT_ERROR_OUT_OF_DEVICE_MEMORY)
        ZETEST_CASE(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
        ZETEST_CASE(ZE_RESULT_ERROR_MODULE_LINK_FAILURE)
        ZETEST_CASE(ZE_RESULT_ERROR_DEVICE_REQUIRES_RESET)
        ZETEST_CASE(ZE_RESULT_ERROR_DEVICE_IN_LOW_POWER_STATE)
        ZETEST_CASE(ZE_RESULT_ERROR_INSUFFICIENT_PERMISSIONS)
        ZETEST_CASE(ZE_RESULT_ERROR_NOT_AVAILABLE)
        ZETEST_CASE(ZE_RESULT_ERROR_DEPENDENCY_UNAVAILABLE)
        ZETEST_CASE(ZE_RESULT_ERROR_UNINITIALIZED)
        ZETEST_CASE(ZE_RESULT_ERROR_UNSUPPORTED_VERSION)
        ZETEST_CASE(ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_ARGUMENT)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_NULL_HANDLE)
        ZETEST_CASE(ZE_RESULT_ERROR_HANDLE_OBJECT_IN_USE)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_NULL_POINTER)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_SIZE)
        ZETEST_CASE(ZE_RESULT_ERROR_UNSUPPORTED_SIZE)
        ZETEST_CASE(ZE_RESULT_ERROR_UNSUPPORTED_ALIGNMENT)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_SYNCHRONIZATION_OBJECT)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_ENUMERATION)
        ZETEST_CASE(ZE_RESULT_ERROR_UNSUPPORTED_ENUMERATION)
        ZETEST_CASE(ZE_RESULT_ERROR_UNSUPPORTED_IMAGE_FORMAT)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_NATIVE_BINARY)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_KERNEL_NAME)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_FUNCTION_NAME)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_GLOBAL_WIDTH_DIMENSION)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_KERNEL_ATTRIBUTE_VALUE)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_MODULE_UNLINKED)
        ZETEST_CASE(ZE_RESULT_ERROR_INVALID_COMMAND_LIST_TYPE)
        ZETEST_CASE(ZE_RESULT_ERROR_OVERLAPPING_REGIONS)
        ZETEST_CASE(ZE_RESULT_ERROR_UNKNOWN)
#undef ZETEST_CASE
    default:
        return "ZE_RESULT_<unnamed>";
    }
}

// A ze_result_t that GoogleTest prints by name, so a failed comparison reads
// "ZE_RESULT_ERROR_INVALID_ARGUMENT (0x78000004)" rather than a bare number.
struct Result {
    ze_result_t value;
    bool operator==(const Result &o) const { return value == o.value; }
    bool operator!=(const Result &o) const { return value != o.value; }
};

inline void PrintTo(const Result &r, std::ostream *os) {
    *os << resultName(r.value) << " (0x" << std::hex << static_cast<uint32_t>(r.value) << std::dec
        << ")";
}

} // namespace zetest

#define ASSERT_ZE_RESULT(expected, expr)                                                           \
    ASSERT_EQ(::zetest::Result{expected}, ::zetest::Result{(expr)}) << "  in: " #expr "\n  "
#define EXPECT_ZE_RESULT(expected, expr)                                                           \
    EXPECT_EQ(::zetest::Result{expected}, ::zetest::Result{(expr)}) << "  in: " #expr "\n  "
#define ASSERT_ZE_SUCCESS(expr) ASSERT_ZE_RESULT(ZE_RESULT_SUCCESS, expr)
#define EXPECT_ZE_SUCCESS(expr) EXPECT_ZE_RESULT(ZE_RESULT_SUCCESS, expr)

namespace zetest {

// ---------------------------------------------------------------------------
// RAII holders

// Owns one L0 handle and destroys it with Destroy exactly once. Tests create
// objects in the order they depend on each other and hold them in reverse
// order of destruction (members/locals), so a failing assertion never leaks a
// context that still has live children.
template <typename Handle, ze_result_t (*Destroy)(Handle)> class ZeHandle {
  public:
    ZeHandle() = default;
    explicit ZeHandle(Handle h) : handle_(h) {}
    ZeHandle(const ZeHandle &) = delete;
    ZeHandle &operator=(const ZeHandle &) = delete;
    ZeHandle(ZeHandle &&o) noexcept : handle_(std::exchange(o.handle_, nullptr)) {}
    ZeHandle &operator=(ZeHandle &&o) noexcept {
        if (this != &o) {
            reset();
            handle_ = std::exchange(o.handle_, nullptr);
        }
        return *this;
    }
    ~ZeHandle() { reset(); }

    Handle get() const { return handle_; }
    operator Handle() const { return handle_; }
    // For create calls: drops the current object and exposes the slot.
    Handle *out() {
        reset();
        return &handle_;
    }
    // Destroys now; a destroy failure is reported, because a driver that
    // cannot destroy what it created is a bug worth seeing.
    void reset() {
        if (handle_ != nullptr) {
            EXPECT_ZE_SUCCESS(Destroy(handle_));
            handle_ = nullptr;
        }
    }
    Handle release() { return std::exchange(handle_, nullptr); }

  private:
    Handle handle_ = nullptr;
};

using Context = ZeHandle<ze_context_handle_t, zeContextDestroy>;
using CommandQueue = ZeHandle<ze_command_queue_handle_t, zeCommandQueueDestroy>;
using CommandList = ZeHandle<ze_command_list_handle_t, zeCommandListDestroy>;
using Fence = ZeHandle<ze_fence_handle_t, zeFenceDestroy>;
using EventPool = ZeHandle<ze_event_pool_handle_t, zeEventPoolDestroy>;
using Event = ZeHandle<ze_event_handle_t, zeEventDestroy>;
using Module = ZeHandle<ze_module_handle_t, zeModuleDestroy>;
using BuildLog = ZeHandle<ze_module_build_log_handle_t, zeModuleBuildLogDestroy>;
using Kernel = ZeHandle<ze_kernel_handle_t, zeKernelDestroy>;

enum class UsmKind { Host, Device, Shared };

// A USM allocation of `count` elements of T. Device allocations are not
// host-accessible, so tests read them back with a copy; host and shared ones
// may be read directly once the device work is synchronised.
template <typename T> class UsmBuffer {
  public:
    UsmBuffer() = default;
    UsmBuffer(const UsmBuffer &) = delete;
    UsmBuffer &operator=(const UsmBuffer &) = delete;
    UsmBuffer(UsmBuffer &&o) noexcept
        : context_(o.context_), ptr_(std::exchange(o.ptr_, nullptr)), count_(o.count_) {}
    ~UsmBuffer() { reset(); }

    // Returns the allocation result so callers can ASSERT on it.
    ze_result_t allocate(ze_context_handle_t context, ze_device_handle_t device, UsmKind kind,
                         size_t count, size_t alignment = 0) {
        reset();
        context_ = context;
        count_ = count;
        const size_t bytes = count * sizeof(T);
        ze_device_mem_alloc_desc_t deviceDesc = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        ze_host_mem_alloc_desc_t hostDesc = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        switch (kind) {
        case UsmKind::Host:
            return zeMemAllocHost(context, &hostDesc, bytes, alignment, &ptr_);
        case UsmKind::Device:
            return zeMemAllocDevice(context, &deviceDesc, bytes, alignment, device, &ptr_);
        case UsmKind::Shared:
            return zeMemAllocShared(context, &deviceDesc, &hostDesc, bytes, alignment, device,
                                    &ptr_);
        }
        return ZE_RESULT_ERROR_INVALID_ENUMERATION;
    }
    void reset() {
        if (ptr_ != nullptr) {
            EXPECT_ZE_SUCCESS(zeMemFree(context_, ptr_));
            ptr_ = nullptr;
        }
    }

    T *data() const { return static_cast<T *>(ptr_); }
    void *ptr() const { return ptr_; }
    size_t size() const { return count_; }
    size_t bytes() const { return count_ * sizeof(T); }
    T &operator[](size_t i) const { return data()[i]; }
    // The address of the pointer, as zeKernelSetArgumentValue wants it.
    const void *arg() const { return &ptr_; }

  private:
    ze_context_handle_t context_ = nullptr;
    void *ptr_ = nullptr;
    size_t count_ = 0;
};

// ---------------------------------------------------------------------------
// SPIR-V test inputs

#ifndef ZE_TEST_SPIRV_DIR
#error "ZE_TEST_SPIRV_DIR must name the directory of the compiled test kernels"
#endif

inline std::vector<uint8_t> readFile(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// The SPIR-V of kernels/<name>.cl, compiled at build time.
inline std::vector<uint8_t> loadSpirv(const std::string &name) {
    return readFile(std::string(ZE_TEST_SPIRV_DIR) + "/" + name + ".spv");
}

inline std::string buildLogText(ze_module_build_log_handle_t log) {
    size_t size = 0;
    if (log == nullptr || zeModuleBuildLogGetString(log, &size, nullptr) != ZE_RESULT_SUCCESS)
        return {};
    std::string text(size, '\0');
    if (zeModuleBuildLogGetString(log, &size, text.data()) != ZE_RESULT_SUCCESS)
        return {};
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    return text;
}

// True when the loader wraps the driver's handles (ZE_ENABLE_LOADER_INTERCEPT=1,
// or several drivers) instead of passing them through.
inline bool loaderIntercepts() {
    const char *v = std::getenv("ZE_ENABLE_LOADER_INTERCEPT");
    return v != nullptr && std::strcmp(v, "1") == 0;
}

// Loader 1.8.12 limitation, not a driver property: in intercept mode its
// zeModuleCreate returns early when the driver reports a failure, so
// *phBuildLog is the driver's raw handle, not a loader-wrapped one, and
// any zeModuleBuildLog* call on it through the loader jumps through a bogus
// dispatch table (source/loader/ze_ldrddi.cpp, zeModuleCreate, v1.8.12). A
// failed build's log is therefore neither read nor destroyed in that mode;
// the handle is leaked on purpose.
inline bool buildLogOfAFailedBuildIsUsable() { return !loaderIntercepts(); }

// Creates a module and returns the result; on failure the build log is
// attached to the test output, which is what a developer needs first.
inline ze_result_t createModule(ze_context_handle_t context, ze_device_handle_t device,
                                const std::vector<uint8_t> &input, ze_module_format_t format,
                                Module &module, const char *buildFlags = "",
                                std::string *logOut = nullptr) {
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = format;
    desc.inputSize = input.size();
    desc.pInputModule = input.data();
    desc.pBuildFlags = buildFlags;
    BuildLog log;
    const ze_result_t r = zeModuleCreate(context, device, &desc, module.out(), log.out());
    std::string text;
    if (r == ZE_RESULT_SUCCESS || buildLogOfAFailedBuildIsUsable()) {
        text = buildLogText(log);
    } else {
        log.release();
        text = "(not readable through the intercepting loader 1.8.12)";
    }
    if (logOut != nullptr)
        *logOut = text;
    if (r != ZE_RESULT_SUCCESS)
        ADD_FAILURE() << "note: zeModuleCreate returned " << resultName(r) << ", build log:\n"
                      << text;
    return r;
}

// Creates one module of the SPIR-V modules `parts` linked
// (ze_module_program_exp_desc_t), each with its constants (or none); the
// build log in `logText` where it is readable.
inline ze_result_t createProgramModule(ze_context_handle_t context, ze_device_handle_t device,
                                       const std::vector<const std::vector<uint8_t> *> &parts,
                                       Module &module, std::string *logText = nullptr,
                                       std::vector<const ze_module_constants_t *> constants = {}) {
    std::vector<const uint8_t *> inputs;
    std::vector<size_t> sizes;
    std::vector<const char *> flags;
    for (const auto *part : parts) {
        inputs.push_back(part->data());
        sizes.push_back(part->size());
        flags.push_back("");
    }
    ze_module_program_exp_desc_t program = {ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC};
    program.count = static_cast<uint32_t>(parts.size());
    program.inputSizes = sizes.data();
    program.pInputModules = inputs.data();
    program.pBuildFlags = flags.data();
    program.pConstants = constants.empty() ? nullptr : constants.data();
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC, &program};
    desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    // Ignored with a program, as the extension says; set as frameworks do.
    desc.inputSize = sizes.empty() ? 0 : sizes[0];
    desc.pInputModule = inputs.empty() ? nullptr : inputs[0];
    desc.pBuildFlags = "";
    const bool withLog = buildLogOfAFailedBuildIsUsable();
    BuildLog log;
    const ze_result_t r =
        zeModuleCreate(context, device, &desc, module.out(), withLog ? log.out() : nullptr);
    if (logText != nullptr && withLog)
        *logText = buildLogText(log);
    return r;
}

inline ze_result_t createKernel(ze_module_handle_t module, const char *name, Kernel &kernel) {
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC};
    desc.pKernelName = name;
    return zeKernelCreate(module, &desc, kernel.out());
}

// Sets every argument in order; each value is (size, pointer-to-value).
struct Arg {
    size_t size;
    const void *value;
};
template <typename T> Arg byValue(const T &v) { return Arg{sizeof(T), &v}; }
template <typename T> Arg usm(const UsmBuffer<T> &b) { return Arg{sizeof(void *), b.arg()}; }
inline Arg localBytes(size_t bytes) { return Arg{bytes, nullptr}; }

inline ze_result_t setArgs(ze_kernel_handle_t kernel, std::initializer_list<Arg> args) {
    uint32_t index = 0;
    for (const Arg &a : args) {
        const ze_result_t r = zeKernelSetArgumentValue(kernel, index++, a.size, a.value);
        if (r != ZE_RESULT_SUCCESS)
            return r;
    }
    return ZE_RESULT_SUCCESS;
}

inline ze_result_t launch(ze_command_list_handle_t list, ze_kernel_handle_t kernel,
                          ze_group_count_t groups, ze_event_handle_t signal = nullptr,
                          std::vector<ze_event_handle_t> waits = {}) {
    return zeCommandListAppendLaunchKernel(list, kernel, &groups, signal,
                                           static_cast<uint32_t>(waits.size()),
                                           waits.empty() ? nullptr : waits.data());
}

// A kernel-writable image of `layout` and `format`, each component read as
// itself (one-component layouts: R, 0, 0, 1).
inline ze_image_desc_t imageDesc(ze_image_type_t type, ze_image_format_layout_t layout,
                                 ze_image_format_type_t format, uint64_t width, uint32_t height = 1,
                                 uint32_t depth = 1, uint32_t arraylevels = 0) {
    const bool one = layout == ZE_IMAGE_FORMAT_LAYOUT_8 || layout == ZE_IMAGE_FORMAT_LAYOUT_16 ||
                     layout == ZE_IMAGE_FORMAT_LAYOUT_32;
    ze_image_desc_t desc = {ZE_STRUCTURE_TYPE_IMAGE_DESC};
    desc.flags = ZE_IMAGE_FLAG_KERNEL_WRITE;
    desc.type = type;
    desc.format = {layout,
                   format,
                   ZE_IMAGE_FORMAT_SWIZZLE_R,
                   one ? ZE_IMAGE_FORMAT_SWIZZLE_0 : ZE_IMAGE_FORMAT_SWIZZLE_G,
                   one ? ZE_IMAGE_FORMAT_SWIZZLE_0 : ZE_IMAGE_FORMAT_SWIZZLE_B,
                   one ? ZE_IMAGE_FORMAT_SWIZZLE_1 : ZE_IMAGE_FORMAT_SWIZZLE_A};
    desc.width = width;
    desc.height = height;
    desc.depth = depth;
    desc.arraylevels = arraylevels;
    return desc;
}

// The device type the driver should report: CPU unless its documented
// option ZE_OPENCL_DEVICE_TYPE asks for GPU.
// Deterministic, varied test data (no <random> engine differences across
// standard libraries matter here, but a fixed formula is easier to debug).
inline int testValue(size_t i, int seed = 0) {
    return static_cast<int>((i * 2654435761u + static_cast<unsigned>(seed) * 40503u) % 2001u) -
           1000;
}

inline ze_device_type_t expectedDeviceType() {
    const char *v = std::getenv("ZE_OPENCL_DEVICE_TYPE");
    return v != nullptr && std::strcmp(v, "GPU") == 0 ? ZE_DEVICE_TYPE_GPU : ZE_DEVICE_TYPE_CPU;
}

// ---------------------------------------------------------------------------
// Fixture chains

// zeInit + the first driver. The tests run with ZE_ENABLE_ALT_DRIVERS naming
// only this project's driver, so the first driver is ours.
class WithDriver : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_ZE_SUCCESS(zeInit(0));
        uint32_t count = 0;
        ASSERT_ZE_SUCCESS(zeDriverGet(&count, nullptr));
        ASSERT_GE(count, 1u) << "no Level Zero driver: is ZE_ENABLE_ALT_DRIVERS set?";
        std::vector<ze_driver_handle_t> drivers(count);
        ASSERT_ZE_SUCCESS(zeDriverGet(&count, drivers.data()));
        driver_ = drivers[0];
    }
    ze_driver_handle_t driver_ = nullptr;
};

class WithDevice : public WithDriver {
  protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(WithDriver::SetUp());
        uint32_t count = 0;
        ASSERT_ZE_SUCCESS(zeDeviceGet(driver_, &count, nullptr));
        ASSERT_GE(count, 1u);
        std::vector<ze_device_handle_t> devices(count);
        ASSERT_ZE_SUCCESS(zeDeviceGet(driver_, &count, devices.data()));
        device_ = devices[0];
    }
    ze_device_handle_t device_ = nullptr;
};

class WithContext : public WithDevice {
  protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(WithDevice::SetUp());
        ze_context_desc_t desc = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
        ASSERT_ZE_SUCCESS(zeContextCreate(driver_, &desc, context_.out()));
        ASSERT_NO_FATAL_FAILURE(createHostEvents());
    }
    void TearDown() override {
        // Children first: events and pools before the context.
        syncEvent_.reset();
        pool_.reset();
    }

    template <typename T>
    void allocate(UsmBuffer<T> &buffer, UsmKind kind, size_t count, size_t alignment = 0) {
        ASSERT_ZE_SUCCESS(buffer.allocate(context_, device_, kind, count, alignment));
        ASSERT_NE(buffer.ptr(), nullptr);
    }

    // A host-visible pool of kPoolEvents events for the tests' own use.
    static constexpr uint32_t kPoolEvents = 16;
    void createEventPool(EventPool &pool, uint32_t count, ze_event_pool_flags_t flags) {
        ze_event_pool_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC};
        desc.flags = flags;
        desc.count = count;
        ze_device_handle_t device = device_;
        ASSERT_ZE_SUCCESS(zeEventPoolCreate(context_, &desc, 1, &device, pool.out()));
    }
    void createEvent(Event &event, ze_event_pool_handle_t pool, uint32_t index) {
        ze_event_desc_t desc = {ZE_STRUCTURE_TYPE_EVENT_DESC};
        desc.index = index;
        desc.signal = ZE_EVENT_SCOPE_FLAG_HOST;
        desc.wait = ZE_EVENT_SCOPE_FLAG_HOST;
        ASSERT_ZE_SUCCESS(zeEventCreate(pool, &desc, event.out()));
    }
    // An event from the fixture's pool; index 0 is reserved for sync().
    void createEvent(Event &event, uint32_t index) {
        ASSERT_GT(index, 0u);
        ASSERT_LT(index, kPoolEvents);
        createEvent(event, pool_, index);
    }

    // Blocks until everything appended so far to an in-order (immediate)
    // command list has completed: a barrier that signals an event, waited on
    // with an infinite timeout. zeCommandListHostSynchronize is newer than
    // the 1.4 API the headers describe, so it is not used.
    void syncList(ze_command_list_handle_t list) {
        ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list, syncEvent_, 0, nullptr));
        ASSERT_ZE_SUCCESS(zeEventHostSynchronize(syncEvent_, UINT64_MAX));
        ASSERT_ZE_SUCCESS(zeEventHostReset(syncEvent_));
    }

    Context context_;
    EventPool pool_;
    Event syncEvent_;

  private:
    void createHostEvents() {
        ASSERT_NO_FATAL_FAILURE(
            createEventPool(pool_, kPoolEvents, ZE_EVENT_POOL_FLAG_HOST_VISIBLE));
        ASSERT_NO_FATAL_FAILURE(createEvent(syncEvent_, pool_, 0));
    }
};

// Adds module/kernel helpers on top of a context.
class WithModules : public WithContext {
  protected:
    void loadModule(Module &module, const std::string &name) {
        const std::vector<uint8_t> spirv = loadSpirv(name);
        ASSERT_FALSE(spirv.empty()) << "missing test kernel " << name << ".spv";
        ASSERT_ZE_SUCCESS(createModule(context_, device_, spirv, ZE_MODULE_FORMAT_IL_SPIRV, module));
    }
    void loadKernel(Kernel &kernel, ze_module_handle_t module, const char *name,
                    uint32_t gx = 1, uint32_t gy = 1, uint32_t gz = 1) {
        ASSERT_ZE_SUCCESS(createKernel(module, name, kernel));
        ASSERT_ZE_SUCCESS(zeKernelSetGroupSize(kernel, gx, gy, gz));
    }
};

// An asynchronous immediate command list on the compute+copy group.
class WithImmediateList : public WithModules {
  protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(WithModules::SetUp());
        createImmediateList(list_, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    }
    void TearDown() override {
        list_.reset();
        WithModules::TearDown();
    }
    void createImmediateList(CommandList &list, ze_command_queue_mode_t mode) {
        ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
        desc.ordinal = 0;
        desc.index = 0;
        desc.mode = mode;
        desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
        ASSERT_ZE_SUCCESS(zeCommandListCreateImmediate(context_, device_, &desc, list.out()));
    }
    void sync() { syncList(list_); }

    // Runs vector_add from `module` and checks it against the host.
    void checkVectorAdd(ze_module_handle_t module, uint32_t groupSize, uint32_t n) {
        Kernel kernel;
        ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "vector_add", groupSize));
        UsmBuffer<int> a, b, c;
        allocate(a, UsmKind::Host, n);
        allocate(b, UsmKind::Shared, n);
        allocate(c, UsmKind::Shared, n);
        for (uint32_t i = 0; i < n; ++i) {
            a[i] = testValue(i, 11);
            b[i] = testValue(i, 12);
            c[i] = 0;
        }
        ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(a), usm(b), usm(c)}));
        ASSERT_ZE_SUCCESS(launch(list_, kernel, {n / groupSize, 1, 1}));
        ASSERT_NO_FATAL_FAILURE(sync());
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(c[i], a[i] + b[i]) << "group size " << groupSize << " i=" << i;
    }

    CommandList list_;
};

// A command queue plus one regular command list, both on ordinal 0.
class WithQueueAndList : public WithModules {
  protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(WithModules::SetUp());
        ASSERT_NO_FATAL_FAILURE(createQueue(queue_, ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS));
        ASSERT_NO_FATAL_FAILURE(createList(list_));
    }
    void TearDown() override {
        list_.reset();
        queue_.reset();
        WithModules::TearDown();
    }
    void createQueue(CommandQueue &queue, ze_command_queue_mode_t mode) {
        ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
        desc.ordinal = 0;
        desc.mode = mode;
        desc.priority = ZE_COMMAND_QUEUE_PRIORITY_NORMAL;
        ASSERT_ZE_SUCCESS(zeCommandQueueCreate(context_, device_, &desc, queue.out()));
    }
    void createList(CommandList &list) {
        ze_command_list_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
        desc.commandQueueGroupOrdinal = 0;
        ASSERT_ZE_SUCCESS(zeCommandListCreate(context_, device_, &desc, list.out()));
    }
    // Runs the closed list once and waits for it.
    void execute(ze_command_list_handle_t list, ze_fence_handle_t fence = nullptr) {
        ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue_, 1, &list, fence));
        ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue_, UINT64_MAX));
    }

    CommandQueue queue_;
    CommandList list_;
};

} // namespace zetest
