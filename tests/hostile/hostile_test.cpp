// Hostile inputs: one table of calls a careless or confused caller makes
// against the C API and the gpu* wrappers, each with the status the contract
// documents and a piece of the message that tells the caller what to fix.
//
// Every case runs against one set of fixture objects built once (two engines
// on two contexts, streams, memory objects, kernels, user events, gpu*
// streams), then a good launch on both surfaces proves the fixtures survived
// the case. Run under AddressSanitizer + UndefinedBehaviorSanitizer +
// LeakSanitizer (scripts/sanitize.sh address) the same table also proves
// "no crash, no leak, no undefined behaviour".
//
// `hostile_test --markdown` prints docs/hostile_inputs.md from the same table;
// the test hostile.doc_in_sync fails when the two differ.
#include "imex_gpu_runtime.h"
#include "imex_l0_interop.h"

#include <gtest/gtest.h>
#include <level_zero/ze_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

namespace {

// ------------------------------------------------------------------ Outcomes

// What a C API case observed: the status and the message read right after the
// hostile call (later library calls clear it).
struct Outcome {
    imex_l0_status_t status = imex_l0_success;
    std::string message;
    // gpu* cases: how many times the error handler ran, and whether the
    // wrapper returned its failure value (NULL; void wrappers always do).
    int reports = 0;
    bool returnedFailureValue = true;
};

Outcome captured(imex_l0_status_t status) { return {status, imex_l0_last_error_message()}; }

// The gpu* error handler of the whole test: records instead of aborting.
struct Recorder {
    int count = 0;
    std::string last;
};
Recorder recorder;

void record(const char *message, void *userData) {
    auto *r = static_cast<Recorder *>(userData);
    ++r->count;
    r->last = message ? message : "(null message)";
}

// Runs one gpu* call and collects what the handler saw.
Outcome gpuCall(const std::function<bool()> &call) {
    int before = recorder.count;
    Outcome o;
    o.returnedFailureValue = call();
    o.reports = recorder.count - before;
    o.message = recorder.last;
    return o;
}

// ------------------------------------------------------------------ Fixtures

std::string readFile(const char *path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

constexpr size_t kN = 64; // elements of every fixture buffer

// The objects every case is aimed at, built once for the whole table.
struct World {
    ze_driver_handle_t driver = nullptr;
    ze_device_handle_t device = nullptr;
    uint32_t ordinal = 0;
    ze_device_compute_properties_t compute = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    std::string spirv; // hostile_kernels.cl as SPIR-V

    // Two engines with their own contexts: "the other" one supplies handles
    // of another engine/context.
    imex_l0_engine_t engine = nullptr, otherEngine = nullptr;
    ze_context_handle_t context = nullptr, otherContext = nullptr;
    imex_l0_stream_t stream = nullptr, otherStream = nullptr;
    imex_l0_kernel_t add = nullptr, scale = nullptr, reduce = nullptr, otherAdd = nullptr;
    imex_l0_memory_t a = nullptr, b = nullptr, out = nullptr, otherMem = nullptr,
                     noneMem = nullptr;
    void *usm = nullptr;      // user shared USM on the engine's context
    void *otherUsm = nullptr; // user shared USM on the other context
    // The user's own events: one on the engine's context (not from its pool),
    // one on the other context.
    ze_event_pool_handle_t userPool = nullptr, otherPool = nullptr;
    ze_event_handle_t userEvent = nullptr, otherEvent = nullptr;
    // What a handle of a destroyed object points at once its tag is cleared,
    // kept mapped so reading it is defined (see docs/hostile_inputs.md).
    alignas(64) unsigned char dead[256] = {};
    float host[kN] = {}; // plain host memory, not USM

    // gpu*: a temporary stream (default engine), a stream on the other
    // context, a module and kernel of the temporary stream's engine.
    void *gpu = nullptr, *gpuOther = nullptr, *gpuModule = nullptr, *gpuAdd = nullptr;
    void *gpuA = nullptr, *gpuB = nullptr, *gpuOut = nullptr;
};

World *w = nullptr;

#define FIXTURE_OK(call) ASSERT_EQ((call), imex_l0_success) << #call << ": " << imex_l0_last_error_message()
#define FIXTURE_ZE(call) ASSERT_EQ((call), ZE_RESULT_SUCCESS) << #call

void buildWorld(World &x) {
    x.spirv = readFile(HOSTILE_KERNELS_SPV);
    ASSERT_FALSE(x.spirv.empty()) << "cannot read " << HOSTILE_KERNELS_SPV;
    FIXTURE_OK(imex_l0_engine_create(&x.engine, 0));
    FIXTURE_OK(imex_l0_engine_create(&x.otherEngine, 0));
    FIXTURE_OK(imex_l0_interop_engine_get_driver(x.engine, &x.driver));
    FIXTURE_OK(imex_l0_interop_engine_get_device(x.engine, &x.device));
    FIXTURE_OK(imex_l0_interop_engine_get_context(x.engine, &x.context));
    FIXTURE_OK(imex_l0_interop_engine_get_context(x.otherEngine, &x.otherContext));
    FIXTURE_ZE(zeDeviceGetComputeProperties(x.device, &x.compute));
    uint32_t ngroups = 0;
    FIXTURE_ZE(zeDeviceGetCommandQueueGroupProperties(x.device, &ngroups, nullptr));
    std::vector<ze_command_queue_group_properties_t> groups(
        ngroups, {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_GROUP_PROPERTIES});
    FIXTURE_ZE(zeDeviceGetCommandQueueGroupProperties(x.device, &ngroups, groups.data()));
    for (uint32_t i = ngroups; i-- > 0;)
        if (groups[i].flags & ZE_COMMAND_QUEUE_GROUP_PROPERTY_FLAG_COMPUTE)
            x.ordinal = i;

    FIXTURE_OK(imex_l0_stream_create(&x.stream, x.engine));
    FIXTURE_OK(imex_l0_stream_create(&x.otherStream, x.otherEngine));
    const char *spv = x.spirv.data();
    size_t size = x.spirv.size();
    FIXTURE_OK(imex_l0_kernel_create_from_spirv(&x.add, x.engine, spv, size, "add", nullptr));
    FIXTURE_OK(imex_l0_kernel_create_from_spirv(&x.scale, x.engine, spv, size, "scale", nullptr));
    FIXTURE_OK(
        imex_l0_kernel_create_from_spirv(&x.reduce, x.engine, spv, size, "reduce_sum", nullptr));
    FIXTURE_OK(
        imex_l0_kernel_create_from_spirv(&x.otherAdd, x.otherEngine, spv, size, "add", nullptr));
    const size_t bytes = kN * sizeof(float);
    for (auto *m : {&x.a, &x.b, &x.out})
        FIXTURE_OK(imex_l0_interop_memory_create(m, x.engine, imex_l0_memory_kind_shared, bytes,
                                                 IMEX_L0_MEMORY_ALLOCATE));
    FIXTURE_OK(imex_l0_interop_memory_create(&x.otherMem, x.otherEngine,
                                             imex_l0_memory_kind_shared, bytes,
                                             IMEX_L0_MEMORY_ALLOCATE));
    FIXTURE_OK(imex_l0_interop_memory_create(&x.noneMem, x.engine, imex_l0_memory_kind_shared,
                                             bytes, IMEX_L0_MEMORY_NONE));

    ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
    ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
    FIXTURE_ZE(zeMemAllocShared(x.context, &dd, &hd, bytes, 64, x.device, &x.usm));
    FIXTURE_ZE(zeMemAllocShared(x.otherContext, &dd, &hd, bytes, 64, x.device, &x.otherUsm));

    ze_event_pool_desc_t pd = {ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
                               ZE_EVENT_POOL_FLAG_HOST_VISIBLE, 1};
    ze_event_desc_t ed = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, 0, ZE_EVENT_SCOPE_FLAG_HOST,
                          ZE_EVENT_SCOPE_FLAG_HOST};
    FIXTURE_ZE(zeEventPoolCreate(x.context, &pd, 1, &x.device, &x.userPool));
    FIXTURE_ZE(zeEventCreate(x.userPool, &ed, &x.userEvent));
    FIXTURE_ZE(zeEventPoolCreate(x.otherContext, &pd, 1, &x.device, &x.otherPool));
    FIXTURE_ZE(zeEventCreate(x.otherPool, &ed, &x.otherEvent));

    gpuSetErrorHandler(record, &recorder);
    x.gpu = gpuCreateStream(nullptr, nullptr);
    ASSERT_NE(x.gpu, nullptr) << recorder.last;
    x.gpuOther = gpuCreateStream(x.device, x.otherContext);
    ASSERT_NE(x.gpuOther, nullptr) << recorder.last;
    x.gpuModule = gpuModuleLoad(x.gpu, spv, size);
    ASSERT_NE(x.gpuModule, nullptr) << recorder.last;
    x.gpuAdd = gpuKernelGet(x.gpu, x.gpuModule, "add");
    ASSERT_NE(x.gpuAdd, nullptr) << recorder.last;
    for (void **p : {&x.gpuA, &x.gpuB, &x.gpuOut}) {
        *p = gpuMemAlloc(x.gpu, bytes, 0, true);
        ASSERT_NE(*p, nullptr) << recorder.last;
    }
    ASSERT_EQ(recorder.count, 0) << recorder.last;
}

void destroyWorld(World &x) {
    const int reportsBefore = recorder.count;
    gpuWait(x.gpu);
    for (void *p : {x.gpuA, x.gpuB, x.gpuOut})
        gpuMemFree(x.gpu, p);
    gpuStreamDestroy(x.gpuOther);
    gpuStreamDestroy(x.gpu);
    EXPECT_EQ(recorder.count, reportsBefore) << recorder.last;
    gpuSetErrorHandler(nullptr, nullptr);

    EXPECT_EQ(zeEventDestroy(x.userEvent), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventPoolDestroy(x.userPool), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventDestroy(x.otherEvent), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeEventPoolDestroy(x.otherPool), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeMemFree(x.context, x.usm), ZE_RESULT_SUCCESS);
    EXPECT_EQ(zeMemFree(x.otherContext, x.otherUsm), ZE_RESULT_SUCCESS);
    for (auto m : {x.a, x.b, x.out, x.otherMem, x.noneMem})
        EXPECT_EQ(imex_l0_memory_destroy(m), imex_l0_success);
    for (auto k : {x.add, x.scale, x.reduce, x.otherAdd})
        EXPECT_EQ(imex_l0_kernel_destroy(k), imex_l0_success);
    EXPECT_EQ(imex_l0_stream_destroy(x.stream), imex_l0_success);
    EXPECT_EQ(imex_l0_stream_destroy(x.otherStream), imex_l0_success);
    // Both engines must accept destruction now: a refusal means a case leaked
    // a child object (stream, memory or kernel) into them.
    EXPECT_EQ(imex_l0_engine_destroy(x.engine), imex_l0_success) << imex_l0_last_error_message();
    EXPECT_EQ(imex_l0_engine_destroy(x.otherEngine), imex_l0_success)
        << imex_l0_last_error_message();
}

// ------------------------------------------------------------------ Helpers

imex_l0_exec_arg_t mem(imex_l0_memory_t m) { return {imex_l0_arg_memory, m, nullptr, 0}; }
imex_l0_exec_arg_t usm(const void *p) { return {imex_l0_arg_usm, nullptr, p, 0}; }
imex_l0_exec_arg_t value(const void *p, size_t size) { return {imex_l0_arg_value, nullptr, p, size}; }
imex_l0_exec_arg_t local(size_t bytes) { return {imex_l0_arg_local, nullptr, nullptr, bytes}; }
imex_l0_range_t range1(size_t global, size_t local = 0) {
    return {{global, 1, 1}, {local, local ? 1u : 0u, local ? 1u : 0u}};
}
std::vector<imex_l0_exec_arg_t> addArgs() { return {mem(w->a), mem(w->b), mem(w->out)}; }

// A launch of `add` on the fixture stream with one thing changed by the caller.
Outcome execAdd(std::vector<imex_l0_exec_arg_t> args, imex_l0_range_t r = range1(kN),
                size_t ndeps = 0, const ze_event_handle_t *deps = nullptr,
                imex_l0_stream_t stream = nullptr) {
    return captured(imex_l0_interop_kernel_execute(w->add, stream ? stream : w->stream,
                                                   args.size(), args.data(), &r, ndeps, deps,
                                                   nullptr));
}

// A launch that returns an event, waited for: the source of pool events.
ze_event_handle_t poolEvent(imex_l0_engine_t engine = nullptr) {
    bool other = engine == w->otherEngine && engine;
    imex_l0_kernel_t k = other ? w->otherAdd : w->add;
    imex_l0_stream_t s = other ? w->otherStream : w->stream;
    std::vector<imex_l0_exec_arg_t> args =
        other ? std::vector<imex_l0_exec_arg_t>{mem(w->otherMem), mem(w->otherMem), mem(w->otherMem)}
              : addArgs();
    imex_l0_range_t r = range1(kN);
    ze_event_handle_t event = nullptr;
    EXPECT_EQ(imex_l0_interop_kernel_execute(k, s, 3, args.data(), &r, 0, nullptr, &event),
              imex_l0_success)
        << imex_l0_last_error_message();
    if (event) {
        EXPECT_EQ(zeEventHostSynchronize(event, UINT64_MAX), ZE_RESULT_SUCCESS);
    }
    return event;
}

// SPIR-V cut one word into an instruction past the middle: the last
// instruction then claims words beyond the end of the bytes.
std::string truncatedInsideInstruction() {
    const std::string &s = w->spirv;
    std::vector<uint32_t> words(s.size() / 4);
    std::memcpy(words.data(), s.data(), words.size() * 4);
    for (size_t at = 5; at < words.size();) {
        uint32_t count = words[at] >> 16;
        if (count == 0)
            break;
        if (at > words.size() / 2 && count >= 2)
            return s.substr(0, (at + 1) * 4);
        at += count;
    }
    return s.substr(0, s.size() / 2 / 4 * 4);
}

// SPIR-V cut at an instruction boundary before the first function: the
// words are well formed but the module ends before any kernel body.
std::string truncatedAtBoundary() {
    const std::string &s = w->spirv;
    std::vector<uint32_t> words(s.size() / 4);
    std::memcpy(words.data(), s.data(), words.size() * 4);
    constexpr uint32_t kOpFunction = 54;
    for (size_t at = 5; at < words.size();) {
        uint32_t count = words[at] >> 16;
        if (count == 0)
            break;
        if ((words[at] & 0xffff) == kOpFunction)
            return s.substr(0, at * 4);
        at += count;
    }
    return s.substr(0, 20);
}

// Creates an engine with one child of `what` kind, tries to destroy the
// engine (refused), then destroys child and engine (both must succeed).
Outcome destroyEngineWithChild(const char *what) {
    imex_l0_engine_t e = nullptr;
    EXPECT_EQ(imex_l0_engine_create(&e, 0), imex_l0_success);
    imex_l0_stream_t s = nullptr;
    imex_l0_memory_t m = nullptr;
    imex_l0_kernel_t k = nullptr;
    if (!std::strcmp(what, "stream"))
        EXPECT_EQ(imex_l0_stream_create(&s, e), imex_l0_success);
    else if (!std::strcmp(what, "memory"))
        EXPECT_EQ(imex_l0_interop_memory_create(&m, e, imex_l0_memory_kind_device, 256,
                                                IMEX_L0_MEMORY_ALLOCATE),
                  imex_l0_success);
    else
        EXPECT_EQ(imex_l0_kernel_create_from_spirv(&k, e, w->spirv.data(), w->spirv.size(),
                                                   "add", nullptr),
                  imex_l0_success);
    Outcome o = captured(imex_l0_engine_destroy(e));
    if (s) {
        EXPECT_EQ(imex_l0_stream_destroy(s), imex_l0_success);
    }
    if (m) {
        EXPECT_EQ(imex_l0_memory_destroy(m), imex_l0_success);
    }
    if (k) {
        EXPECT_EQ(imex_l0_kernel_destroy(k), imex_l0_success);
    }
    EXPECT_EQ(imex_l0_engine_destroy(e), imex_l0_success)
        << "the engine must be destroyable once its children are gone: "
        << imex_l0_last_error_message();
    return o;
}

// A regular list of the user on `context` (the engine's unless given).
ze_command_list_handle_t userRegularList() {
    ze_command_list_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC, nullptr, w->ordinal, 0};
    ze_command_list_handle_t list = nullptr;
    EXPECT_EQ(zeCommandListCreate(w->context, w->device, &desc, &list), ZE_RESULT_SUCCESS);
    return list;
}
ze_command_list_handle_t userImmediateList(ze_context_handle_t context) {
    ze_command_queue_desc_t desc = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC,
                                    nullptr,
                                    w->ordinal,
                                    0,
                                    0,
                                    ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS,
                                    ZE_COMMAND_QUEUE_PRIORITY_NORMAL};
    ze_command_list_handle_t list = nullptr;
    EXPECT_EQ(zeCommandListCreateImmediate(context, w->device, &desc, &list), ZE_RESULT_SUCCESS);
    return list;
}

// gpuLaunchKernel of `add` on the temporary gpu stream with one thing changed.
struct GpuLaunch {
    void *stream;
    void *kernel;
    size_t grid[3] = {kN, 1, 1};
    size_t block[3] = {1, 1, 1};
    size_t shared = 0;
    std::vector<ParamDesc> params;
    EventDesc *deps = nullptr;
};
GpuLaunch gpuAddLaunch() {
    GpuLaunch l{w->gpu, w->gpuAdd};
    l.params = {{&w->gpuA, sizeof(void *)}, {&w->gpuB, sizeof(void *)},
                {&w->gpuOut, sizeof(void *)}, {nullptr, 0}};
    return l;
}
Outcome gpuLaunch(const GpuLaunch &l) {
    return gpuCall([&] {
        return gpuLaunchKernel(l.stream, l.kernel, l.grid[0], l.grid[1], l.grid[2], l.block[0],
                               l.block[1], l.block[2], l.shared,
                               const_cast<ParamDesc *>(l.params.data()), l.deps) == nullptr;
    });
}

const char *kBadOpenClC = "kernel void k(global int *p) {\n"
                          "    p[0] = 1 +;\n"
                          "}\n";

// ------------------------------------------------------------------ The table

enum class Surface { c_api, gpu };

struct Case {
    const char *name;    // also the GoogleTest name
    const char *call;    // the hostile call, for the docs
    Surface surface;
    std::function<Outcome()> run;
    imex_l0_status_t status; // c_api: the documented status
    const char *message;     // the message must contain this
};

constexpr auto C = Surface::c_api;
constexpr auto G = Surface::gpu;
constexpr auto kInvalid = imex_l0_invalid_arguments;
// gpu* cases report to the handler and return NULL; `status` is unused.
constexpr auto kHandler = imex_l0_success;

const char *kNotLive = "is not a live object of its type";

const std::vector<Case> &cases() {
    static const std::vector<Case> table = {
        // ---------------------------------------------------------- engines
        {"engine_create_null_output", "imex_l0_engine_create(NULL, 0)", C,
         [] { return captured(imex_l0_engine_create(nullptr, 0)); }, kInvalid,
         "engine (the output argument) is NULL"},
        {"engine_create_device_index_out_of_range", "imex_l0_engine_create(&e, 1000)", C,
         [] {
             imex_l0_engine_t e = nullptr;
             return captured(imex_l0_engine_create(&e, 1000));
         },
         imex_l0_not_found, "device 1000 does not exist"},
        {"interop_engine_create_null_driver", "imex_l0_interop_engine_create(&e, NULL, device, context)", C,
         [] {
             imex_l0_engine_t e = nullptr;
             return captured(imex_l0_interop_engine_create(&e, nullptr, w->device, w->context));
         },
         kInvalid, "driver is NULL"},
        {"interop_engine_create_null_device", "imex_l0_interop_engine_create(&e, driver, NULL, context)", C,
         [] {
             imex_l0_engine_t e = nullptr;
             return captured(imex_l0_interop_engine_create(&e, w->driver, nullptr, w->context));
         },
         kInvalid, "device is NULL"},
        {"interop_engine_create_device_is_a_context", "imex_l0_interop_engine_create(&e, driver, (device)context, context)", C,
         [] {
             imex_l0_engine_t e = nullptr;
             return captured(imex_l0_interop_engine_create(
                 &e, w->driver, reinterpret_cast<ze_device_handle_t>(w->context), w->context));
         },
         kInvalid, "device is not a device of driver"},
        {"engine_get_context_null_engine", "imex_l0_interop_engine_get_context(NULL, &c)", C,
         [] {
             ze_context_handle_t c = nullptr;
             return captured(imex_l0_interop_engine_get_context(nullptr, &c));
         },
         kInvalid, "engine is NULL"},
        {"engine_get_context_null_output", "imex_l0_interop_engine_get_context(engine, NULL)", C,
         [] { return captured(imex_l0_interop_engine_get_context(w->engine, nullptr)); },
         kInvalid, "context (the output argument) is NULL"},
        {"engine_get_device_name_stream_as_engine", "imex_l0_engine_get_device_name((engine)stream, &n)", C,
         [] {
             const char *n = nullptr;
             return captured(imex_l0_engine_get_device_name(
                 reinterpret_cast<imex_l0_engine_t>(w->stream), &n));
         },
         kInvalid, kNotLive},
        {"engine_get_driver_dangling", "imex_l0_interop_engine_get_driver(destroyed engine, &d)", C,
         [] {
             ze_driver_handle_t d = nullptr;
             return captured(imex_l0_interop_engine_get_driver(
                 reinterpret_cast<imex_l0_engine_t>(w->dead), &d));
         },
         kInvalid, kNotLive},
        {"engine_destroy_null", "imex_l0_engine_destroy(NULL)", C,
         [] { return captured(imex_l0_engine_destroy(nullptr)); }, kInvalid, "engine is NULL"},
        {"engine_destroy_kernel_as_engine", "imex_l0_engine_destroy((engine)kernel)", C,
         [] {
             return captured(
                 imex_l0_engine_destroy(reinterpret_cast<imex_l0_engine_t>(w->add)));
         },
         kInvalid, kNotLive},
        {"engine_destroy_with_live_stream", "imex_l0_engine_destroy(engine with a stream)", C,
         [] { return destroyEngineWithChild("stream"); }, kInvalid, "destroy them first"},
        {"engine_destroy_with_live_memory", "imex_l0_engine_destroy(engine with a memory object)", C,
         [] { return destroyEngineWithChild("memory"); }, kInvalid, "destroy them first"},
        {"engine_destroy_with_live_kernel", "imex_l0_engine_destroy(engine with a kernel)", C,
         [] { return destroyEngineWithChild("kernel"); }, kInvalid, "destroy them first"},

        // ---------------------------------------------------------- streams
        {"stream_create_null_output", "imex_l0_stream_create(NULL, engine)", C,
         [] { return captured(imex_l0_stream_create(nullptr, w->engine)); }, kInvalid,
         "stream (the output argument) is NULL"},
        {"stream_create_null_engine", "imex_l0_stream_create(&s, NULL)", C,
         [] {
             imex_l0_stream_t s = nullptr;
             return captured(imex_l0_stream_create(&s, nullptr));
         },
         kInvalid, "engine is NULL"},
        {"stream_create_memory_as_engine", "imex_l0_stream_create(&s, (engine)memory)", C,
         [] {
             imex_l0_stream_t s = nullptr;
             return captured(
                 imex_l0_stream_create(&s, reinterpret_cast<imex_l0_engine_t>(w->a)));
         },
         kInvalid, kNotLive},
        {"interop_stream_create_null_list", "imex_l0_interop_stream_create(&s, engine, NULL)", C,
         [] {
             imex_l0_stream_t s = nullptr;
             return captured(imex_l0_interop_stream_create(&s, w->engine, nullptr));
         },
         kInvalid, "list is NULL"},
        {"interop_stream_create_regular_null_list", "imex_l0_interop_stream_create_regular(&s, engine, NULL, NULL)", C,
         [] {
             imex_l0_stream_t s = nullptr;
             return captured(
                 imex_l0_interop_stream_create_regular(&s, w->engine, nullptr, nullptr));
         },
         kInvalid, "list is NULL"},
        {"stream_wait_regular_without_queue", "imex_l0_stream_wait(stream over a regular list, queue NULL)", C,
         [] {
             ze_command_list_handle_t list = userRegularList();
             imex_l0_stream_t s = nullptr;
             EXPECT_EQ(imex_l0_interop_stream_create_regular(&s, w->engine, list, nullptr),
                       imex_l0_success);
             Outcome o = captured(imex_l0_stream_wait(s));
             EXPECT_EQ(imex_l0_stream_destroy(s), imex_l0_success);
             EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
             return o;
         },
         kInvalid, "wait on the owner's queue or fence instead"},
        {"stream_over_list_of_another_context", "imex_l0_interop_stream_create(&s, engine, immediate list of another context)", C,
         // Refused at creation: the engine's probe event (signaled, of its
         // context) can only be waited on by a list of that context.
         [] {
             ze_command_list_handle_t list = userImmediateList(w->otherContext);
             imex_l0_stream_t s = nullptr;
             Outcome o = captured(imex_l0_interop_stream_create(&s, w->engine, list));
             EXPECT_EQ(s, nullptr);
             EXPECT_EQ(zeCommandListDestroy(list), ZE_RESULT_SUCCESS);
             return o;
         },
         kInvalid, "list does not belong to the engine's context"},
        {"stream_wait_null", "imex_l0_stream_wait(NULL)", C,
         [] { return captured(imex_l0_stream_wait(nullptr)); }, kInvalid, "stream is NULL"},
        {"stream_wait_dangling", "imex_l0_stream_wait(destroyed stream)", C,
         [] {
             return captured(imex_l0_stream_wait(reinterpret_cast<imex_l0_stream_t>(w->dead)));
         },
         kInvalid, kNotLive},
        {"stream_destroy_engine_as_stream", "imex_l0_stream_destroy((stream)engine)", C,
         [] {
             return captured(
                 imex_l0_stream_destroy(reinterpret_cast<imex_l0_stream_t>(w->engine)));
         },
         kInvalid, kNotLive},
        {"stream_get_list_null_output", "imex_l0_interop_stream_get_list(stream, NULL)", C,
         [] { return captured(imex_l0_interop_stream_get_list(w->stream, nullptr)); }, kInvalid,
         "list (the output argument) is NULL"},

        // ---------------------------------------------------------- memory
        {"memory_create_null_output", "imex_l0_interop_memory_create(NULL, engine, shared, 64, ALLOCATE)", C,
         [] {
             return captured(imex_l0_interop_memory_create(
                 nullptr, w->engine, imex_l0_memory_kind_shared, 64, IMEX_L0_MEMORY_ALLOCATE));
         },
         kInvalid, "memory (the output argument) is NULL"},
        {"memory_create_null_engine", "imex_l0_interop_memory_create(&m, NULL, ...)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             return captured(imex_l0_interop_memory_create(
                 &m, nullptr, imex_l0_memory_kind_shared, 64, IMEX_L0_MEMORY_ALLOCATE));
         },
         kInvalid, "engine is NULL"},
        {"memory_create_kind_42", "imex_l0_interop_memory_create(&m, engine, 42, 64, ALLOCATE)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             return captured(imex_l0_interop_memory_create(
                 &m, w->engine, static_cast<imex_l0_memory_kind_t>(42), 64,
                 IMEX_L0_MEMORY_ALLOCATE));
         },
         kInvalid, "kind 42 is not an imex_l0_memory_kind_t"},
        {"memory_create_allocate_size_0", "imex_l0_interop_memory_create(&m, engine, shared, 0, ALLOCATE)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             return captured(imex_l0_interop_memory_create(
                 &m, w->engine, imex_l0_memory_kind_shared, 0, IMEX_L0_MEMORY_ALLOCATE));
         },
         kInvalid, "size is 0"},
        {"memory_create_allocate_size_max", "imex_l0_interop_memory_create(&m, engine, device, SIZE_MAX, ALLOCATE)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             return captured(imex_l0_interop_memory_create(
                 &m, w->engine, imex_l0_memory_kind_device, SIZE_MAX, IMEX_L0_MEMORY_ALLOCATE));
         },
         kInvalid, "exceeds the device's maximum allocation of"},
        {"memory_create_non_usm_host_pointer", "imex_l0_interop_memory_create(&m, engine, host, 64, stack array)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             return captured(imex_l0_interop_memory_create(&m, w->engine, imex_l0_memory_kind_host,
                                                           sizeof(w->host), w->host));
         },
         kInvalid, "pointer is not USM of the engine's context"},
        {"memory_create_usm_of_another_context", "imex_l0_interop_memory_create(&m, engine, shared, 64, other context's USM)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             return captured(imex_l0_interop_memory_create(
                 &m, w->engine, imex_l0_memory_kind_shared, 64, w->otherUsm));
         },
         kInvalid, "pointer is not USM of the engine's context"},
        {"memory_create_wrong_kind", "imex_l0_interop_memory_create(&m, engine, device, 64, shared USM)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             return captured(imex_l0_interop_memory_create(
                 &m, w->engine, imex_l0_memory_kind_device, 64, w->usm));
         },
         kInvalid, "pass the matching imex_l0_memory_kind_t"},
        {"memory_create_size_beyond_allocation", "imex_l0_interop_memory_create(&m, engine, shared, size+1, USM of size)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             return captured(imex_l0_interop_memory_create(
                 &m, w->engine, imex_l0_memory_kind_shared, kN * sizeof(float) + 1, w->usm));
         },
         kInvalid, "exceeds the USM allocation"},
        {"memory_create_misaligned_pointer_past_end", "imex_l0_interop_memory_create(&m, engine, shared, 64, usm + 1 byte)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             return captured(imex_l0_interop_memory_create(
                 &m, w->engine, imex_l0_memory_kind_shared, kN * sizeof(float),
                 static_cast<char *>(w->usm) + 1));
         },
         kInvalid, "exceeds the USM allocation"},
        {"memory_create_size_max_user_pointer", "imex_l0_interop_memory_create(&m, engine, shared, SIZE_MAX, USM)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             return captured(imex_l0_interop_memory_create(
                 &m, w->engine, imex_l0_memory_kind_shared, SIZE_MAX, w->usm));
         },
         kInvalid, "exceeds the USM allocation"},
        {"memory_create_v2_nhandles_0", "imex_l0_interop_memory_create_v2(&m, engine, shared, 0, sizes, handles)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             size_t sizes[1] = {64};
             void *handles[1] = {IMEX_L0_MEMORY_ALLOCATE};
             return captured(imex_l0_interop_memory_create_v2(
                 &m, w->engine, imex_l0_memory_kind_shared, 0, sizes, handles));
         },
         kInvalid, "nhandles is 0"},
        {"memory_create_v2_null_sizes", "imex_l0_interop_memory_create_v2(&m, engine, shared, 1, NULL, handles)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             void *handles[1] = {IMEX_L0_MEMORY_ALLOCATE};
             return captured(imex_l0_interop_memory_create_v2(
                 &m, w->engine, imex_l0_memory_kind_shared, 1, nullptr, handles));
         },
         kInvalid, "sizes is NULL"},
        {"memory_create_v2_null_handles", "imex_l0_interop_memory_create_v2(&m, engine, shared, 1, sizes, NULL)", C,
         [] {
             imex_l0_memory_t m = nullptr;
             size_t sizes[1] = {64};
             return captured(imex_l0_interop_memory_create_v2(
                 &m, w->engine, imex_l0_memory_kind_shared, 1, sizes, nullptr));
         },
         kInvalid, "handles is NULL"},
        {"memory_create_v2_second_handle_not_usm", "imex_l0_interop_memory_create_v2(.., 2, sizes, {ALLOCATE, host pointer})", C,
         // The first buffer was allocated before the second is rejected: it
         // must be freed, not leaked (LeakSanitizer / the driver's count).
         [] {
             imex_l0_memory_t m = nullptr;
             size_t sizes[2] = {64, 64};
             void *handles[2] = {IMEX_L0_MEMORY_ALLOCATE, w->host};
             return captured(imex_l0_interop_memory_create_v2(
                 &m, w->engine, imex_l0_memory_kind_shared, 2, sizes, handles));
         },
         kInvalid, "pointer is not USM of the engine's context"},
        {"memory_get_mem_object_index_out_of_range", "imex_l0_interop_memory_get_mem_object(memory, 1, &p)", C,
         [] {
             void *p = nullptr;
             return captured(imex_l0_interop_memory_get_mem_object(w->a, 1, &p));
         },
         kInvalid, "index 1 is out of range: the memory object has 1 buffer(s)"},
        {"memory_get_mem_object_index_size_max", "imex_l0_interop_memory_get_mem_object(memory, SIZE_MAX, &p)", C,
         [] {
             void *p = nullptr;
             return captured(imex_l0_interop_memory_get_mem_object(w->a, SIZE_MAX, &p));
         },
         kInvalid, "is out of range"},
        {"memory_get_mem_object_null_output", "imex_l0_interop_memory_get_mem_object(memory, 0, NULL)", C,
         [] { return captured(imex_l0_interop_memory_get_mem_object(w->a, 0, nullptr)); },
         kInvalid, "ptr (the output argument) is NULL"},
        {"memory_set_mem_object_allocate", "imex_l0_interop_memory_set_mem_object(memory, 0, ALLOCATE)", C,
         [] {
             return captured(
                 imex_l0_interop_memory_set_mem_object(w->noneMem, 0, IMEX_L0_MEMORY_ALLOCATE));
         },
         kInvalid, "not ALLOCATE"},
        {"memory_set_mem_object_index_out_of_range", "imex_l0_interop_memory_set_mem_object(memory, 7, usm)", C,
         [] { return captured(imex_l0_interop_memory_set_mem_object(w->noneMem, 7, w->usm)); },
         kInvalid, "index 7 is out of range"},
        {"memory_set_mem_object_non_usm", "imex_l0_interop_memory_set_mem_object(memory, 0, host pointer)", C,
         [] { return captured(imex_l0_interop_memory_set_mem_object(w->noneMem, 0, w->host)); },
         kInvalid, "pointer is not USM of the engine's context"},
        {"memory_set_mem_object_usm_of_another_context", "imex_l0_interop_memory_set_mem_object(memory, 0, other context's USM)", C,
         [] {
             return captured(imex_l0_interop_memory_set_mem_object(w->noneMem, 0, w->otherUsm));
         },
         kInvalid, "pointer is not USM of the engine's context"},
        {"memory_get_size_index_out_of_range", "imex_l0_memory_get_size(memory, 3, &s)", C,
         [] {
             size_t s = 0;
             return captured(imex_l0_memory_get_size(w->a, 3, &s));
         },
         kInvalid, "index 3 is out of range"},
        {"memory_get_kind_null_memory", "imex_l0_memory_get_kind(NULL, &k)", C,
         [] {
             imex_l0_memory_kind_t k;
             return captured(imex_l0_memory_get_kind(nullptr, &k));
         },
         kInvalid, "memory is NULL"},
        {"memory_destroy_kernel_as_memory", "imex_l0_memory_destroy((memory)kernel)", C,
         [] {
             return captured(
                 imex_l0_memory_destroy(reinterpret_cast<imex_l0_memory_t>(w->add)));
         },
         kInvalid, kNotLive},
        {"memory_destroy_dangling", "imex_l0_memory_destroy(destroyed memory)", C,
         [] {
             return captured(imex_l0_memory_destroy(reinterpret_cast<imex_l0_memory_t>(w->dead)));
         },
         kInvalid, kNotLive},

        // ---------------------------------------------------------- kernels
        {"kernel_from_spirv_null_output", "imex_l0_kernel_create_from_spirv(NULL, engine, spirv, size, \"add\", NULL)", C,
         [] {
             return captured(imex_l0_kernel_create_from_spirv(
                 nullptr, w->engine, w->spirv.data(), w->spirv.size(), "add", nullptr));
         },
         kInvalid, "kernel (the output argument) is NULL"},
        {"kernel_from_spirv_null_bytes", "imex_l0_kernel_create_from_spirv(&k, engine, NULL, 100, \"add\", NULL)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             return captured(
                 imex_l0_kernel_create_from_spirv(&k, w->engine, nullptr, 100, "add", nullptr));
         },
         kInvalid, "spirv is NULL or size is 0"},
        {"kernel_from_spirv_size_0", "imex_l0_kernel_create_from_spirv(&k, engine, spirv, 0, \"add\", NULL)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             return captured(imex_l0_kernel_create_from_spirv(&k, w->engine, w->spirv.data(), 0,
                                                              "add", nullptr));
         },
         kInvalid, "spirv is NULL or size is 0"},
        {"kernel_from_spirv_not_spirv", "imex_l0_kernel_create_from_spirv(&k, engine, \"this is not SPIR-V....\", 24, ...)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             static const char text[] = "this is not SPIR-V at all";
             return captured(
                 imex_l0_kernel_create_from_spirv(&k, w->engine, text, 24, "add", nullptr));
         },
         kInvalid, "missing the 0x07230203 magic number"},
        {"kernel_from_spirv_odd_size", "imex_l0_kernel_create_from_spirv(&k, engine, spirv, size - 1, ...)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             return captured(imex_l0_kernel_create_from_spirv(
                 &k, w->engine, w->spirv.data(), w->spirv.size() - 1, "add", nullptr));
         },
         kInvalid, "is not a whole number of 32-bit words"},
        {"kernel_from_spirv_truncated_inside_instruction", "imex_l0_kernel_create_from_spirv(&k, engine, spirv cut inside an instruction, ...)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             std::string cut = truncatedInsideInstruction();
             return captured(imex_l0_kernel_create_from_spirv(&k, w->engine, cut.data(),
                                                              cut.size(), "add", nullptr));
         },
         kInvalid, "runs past the end"},
        {"kernel_from_spirv_truncated_before_functions", "imex_l0_kernel_create_from_spirv(&k, engine, spirv cut before the first OpFunction, ...)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             std::string cut = truncatedAtBoundary();
             return captured(imex_l0_kernel_create_from_spirv(&k, w->engine, cut.data(),
                                                              cut.size(), "add", nullptr));
         },
         imex_l0_compile_error, "zeModuleCreate failed"},
        {"kernel_from_spirv_unknown_name", "imex_l0_kernel_create_from_spirv(&k, engine, spirv, size, \"no_such_kernel\", NULL)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             return captured(imex_l0_kernel_create_from_spirv(
                 &k, w->engine, w->spirv.data(), w->spirv.size(), "no_such_kernel", nullptr));
         },
         imex_l0_not_found, "no kernel named 'no_such_kernel' in the module; its kernels are:"},
        {"kernel_from_spirv_null_name", "imex_l0_kernel_create_from_spirv(&k, engine, spirv, size, NULL, NULL)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             return captured(imex_l0_kernel_create_from_spirv(
                 &k, w->engine, w->spirv.data(), w->spirv.size(), nullptr, nullptr));
         },
         kInvalid, "kernel_name is NULL"},
        {"kernel_from_source_syntax_error", "imex_l0_kernel_create_from_source(&k, engine, \"...p[0] = 1 +;...\", \"k\", NULL, 0, NULL)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             return captured(imex_l0_kernel_create_from_source(&k, w->engine, kBadOpenClC, "k",
                                                               nullptr, 0, nullptr));
         },
         imex_l0_compile_error, ":2:15: error: expected expression"},
        {"kernel_from_source_unknown_name", "imex_l0_kernel_create_from_source(&k, engine, valid source, \"missing\", ...)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             return captured(imex_l0_kernel_create_from_source(
                 &k, w->engine, "kernel void present(global int *p) { p[0] = 1; }", "missing",
                 nullptr, 0, nullptr));
         },
         imex_l0_not_found, "no kernel named 'missing'"},
        {"kernel_from_source_null_source", "imex_l0_kernel_create_from_source(&k, engine, NULL, \"k\", NULL, 0, NULL)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             return captured(imex_l0_kernel_create_from_source(&k, w->engine, nullptr, "k",
                                                               nullptr, 0, nullptr));
         },
         kInvalid, "source is NULL"},
        {"kernel_from_source_ndefines_without_defines", "imex_l0_kernel_create_from_source(&k, engine, src, \"k\", NULL, 2, NULL)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             return captured(imex_l0_kernel_create_from_source(
                 &k, w->engine, "kernel void k() {}", "k", nullptr, 2, nullptr));
         },
         kInvalid, "defines is NULL but ndefines is 2"},
        {"kernel_from_source_define_null_name", "imex_l0_kernel_create_from_source(.., 1, {{NULL, \"1\"}})", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             imex_l0_define_t d = {nullptr, "1"};
             return captured(imex_l0_kernel_create_from_source(&k, w->engine, "kernel void k() {}",
                                                               "k", nullptr, 1, &d));
         },
         kInvalid, "defines[0].name is NULL or empty"},
        {"kernel_from_source_nheaders_without_headers", "imex_l0_kernel_create_from_source_with_headers(.., 0, NULL, 1, NULL)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             return captured(imex_l0_kernel_create_from_source_with_headers(
                 &k, w->engine, "kernel void k() {}", "k", nullptr, 0, nullptr, 1, nullptr));
         },
         kInvalid, "headers is NULL but nheaders is 1"},
        {"kernel_from_source_header_null_contents", "imex_l0_kernel_create_from_source_with_headers(.., 1, {{\"a.h\", NULL}})", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             imex_l0_header_t h = {"a.h", nullptr};
             return captured(imex_l0_kernel_create_from_source_with_headers(
                 &k, w->engine, "kernel void k() {}", "k", nullptr, 0, nullptr, 1, &h));
         },
         kInvalid, "headers[0] has a NULL name or contents"},
        {"kernel_from_source_header_replaces_library_header", "imex_l0_kernel_create_from_source_with_headers(.., 1, {{\"imex_l0/types.h\", ..}})", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             imex_l0_header_t h = {"imex_l0/types.h", "#define X 1\n"};
             return captured(imex_l0_kernel_create_from_source_with_headers(
                 &k, w->engine, "kernel void k() {}", "k", nullptr, 0, nullptr, 1, &h));
         },
         kInvalid, "is one of the library's own headers"},
        {"compile_header_name_with_dots", "imex_l0_compile_opencl_c_with_headers(src, .., 1, {{\"../x.h\", ..}}, ..)", C,
         [] {
             void *spirv = nullptr;
             size_t size = 0;
             imex_l0_header_t h = {"../x.h", "#define X 1\n"};
             return captured(imex_l0_compile_opencl_c_with_headers(
                 "kernel void k() {}", nullptr, 0, nullptr, 1, &h, &spirv, &size, nullptr));
         },
         kInvalid, "invalid header name '../x.h'"},
        {"kernel_from_handle_null_handle", "imex_l0_interop_kernel_create_from_handle(&k, engine, NULL, NULL, keep)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             return captured(imex_l0_interop_kernel_create_from_handle(
                 &k, w->engine, nullptr, nullptr, imex_l0_ownership_keep));
         },
         kInvalid, "handle is NULL"},
        {"kernel_from_handle_bad_ownership", "imex_l0_interop_kernel_create_from_handle(&k, engine, NULL, kernel, 7)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             ze_kernel_handle_t handle = nullptr;
             imex_l0_interop_kernel_get_handle(w->add, &handle);
             return captured(imex_l0_interop_kernel_create_from_handle(
                 &k, w->engine, nullptr, handle, static_cast<imex_l0_ownership_t>(7)));
         },
         kInvalid, "ownership 7 is neither"},
        {"kernel_from_source_define_name_with_space", "imex_l0_kernel_create_from_source(.., 1, {{\"A B\", \"1\"}})", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             imex_l0_define_t d = {"A B", "1"};
             return captured(imex_l0_kernel_create_from_source(&k, w->engine, "kernel void k() {}",
                                                               "k", nullptr, 1, &d));
         },
         kInvalid, "defines[0].name 'A B' is not a macro name"},
        {"kernel_from_source_dangling_engine", "imex_l0_kernel_create_from_source(&k, destroyed engine, ...)", C,
         [] {
             imex_l0_kernel_t k = nullptr;
             return captured(imex_l0_kernel_create_from_source(
                 &k, reinterpret_cast<imex_l0_engine_t>(w->dead), "kernel void k() {}", "k",
                 nullptr, 0, nullptr));
         },
         kInvalid, kNotLive},
        {"compile_null_spirv_output", "imex_l0_compile_opencl_c(src, NULL, 0, NULL, NULL, &size, &log)", C,
         [] {
             size_t size = 0;
             char *log = nullptr;
             return captured(imex_l0_compile_opencl_c("kernel void k() {}", nullptr, 0, nullptr,
                                                      nullptr, &size, &log));
         },
         kInvalid, "spirv (the output argument) is NULL"},
        {"compile_null_size_output", "imex_l0_compile_opencl_c(src, NULL, 0, NULL, &spirv, NULL, &log)", C,
         [] {
             void *spirv = nullptr;
             char *log = nullptr;
             return captured(imex_l0_compile_opencl_c("kernel void k() {}", nullptr, 0, nullptr,
                                                      &spirv, nullptr, &log));
         },
         kInvalid, "size (the output argument) is NULL"},
        {"compile_null_source", "imex_l0_compile_opencl_c(NULL, ...)", C,
         [] {
             void *spirv = nullptr;
             size_t size = 0;
             return captured(
                 imex_l0_compile_opencl_c(nullptr, nullptr, 0, nullptr, &spirv, &size, nullptr));
         },
         kInvalid, "source is NULL"},
        {"compile_syntax_error", "imex_l0_compile_opencl_c(\"...p[0] = 1 +;...\", ..., &log)", C,
         // The log comes back too, and must be freed by the caller.
         [] {
             void *spirv = nullptr;
             size_t size = 0;
             char *log = nullptr;
             Outcome o = captured(imex_l0_compile_opencl_c(kBadOpenClC, nullptr, 0, nullptr,
                                                           &spirv, &size, &log));
             EXPECT_EQ(spirv, nullptr);
             EXPECT_NE(log, nullptr);
             if (log) {
                 EXPECT_NE(std::string(log).find(":2:15:"), std::string::npos) << log;
             }
             imex_l0_free(log);
             return o;
         },
         imex_l0_compile_error, ":2:15: error: expected expression"},
        {"compile_undeclared_identifier", "imex_l0_compile_opencl_c(\"kernel void k(global int *p) { p[0] = nope; }\", ...)", C,
         [] {
             void *spirv = nullptr;
             size_t size = 0;
             return captured(imex_l0_compile_opencl_c(
                 "kernel void k(global int *p) { p[0] = nope; }", nullptr, 0, nullptr, &spirv,
                 &size, nullptr));
         },
         imex_l0_compile_error, "use of undeclared identifier 'nope'"},
        {"compile_missing_include", "imex_l0_compile_opencl_c(\"#include \\\"no_such_header.h\\\"\", ...)", C,
         [] {
             void *spirv = nullptr;
             size_t size = 0;
             return captured(imex_l0_compile_opencl_c("#include \"no_such_header.h\"\n", nullptr,
                                                      0, nullptr, &spirv, &size, nullptr));
         },
         imex_l0_compile_error, "'no_such_header.h' file not found"},
        {"register_header_null_name", "imex_l0_register_header(NULL, \"int x;\")", C,
         [] { return captured(imex_l0_register_header(nullptr, "int x;")); }, kInvalid,
         "name is NULL or empty"},
        {"register_header_null_contents", "imex_l0_register_header(\"h.h\", NULL)", C,
         [] { return captured(imex_l0_register_header("hostile_h.h", nullptr)); }, kInvalid,
         "contents is NULL"},
        {"kernel_get_arg_info_index_out_of_range", "imex_l0_kernel_get_arg_info(add, 3, &kind, &size)", C,
         [] {
             imex_l0_arg_kind_t kind;
             size_t size = 0;
             return captured(imex_l0_kernel_get_arg_info(w->add, 3, &kind, &size));
         },
         kInvalid, "index 3 is out of range: kernel 'add' has 3 argument(s)"},
        {"kernel_get_arg_count_null_kernel", "imex_l0_kernel_get_arg_count(NULL, &n)", C,
         [] {
             size_t n = 0;
             return captured(imex_l0_kernel_get_arg_count(nullptr, &n));
         },
         kInvalid, "kernel is NULL"},
        {"kernel_get_handle_null_output", "imex_l0_interop_kernel_get_handle(kernel, NULL)", C,
         [] { return captured(imex_l0_interop_kernel_get_handle(w->add, nullptr)); }, kInvalid,
         "handle (the output argument) is NULL"},
        {"kernel_destroy_stream_as_kernel", "imex_l0_kernel_destroy((kernel)stream)", C,
         [] {
             return captured(
                 imex_l0_kernel_destroy(reinterpret_cast<imex_l0_kernel_t>(w->stream)));
         },
         kInvalid, kNotLive},

        // ---------------------------------------------------------- execute
        {"execute_null_kernel", "imex_l0_interop_kernel_execute(NULL, stream, ...)", C,
         [] {
             auto args = addArgs();
             imex_l0_range_t r = range1(kN);
             return captured(imex_l0_interop_kernel_execute(nullptr, w->stream, 3, args.data(),
                                                            &r, 0, nullptr, nullptr));
         },
         kInvalid, "kernel is NULL"},
        {"execute_dangling_stream", "imex_l0_interop_kernel_execute(add, destroyed stream, ...)", C,
         [] { return execAdd(addArgs(), range1(kN), 0, nullptr,
                             reinterpret_cast<imex_l0_stream_t>(w->dead)); },
         kInvalid, kNotLive},
        {"execute_stream_of_another_engine", "imex_l0_interop_kernel_execute(add, other engine's stream, ...)", C,
         [] { return execAdd(addArgs(), range1(kN), 0, nullptr, w->otherStream); }, kInvalid,
         "stream and kernel belong to different engines"},
        {"execute_too_few_arguments", "imex_l0_interop_kernel_execute(add, stream, 2, args, ...)", C,
         [] { return execAdd({mem(w->a), mem(w->b)}); }, kInvalid,
         "kernel 'add' takes 3 argument(s) but 2 were given"},
        {"execute_too_many_arguments", "imex_l0_interop_kernel_execute(add, stream, 4, args, ...)", C,
         [] { return execAdd({mem(w->a), mem(w->b), mem(w->out), mem(w->out)}); }, kInvalid,
         "kernel 'add' takes 3 argument(s) but 4 were given"},
        {"execute_args_null", "imex_l0_interop_kernel_execute(add, stream, 3, NULL, ...)", C,
         [] {
             imex_l0_range_t r = range1(kN);
             return captured(imex_l0_interop_kernel_execute(w->add, w->stream, 3, nullptr, &r, 0,
                                                            nullptr, nullptr));
         },
         kInvalid, "args is NULL but nargs is 3"},
        {"execute_range_null", "imex_l0_interop_kernel_execute(add, stream, 3, args, NULL, ...)", C,
         [] {
             auto args = addArgs();
             return captured(imex_l0_interop_kernel_execute(w->add, w->stream, 3, args.data(),
                                                            nullptr, 0, nullptr, nullptr));
         },
         kInvalid, "range is NULL"},
        {"execute_value_size_mismatch", "execute(scale, {mem, mem, value of 8 bytes for a float})", C,
         [] {
             double alpha = 2.0;
             imex_l0_exec_arg_t args[3] = {mem(w->a), mem(w->out), value(&alpha, sizeof alpha)};
             imex_l0_range_t r = range1(kN);
             return captured(imex_l0_interop_kernel_execute(w->scale, w->stream, 3, args, &r, 0,
                                                            nullptr, nullptr));
         },
         kInvalid, "argument 2 of kernel 'scale' is a 4-byte value but 8 bytes were given"},
        {"execute_value_null_pointer", "execute(scale, {mem, mem, value ptr NULL})", C,
         [] {
             imex_l0_exec_arg_t args[3] = {mem(w->a), mem(w->out), value(nullptr, 4)};
             imex_l0_range_t r = range1(kN);
             return captured(imex_l0_interop_kernel_execute(w->scale, w->stream, 3, args, &r, 0,
                                                            nullptr, nullptr));
         },
         kInvalid, "is a value with ptr NULL"},
        {"execute_global_passed_as_value", "execute(add, {value, mem, mem})", C,
         [] {
             float f = 1;
             return execAdd({value(&f, sizeof f), mem(w->b), mem(w->out)});
         },
         kInvalid, "argument 0 of kernel 'add' is a global pointer but was passed with a different imex_l0_exec_arg_type_t"},
        {"execute_value_passed_as_memory", "execute(scale, {mem, mem, mem})", C,
         [] {
             imex_l0_exec_arg_t args[3] = {mem(w->a), mem(w->out), mem(w->b)};
             imex_l0_range_t r = range1(kN);
             return captured(imex_l0_interop_kernel_execute(w->scale, w->stream, 3, args, &r, 0,
                                                            nullptr, nullptr));
         },
         kInvalid, "is a by-value argument but was passed with a different imex_l0_exec_arg_type_t"},
        {"execute_local_passed_as_usm", "execute(reduce_sum, {mem, mem, usm})", C,
         [] {
             imex_l0_exec_arg_t args[3] = {mem(w->a), mem(w->out), usm(w->usm)};
             imex_l0_range_t r = range1(kN, 16);
             return captured(imex_l0_interop_kernel_execute(w->reduce, w->stream, 3, args, &r, 0,
                                                            nullptr, nullptr));
         },
         kInvalid, "is a local memory pointer but was passed with a different imex_l0_exec_arg_type_t"},
        {"execute_local_size_0", "execute(reduce_sum, {mem, mem, local 0 bytes})", C,
         [] {
             imex_l0_exec_arg_t args[3] = {mem(w->a), mem(w->out), local(0)};
             imex_l0_range_t r = range1(kN, 16);
             return captured(imex_l0_interop_kernel_execute(w->reduce, w->stream, 3, args, &r, 0,
                                                            nullptr, nullptr));
         },
         kInvalid, "is local memory of size 0"},
        {"execute_local_larger_than_device", "execute(reduce_sum, {mem, mem, local 4 x maxSharedLocalMemory})", C,
         [] {
             imex_l0_exec_arg_t args[3] = {mem(w->a), mem(w->out),
                                           local(4 * size_t(w->compute.maxSharedLocalMemory))};
             imex_l0_range_t r = range1(kN, 16);
             return captured(imex_l0_interop_kernel_execute(w->reduce, w->stream, 3, args, &r, 0,
                                                            nullptr, nullptr));
         },
         kInvalid, "argument 2 of kernel 'reduce_sum' asks for"},
        {"execute_dependency_released", "execute(add, deps = {an event given back with imex_l0_event_release})", C,
         [] {
             ze_event_handle_t e = poolEvent();
             EXPECT_EQ(imex_l0_event_release(w->engine, e), imex_l0_success);
             imex_l0_exec_arg_t args[3] = {mem(w->a), mem(w->b), mem(w->out)};
             imex_l0_range_t r = range1(kN);
             return captured(imex_l0_interop_kernel_execute(w->add, w->stream, 3, args, &r, 1, &e,
                                                            nullptr));
         },
         kInvalid, "deps[0] is an event already given back with imex_l0_event_release"},
        {"execute_dependency_from_another_engines_context", "execute(add, deps = {an event the other engine returned})", C,
         [] {
             ze_event_handle_t e = poolEvent(w->otherEngine);
             EXPECT_EQ(imex_l0_stream_wait(w->otherStream), imex_l0_success);
             imex_l0_exec_arg_t args[3] = {mem(w->a), mem(w->b), mem(w->out)};
             imex_l0_range_t r = range1(kN);
             Outcome o = captured(imex_l0_interop_kernel_execute(w->add, w->stream, 3, args, &r, 1,
                                                                 &e, nullptr));
             EXPECT_EQ(imex_l0_event_release(w->otherEngine, e), imex_l0_success);
             return o;
         },
         kInvalid, "deps[0] is an event the library returned for another context"},
        {"execute_usm_is_malloc", "execute(add, {usm = a malloc() pointer, mem, mem})", C,
         [] {
             std::vector<float> host(kN);
             return execAdd({usm(host.data()), mem(w->b), mem(w->out)});
         },
         kInvalid, "argument 0 of kernel 'add' is not USM of the engine's context"},
        {"execute_usm_of_another_context", "execute(add, {usm of the other context, mem, mem})", C,
         [] { return execAdd({usm(w->otherUsm), mem(w->b), mem(w->out)}); },
         kInvalid, "argument 0 of kernel 'add' is not USM of the engine's context"},
        {"execute_arg_type_42", "execute(add, {type 42, mem, mem})", C,
         [] {
             imex_l0_exec_arg_t bad = {static_cast<imex_l0_exec_arg_type_t>(42), w->a, nullptr, 0};
             return execAdd({bad, mem(w->b), mem(w->out)});
         },
         kInvalid, "was passed with a different imex_l0_exec_arg_type_t"},
        {"execute_memory_null", "execute(add, {memory NULL, mem, mem})", C,
         [] { return execAdd({mem(nullptr), mem(w->b), mem(w->out)}); }, kInvalid,
         "argument 0 of kernel 'add' has no live memory object"},
        {"execute_memory_is_a_stream", "execute(add, {(memory)stream, mem, mem})", C,
         [] {
             return execAdd(
                 {mem(reinterpret_cast<imex_l0_memory_t>(w->stream)), mem(w->b), mem(w->out)});
         },
         kInvalid, "has no live memory object"},
        {"execute_memory_dangling", "execute(add, {destroyed memory, mem, mem})", C,
         [] {
             return execAdd(
                 {mem(reinterpret_cast<imex_l0_memory_t>(w->dead)), mem(w->b), mem(w->out)});
         },
         kInvalid, "has no live memory object"},
        {"execute_memory_of_another_engine", "execute(add, {other engine's memory, mem, mem})", C,
         [] { return execAdd({mem(w->otherMem), mem(w->b), mem(w->out)}); }, kInvalid,
         "is a memory object of another engine"},
        {"execute_memory_without_buffer", "execute(add, {memory created with NONE, mem, mem})", C,
         [] { return execAdd({mem(w->noneMem), mem(w->b), mem(w->out)}); }, kInvalid,
         "without a buffer (created with NONE)"},
        {"execute_global_0", "execute(add, range global {0,1,1})", C,
         [] { return execAdd(addArgs(), range1(0)); }, kInvalid,
         "global[0] = 0 is outside 1..2^32-1"},
        {"execute_global_over_2_32", "execute(add, range global {2^32,1,1})", C,
         [] { return execAdd(addArgs(), range1(size_t(1) << 32)); }, kInvalid,
         "global[0] = 4294967296 is outside 1..2^32-1"},
        {"execute_global_size_max", "execute(add, range global {1,1,SIZE_MAX})", C,
         [] {
             imex_l0_range_t r = {{1, 1, SIZE_MAX}, {0, 0, 0}};
             return execAdd(addArgs(), r);
         },
         kInvalid, "global[2] = 18446744073709551615 is outside 1..2^32-1"},
        {"execute_local_not_dividing", "execute(add, range global {64,1,1} local {7,1,1})", C,
         [] { return execAdd(addArgs(), range1(kN, 7)); }, kInvalid,
         "local[0] = 7 does not divide global[0] = 64"},
        {"execute_local_partly_zero", "execute(add, range global {64,1,1} local {8,0,1})", C,
         [] {
             imex_l0_range_t r = {{kN, 1, 1}, {8, 0, 1}};
             return execAdd(addArgs(), r);
         },
         kInvalid, "local[1] = 0 does not divide global[1] = 1"},
        {"execute_local_over_device_maximum", "execute(add, local[0] = 2 x maxGroupSizeX)", C,
         [] {
             size_t l = size_t(w->compute.maxGroupSizeX) * 2;
             return execAdd(addArgs(), range1(l, l));
         },
         kInvalid, "exceeds the device's maximum of"},
        {"execute_group_too_large", "execute(add, local {maxX, maxTotal/maxX*2 or 2, 1})", C,
         [] {
             // Each dimension within its own maximum, the product above the
             // total maximum.
             size_t x = w->compute.maxGroupSizeX;
             size_t y = std::max<size_t>(2, w->compute.maxTotalGroupSize / x * 2);
             y = std::min<size_t>(y, w->compute.maxGroupSizeY);
             imex_l0_range_t r = {{x, y, 1}, {x, y, 1}};
             return execAdd(addArgs(), r);
         },
         kInvalid, "work-items, more than the device's maximum of"},
        {"execute_ndeps_without_deps", "execute(add, ..., ndeps 2, deps NULL, ...)", C,
         [] { return execAdd(addArgs(), range1(kN), 2, nullptr); }, kInvalid,
         "deps is NULL but ndeps is 2"},
        {"execute_null_dependency", "execute(add, ..., ndeps 2, {user event, NULL}, ...)", C,
         [] {
             ze_event_handle_t deps[2] = {w->userEvent, nullptr};
             return execAdd(addArgs(), range1(kN), 2, deps);
         },
         kInvalid, "deps[1] is NULL: every dependency must be an event"},
        {"execute_dependency_of_another_context", "execute(add, ..., 1, {event of another context}, ...)", C,
         // The library cannot see an event's context; the driver rejects the
         // append and the message names the call and the result.
         [] { return execAdd(addArgs(), range1(kN), 1, &w->otherEvent); },
         imex_l0_runtime_error, "zeCommandListAppendLaunchKernel failed: ZE_RESULT_ERROR_INVALID_ARGUMENT"},
        {"execute_dependency_dangling", "execute(add, ..., 1, {destroyed event}, ...)", C,
         // The driver's tag check: a destroyed event's cleared tag is refused.
         [] {
             ze_event_handle_t dead = reinterpret_cast<ze_event_handle_t>(w->dead);
             return execAdd(addArgs(), range1(kN), 1, &dead);
         },
         imex_l0_runtime_error, "zeCommandListAppendLaunchKernel failed: ZE_RESULT_ERROR_INVALID_ARGUMENT"},

        // ---------------------------------------------------------- copy/fill
        {"memcpy_null_stream", "imex_l0_interop_memcpy(NULL, dst, src, 64, 0, NULL, NULL)", C,
         [] {
             return captured(
                 imex_l0_interop_memcpy(nullptr, w->usm, w->usm, 64, 0, nullptr, nullptr));
         },
         kInvalid, "stream is NULL"},
        {"memcpy_null_dst", "imex_l0_interop_memcpy(stream, NULL, src, 64, ...)", C,
         [] {
             return captured(
                 imex_l0_interop_memcpy(w->stream, nullptr, w->usm, 64, 0, nullptr, nullptr));
         },
         kInvalid, "dst is NULL"},
        {"memcpy_size_max", "imex_l0_interop_memcpy(stream, usm, usm2, SIZE_MAX, ...)", C,
         [] {
             void *src = nullptr;
             imex_l0_interop_memory_get_mem_object(w->a, 0, &src);
             return captured(
                 imex_l0_interop_memcpy(w->stream, w->usm, src, SIZE_MAX, 0, nullptr, nullptr));
         },
         kInvalid, "runs past the end of the address space"},
        {"memcpy_past_end_of_usm", "imex_l0_interop_memcpy(stream, usm + 8, src, size of usm, ...)", C,
         [] {
             void *src = nullptr;
             imex_l0_interop_memory_get_mem_object(w->a, 0, &src);
             return captured(imex_l0_interop_memcpy(w->stream, static_cast<char *>(w->usm) + 8,
                                                    src, kN * sizeof(float), 0, nullptr,
                                                    nullptr));
         },
         kInvalid, "exceeds the USM allocation"},
        {"memcpy_ndeps_without_deps", "imex_l0_interop_memcpy(stream, dst, src, 64, 1, NULL, NULL)", C,
         [] {
             return captured(
                 imex_l0_interop_memcpy(w->stream, w->usm, w->usm, 64, 1, nullptr, nullptr));
         },
         kInvalid, "deps is NULL but ndeps is 1"},
        {"memset_pattern_size_3", "imex_l0_interop_memset(stream, usm, pattern, 3, 12, ...)", C,
         [] {
             const char pattern[3] = {1, 2, 3};
             return captured(imex_l0_interop_memset(w->stream, w->usm, pattern, 3, 12, 0, nullptr,
                                                    nullptr));
         },
         kInvalid, "pattern_size 3 is not a power of two"},
        {"memset_size_not_multiple", "imex_l0_interop_memset(stream, usm, pattern, 4, 10, ...)", C,
         [] {
             int pattern = 7;
             return captured(imex_l0_interop_memset(w->stream, w->usm, &pattern, 4, 10, 0,
                                                    nullptr, nullptr));
         },
         kInvalid, "size 10 is not a multiple of pattern_size 4"},
        {"memset_null_pattern", "imex_l0_interop_memset(stream, usm, NULL, 4, 16, ...)", C,
         [] {
             return captured(
                 imex_l0_interop_memset(w->stream, w->usm, nullptr, 4, 16, 0, nullptr, nullptr));
         },
         kInvalid, "pattern is NULL"},
        {"memset_size_max", "imex_l0_interop_memset(stream, usm, pattern, 4, SIZE_MAX & ~3, ...)", C,
         [] {
             int pattern = 7;
             return captured(imex_l0_interop_memset(w->stream, w->usm, &pattern, 4,
                                                    SIZE_MAX & ~size_t(3), 0, nullptr, nullptr));
         },
         kInvalid, "runs past the end of the address space"},
        {"memset_past_end_of_usm", "imex_l0_interop_memset(stream, usm, pattern, 4, 1 MiB, ...)", C,
         [] {
             int pattern = 7;
             return captured(imex_l0_interop_memset(w->stream, w->usm, &pattern, 4, 1 << 20, 0,
                                                    nullptr, nullptr));
         },
         kInvalid, "exceeds the USM allocation of dst"},
        {"memcpy_size_0", "imex_l0_interop_memcpy(stream, dst, src, 0, ...) (a no-op, not an error)", C,
         [] {
             void *src = nullptr;
             imex_l0_interop_memory_get_mem_object(w->a, 0, &src);
             ze_event_handle_t done = nullptr;
             Outcome o = captured(
                 imex_l0_interop_memcpy(w->stream, w->usm, src, 0, 0, nullptr, &done));
             if (done) {
                 EXPECT_EQ(zeEventHostSynchronize(done, UINT64_MAX), ZE_RESULT_SUCCESS);
                 EXPECT_EQ(imex_l0_event_release(w->engine, done), imex_l0_success);
             }
             return o;
         },
         imex_l0_success, ""},

        // ---------------------------------------------------------- events
        {"event_release_twice", "imex_l0_event_release(engine, e) twice", C,
         [] {
             ze_event_handle_t e = poolEvent();
             EXPECT_EQ(imex_l0_event_release(w->engine, e), imex_l0_success);
             return captured(imex_l0_event_release(w->engine, e));
         },
         kInvalid, "event was already released (double release)"},
        {"event_release_user_event", "imex_l0_event_release(engine, the user's own event)", C,
         [] { return captured(imex_l0_event_release(w->engine, w->userEvent)); }, kInvalid,
         "event was not returned by this engine"},
        {"event_release_to_another_engine", "imex_l0_event_release(other engine, event of engine)", C,
         [] {
             ze_event_handle_t e = poolEvent();
             Outcome o = captured(imex_l0_event_release(w->otherEngine, e));
             EXPECT_EQ(imex_l0_event_release(w->engine, e), imex_l0_success);
             return o;
         },
         kInvalid, "event was not returned by this engine"},
        {"event_release_null_event", "imex_l0_event_release(engine, NULL)", C,
         [] { return captured(imex_l0_event_release(w->engine, nullptr)); }, kInvalid,
         "event is NULL"},
        {"event_release_null_engine", "imex_l0_event_release(NULL, e)", C,
         [] { return captured(imex_l0_event_release(nullptr, w->userEvent)); }, kInvalid,
         "engine is NULL"},
        {"cache_stats_null_output", "imex_l0_get_cache_stats(NULL)", C,
         [] { return captured(imex_l0_get_cache_stats(nullptr)); }, kInvalid,
         "stats (the output argument) is NULL"},

        // ---------------------------------------------------------- gpu*
        {"gpu_create_stream_unknown_device_pointer", "gpuCreateStream(&99, NULL)", G,
         [] {
             return gpuCall([] {
                 static const uint32_t notAType = 99;
                 return gpuCreateStream(const_cast<uint32_t *>(&notAType), nullptr) == nullptr;
             });
         },
         kHandler, "gpuCreateStream: device is neither a device handle of any Level Zero driver"},
        {"gpu_create_stream_absent_device_type", "gpuCreateStream(&ZE_DEVICE_TYPE_FPGA, NULL)", G,
         [] {
             return gpuCall([] {
                 static const ze_device_type_t fpga = ZE_DEVICE_TYPE_FPGA;
                 return gpuCreateStream(const_cast<ze_device_type_t *>(&fpga), nullptr) == nullptr;
             });
         },
         kHandler, "no Level Zero device of type FPGA"},
        {"gpu_create_stream_from_user_null_context", "gpuCreateStreamFromUser(&{list, device, NULL})", G,
         [] {
             return gpuCall([] {
                 ze_command_list_handle_t list = userImmediateList(w->context);
                 imex_gpu_l0_stream_t user = {list, w->device, nullptr};
                 bool refused = gpuCreateStreamFromUser(&user) == nullptr;
                 zeCommandListDestroy(list);
                 return refused;
             });
         },
         kHandler, "user->context is NULL"},
        {"gpu_create_stream_from_user_null", "gpuCreateStreamFromUser(NULL)", G,
         [] { return gpuCall([] { return gpuCreateStreamFromUser(nullptr) == nullptr; }); },
         kHandler, "gpuCreateStreamFromUser: user is NULL"},
        {"gpu_create_stream_from_user_null_list", "gpuCreateStreamFromUser(&{NULL, device, context})", G,
         [] {
             return gpuCall([] {
                 imex_gpu_l0_stream_t user = {nullptr, w->device, w->context};
                 return gpuCreateStreamFromUser(&user) == nullptr;
             });
         },
         kHandler, "user->list is NULL"},
        {"gpu_create_stream_from_interop_null", "gpuCreateStreamFromInterop(NULL)", G,
         [] { return gpuCall([] { return gpuCreateStreamFromInterop(nullptr) == nullptr; }); },
         kHandler, "gpuCreateStreamFromInterop: stream is NULL"},
        {"gpu_mem_alloc_null_stream", "gpuMemAlloc(NULL, 64, 0, true)", G,
         [] { return gpuCall([] { return gpuMemAlloc(nullptr, 64, 0, true) == nullptr; }); },
         kHandler, "gpuMemAlloc: stream is NULL"},
        {"gpu_mem_alloc_size_0", "gpuMemAlloc(stream, 0, 0, true)", G,
         [] { return gpuCall([] { return gpuMemAlloc(w->gpu, 0, 0, true) == nullptr; }); },
         kHandler, "gpuMemAlloc: size is 0"},
        {"gpu_mem_alloc_alignment_3", "gpuMemAlloc(stream, 64, 3, true)", G,
         [] { return gpuCall([] { return gpuMemAlloc(w->gpu, 64, 3, true) == nullptr; }); },
         kHandler, "alignment 3 is not a power of two"},
        {"gpu_mem_alloc_size_max", "gpuMemAlloc(stream, SIZE_MAX, 0, false)", G,
         [] { return gpuCall([] { return gpuMemAlloc(w->gpu, SIZE_MAX, 0, false) == nullptr; }); },
         kHandler, "exceeds the device's maximum allocation of"},
        {"gpu_mem_free_host_pointer", "gpuMemFree(stream, stack array)", G,
         [] {
             return gpuCall([] {
                 gpuMemFree(w->gpu, w->host);
                 return true;
             });
         },
         kHandler, "pointer is not USM of this stream's context"},
        {"gpu_mem_free_usm_of_another_context", "gpuMemFree(stream, other context's USM)", G,
         [] {
             return gpuCall([] {
                 gpuMemFree(w->gpu, w->otherUsm);
                 return true;
             });
         },
         kHandler, "pointer is not USM of this stream's context"},
        {"gpu_mem_free_interior_pointer", "gpuMemFree(stream, allocation + 4)", G,
         [] {
             return gpuCall([] {
                 gpuMemFree(w->gpu, static_cast<char *>(w->gpuA) + 4);
                 return true;
             });
         },
         kHandler, "points inside a USM allocation, not at its start"},
        {"gpu_mem_copy_null_dst", "gpuMemCopy(stream, NULL, src, 64)", G,
         [] {
             return gpuCall([] {
                 gpuMemCopy(w->gpu, nullptr, w->gpuA, 64);
                 return true;
             });
         },
         kHandler, "gpuMemCopy: dst is NULL"},
        {"gpu_mem_copy_size_max", "gpuMemCopy(stream, dst, src, SIZE_MAX)", G,
         [] {
             return gpuCall([] {
                 gpuMemCopy(w->gpu, w->gpuB, w->gpuA, SIZE_MAX);
                 return true;
             });
         },
         kHandler, "runs past the end of the address space"},
        {"gpu_launch_shared_memory_larger_than_device", "gpuLaunchKernel(reduce_sum, sharedMemBytes = 4 x maxSharedLocalMemory)", G,
         [] {
             return gpuCall([] {
                 void *reduce = gpuKernelGet(w->gpu, w->gpuModule, "reduce_sum");
                 ParamDesc params[] = {{&w->gpuA, sizeof(void *)}, {&w->gpuOut, sizeof(void *)},
                                       {nullptr, 1}, {nullptr, 0}};
                 return gpuLaunchKernel(w->gpu, reduce, 4, 1, 1, 16, 1, 1,
                                        4 * size_t(w->compute.maxSharedLocalMemory), params,
                                        nullptr) == nullptr;
             });
         },
         kHandler, "gpuLaunchKernel: argument 2 of kernel 'reduce_sum' asks for"},
        {"gpu_module_load_null", "gpuModuleLoad(stream, NULL, 0)", G,
         [] { return gpuCall([] { return gpuModuleLoad(w->gpu, nullptr, 0) == nullptr; }); },
         kHandler, "gpuModuleLoad: spirv is NULL or size is 0"},
        {"gpu_module_load_not_spirv", "gpuModuleLoad(stream, text, 24)", G,
         [] {
             return gpuCall([] {
                 static const char text[] = "this is not SPIR-V at all";
                 return gpuModuleLoad(w->gpu, text, 24) == nullptr;
             });
         },
         kHandler, "spirv is not a usable SPIR-V module"},
        {"gpu_module_load_truncated", "gpuModuleLoad(stream, spirv cut inside an instruction)", G,
         [] {
             return gpuCall([] {
                 std::string cut = truncatedInsideInstruction();
                 return gpuModuleLoad(w->gpu, cut.data(), cut.size()) == nullptr;
             });
         },
         kHandler, "runs past the end"},
        {"gpu_module_load_dangling_stream", "gpuModuleLoad(destroyed stream, spirv, size)", G,
         [] {
             return gpuCall([] {
                 return gpuModuleLoad(w->dead, w->spirv.data(), w->spirv.size()) == nullptr;
             });
         },
         kHandler, kNotLive},
        {"gpu_kernel_get_unknown_name", "gpuKernelGet(stream, module, \"no_such_kernel\")", G,
         [] {
             return gpuCall(
                 [] { return gpuKernelGet(w->gpu, w->gpuModule, "no_such_kernel") == nullptr; });
         },
         kHandler, "no kernel named 'no_such_kernel'"},
        {"gpu_kernel_get_null_name", "gpuKernelGet(stream, module, NULL)", G,
         [] { return gpuCall([] { return gpuKernelGet(w->gpu, w->gpuModule, nullptr) == nullptr; }); },
         kHandler, "gpuKernelGet: name is NULL"},
        {"gpu_kernel_get_null_module", "gpuKernelGet(stream, NULL, \"add\")", G,
         [] { return gpuCall([] { return gpuKernelGet(w->gpu, nullptr, "add") == nullptr; }); },
         kHandler, "module is NULL"},
        {"gpu_kernel_get_kernel_as_module", "gpuKernelGet(stream, (module)kernel, \"add\")", G,
         [] { return gpuCall([] { return gpuKernelGet(w->gpu, w->gpuAdd, "add") == nullptr; }); },
         kHandler, kNotLive},
        {"gpu_kernel_get_module_of_another_engine", "gpuKernelGet(stream of another context, module, \"add\")", G,
         [] {
             return gpuCall(
                 [] { return gpuKernelGet(w->gpuOther, w->gpuModule, "add") == nullptr; });
         },
         kHandler, "the module was loaded on another engine's stream"},
        {"gpu_launch_null_kernel", "gpuLaunchKernel(stream, NULL, ...)", G,
         [] {
             GpuLaunch l = gpuAddLaunch();
             l.kernel = nullptr;
             return gpuLaunch(l);
         },
         kHandler, "gpuLaunchKernel: kernel is NULL"},
        {"gpu_launch_null_stream", "gpuLaunchKernel(NULL, kernel, ...)", G,
         [] {
             GpuLaunch l = gpuAddLaunch();
             l.stream = nullptr;
             return gpuLaunch(l);
         },
         kHandler, "gpuLaunchKernel: stream is NULL"},
        {"gpu_launch_module_as_kernel", "gpuLaunchKernel(stream, (kernel)module, ...)", G,
         [] {
             GpuLaunch l = gpuAddLaunch();
             l.kernel = w->gpuModule;
             return gpuLaunch(l);
         },
         kHandler, kNotLive},
        {"gpu_launch_grid_0", "gpuLaunchKernel(stream, kernel, 0, 1, 1, 1, 1, 1, ...)", G,
         [] {
             GpuLaunch l = gpuAddLaunch();
             l.grid[0] = 0;
             return gpuLaunch(l);
         },
         kHandler, "grid and block sizes must be in 1..2^32-1 (dimension 0: grid 0"},
        {"gpu_launch_block_over_2_32", "gpuLaunchKernel(stream, kernel, 1, 1, 1, 2^32, 1, 1, ...)", G,
         [] {
             GpuLaunch l = gpuAddLaunch();
             l.grid[0] = 1;
             l.block[0] = size_t(1) << 32;
             return gpuLaunch(l);
         },
         kHandler, "grid and block sizes must be in 1..2^32-1"},
        {"gpu_launch_too_few_params", "gpuLaunchKernel(.., params {a, b, {NULL,0}})", G,
         [] {
             GpuLaunch l = gpuAddLaunch();
             l.params.erase(l.params.begin() + 2);
             return gpuLaunch(l);
         },
         kHandler, "kernel 'add' takes 3 argument(s) but params holds 2"},
        {"gpu_launch_param_size_mismatch", "gpuLaunchKernel(.., params {a (4 bytes), b, out})", G,
         [] {
             GpuLaunch l = gpuAddLaunch();
             l.params[0].size = 4;
             return gpuLaunch(l);
         },
         kHandler, "param 0 of kernel 'add' has size 4 but the kernel expects 8"},
        {"gpu_launch_dependency_of_another_context", "gpuLaunchKernel(.., depEvents {event of another context})", G,
         [] {
             GpuLaunch l = gpuAddLaunch();
             EventDesc deps[2] = {{w->otherEvent}, {nullptr}};
             l.deps = deps;
             return gpuLaunch(l);
         },
         kHandler, "zeCommandListAppendLaunchKernel failed: ZE_RESULT_ERROR_INVALID_ARGUMENT"},
        {"gpu_launch_kernel_of_another_engine", "gpuLaunchKernel(stream of another context, kernel, ...)", G,
         [] {
             GpuLaunch l = gpuAddLaunch();
             l.stream = w->gpuOther;
             return gpuLaunch(l);
         },
         kHandler, "the kernel was loaded on another engine's stream"},
        {"gpu_wait_interop_stream_as_gpu_stream", "gpuWait((gpu stream)interop stream)", G,
         [] {
             return gpuCall([] {
                 gpuWait(w->stream);
                 return true;
             });
         },
         kHandler, kNotLive},
        {"gpu_stream_destroy_null", "gpuStreamDestroy(NULL)", G,
         [] {
             return gpuCall([] {
                 gpuStreamDestroy(nullptr);
                 return true;
             });
         },
         kHandler, "gpuStreamDestroy: stream is NULL"},
    };
    return table;
}

// ------------------------------------------------------------------ Checks

// One launch on each surface that must still work after any hostile case.
void fixturesStillWork() {
    void *pa = nullptr, *pb = nullptr, *po = nullptr;
    ASSERT_EQ(imex_l0_interop_memory_get_mem_object(w->a, 0, &pa), imex_l0_success);
    ASSERT_EQ(imex_l0_interop_memory_get_mem_object(w->b, 0, &pb), imex_l0_success);
    ASSERT_EQ(imex_l0_interop_memory_get_mem_object(w->out, 0, &po), imex_l0_success);
    auto *a = static_cast<float *>(pa), *b = static_cast<float *>(pb), *o = static_cast<float *>(po);
    for (size_t i = 0; i < kN; ++i) {
        a[i] = float(i);
        b[i] = 100.0f;
        o[i] = -1.0f;
    }
    auto args = addArgs();
    imex_l0_range_t r = range1(kN);
    ze_event_handle_t done = nullptr;
    ASSERT_EQ(imex_l0_interop_kernel_execute(w->add, w->stream, 3, args.data(), &r, 0, nullptr,
                                             &done),
              imex_l0_success)
        << imex_l0_last_error_message();
    ASSERT_EQ(zeEventHostSynchronize(done, UINT64_MAX), ZE_RESULT_SUCCESS);
    ASSERT_EQ(imex_l0_event_release(w->engine, done), imex_l0_success);
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(o[i], float(i) + 100.0f) << "interop launch, element " << i;

    auto *ga = static_cast<float *>(w->gpuA), *gb = static_cast<float *>(w->gpuB),
         *go = static_cast<float *>(w->gpuOut);
    for (size_t i = 0; i < kN; ++i) {
        ga[i] = 1.0f;
        gb[i] = float(i);
        go[i] = -1.0f;
    }
    int before = recorder.count;
    GpuLaunch l = gpuAddLaunch();
    ASSERT_NE(gpuLaunchKernel(l.stream, l.kernel, kN, 1, 1, 1, 1, 1, 0, l.params.data(), nullptr),
              nullptr)
        << recorder.last;
    gpuWait(w->gpu);
    ASSERT_EQ(recorder.count, before) << recorder.last;
    for (size_t i = 0; i < kN; ++i)
        ASSERT_EQ(go[i], float(i) + 1.0f) << "gpu* launch, element " << i;
}

// GoogleTest prints a parameter on failure; the name says which case it is.
void PrintTo(const Case &c, std::ostream *os) { *os << c.name; }

class Hostile : public ::testing::TestWithParam<Case> {
protected:
    static void SetUpTestSuite() {
        w = new World;
        buildWorld(*w);
    }
    static void TearDownTestSuite() {
        destroyWorld(*w);
        delete w;
        w = nullptr;
    }
};

TEST_P(Hostile, ReportsTheDocumentedFailureAndLeavesFixturesUsable) {
    const Case &c = GetParam();
    ASSERT_NE(w->gpu, nullptr) << "the fixtures were not built";
    int before = recorder.count;
    Outcome o = c.run();
    if (c.surface == Surface::c_api) {
        EXPECT_EQ(o.status, c.status) << c.call << " returned " << imex_l0_status_str(o.status)
                                      << " instead of " << imex_l0_status_str(c.status)
                                      << "; message: " << o.message;
        EXPECT_NE(o.message.find(c.message), std::string::npos)
            << "message \"" << o.message << "\" does not contain \"" << c.message << "\"";
        EXPECT_EQ(recorder.count, before) << "a C API call reported to the gpu* handler";
    } else {
        EXPECT_EQ(o.reports, 1) << c.call << " reported " << o.reports << " time(s); last: "
                                << o.message;
        EXPECT_TRUE(o.returnedFailureValue) << c.call << " did not return NULL";
        EXPECT_NE(o.message.find(c.message), std::string::npos)
            << "message \"" << o.message << "\" does not contain \"" << c.message << "\"";
    }
    fixturesStillWork();
}

INSTANTIATE_TEST_SUITE_P(Table, Hostile, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case> &info) {
                             return std::string(info.param.name);
                         });

// ------------------------------------------------------------------ Docs

std::string escapeCell(const std::string &text) {
    std::string out;
    for (char ch : text) {
        if (ch == '|')
            out += "\\|";
        else
            out += ch;
    }
    return out;
}

void printMarkdown(std::ostream &os) {
    size_t ncases = cases().size();
    os << "# Hostile inputs\n\n"
          "<!-- Generated by `hostile_test --markdown` from the table in "
          "tests/hostile/hostile_test.cpp;\n"
          "     the test hostile.doc_in_sync fails when this file and the table differ. -->\n\n"
          "What the library does with "
       << ncases
       << " calls a careless or confused caller makes. Every row is a case of\n"
          "`tests/hostile/hostile_test.cpp`: it runs against fixture objects built once (two "
          "engines with\ntheir own contexts, streams, memory objects, kernels, the user's own "
          "events, gpu* streams), must\nreturn the status shown with a message containing the "
          "text shown, must not crash, and is followed\nby a good launch on both the interop "
          "and the gpu* surface. Under AddressSanitizer, UndefinedBehaviorSanitizer and\n"
          "LeakSanitizer (`scripts/sanitize.sh address`) the same run shows that no case leaks "
          "or\nexecutes undefined behaviour.\n\n"
          "C API messages read `<function>: <message>` (`imex_l0_last_error_message()`); gpu* "
          "failures go to\nthe `gpuSetErrorHandler` handler as `<function>: <message>` and the "
          "wrapper returns NULL (or\nnothing).\n\n"
          "Rules the table relies on:\n\n"
          "- **Dangling handles.** Destroying an object clears its magic tag. Passing a handle "
          "of a destroyed\n  object is reported as long as its memory has not been reused; "
          "reading freed memory is undefined\n  behaviour (AddressSanitizer reports it), so the "
          "cases pass a handle to mapped memory whose tag\n  is cleared — exactly what the "
          "library reads for a destroyed object before the memory is reused.\n  The driver's "
          "own tag check is covered the same way through a dependency list.\n"
          "- **Events of another context.** The library cannot tell which context an event "
          "belongs to\n  (Level Zero 1.4 has no query); the driver refuses the append, and the "
          "call returns\n  `imex_l0_runtime_error` naming the Level Zero call and "
          "`ZE_RESULT_ERROR_INVALID_ARGUMENT`.\n  The same holds for a stream over a command "
          "list of another context.\n"
          "- **Engine destruction** with live streams, memory objects or kernels is refused "
          "(`imex_l0_invalid_arguments`);\n  it succeeds once they are destroyed. Events still "
          "handed out are reclaimed with the engine.\n"
          "- **Double release** of an event, or release of an event the engine did not hand "
          "out, is\n  `imex_l0_invalid_arguments`, never a crash.\n"
          "- **Enum values from C.** C lets a caller put any int into an enum parameter or "
          "field; the library\n  reads those as integers before checking them "
          "(`src/common/c_enum.hpp`), so a value outside the\n  enumerators is reported "
          "like any other bad argument.\n\n"
          "| # | case | hostile call | status | message contains |\n"
          "|---|---|---|---|---|\n";
    size_t n = 0;
    for (const Case &c : cases()) {
        os << "| " << ++n << " | `" << c.name << "` | " << escapeCell(c.call) << " | "
           << (c.surface == Surface::gpu ? "handler, returns NULL"
                                         : imex_l0_status_str(c.status))
           << " | " << escapeCell(c.message) << " |\n";
    }
}

} // namespace

int main(int argc, char **argv) {
    for (int i = 1; i < argc; ++i)
        if (std::string(argv[i]) == "--markdown") {
            printMarkdown(std::cout);
            return 0;
        }
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
