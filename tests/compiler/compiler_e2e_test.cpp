// End to end: OpenCL C -> SPIR-V by the compiler -> zeModuleCreate through the
// system Level Zero loader and the project's driver -> launch -> results
// checked against the host. Registered once per compiler back end
// (in-process, and the subprocess oracle): both must compute the same.
#include "compiler_test_util.hpp"

#include <level_zero/ze_api.h>

#include <algorithm>
#include <set>
#include <cmath>
#include <numeric>

using namespace imex_l0_test;

#define ZE_OK(call)                                                                                \
    do {                                                                                           \
        ze_result_t r_ = (call);                                                                   \
        ASSERT_EQ(r_, ZE_RESULT_SUCCESS) << #call << " = 0x" << std::hex << r_;                   \
    } while (0)

namespace {

class OnDriver : public ::testing::Test {
protected:
    void SetUp() override {
        ZE_OK(zeInit(0));
        uint32_t n = 1;
        ZE_OK(zeDriverGet(&n, &driver_));
        n = 1;
        ZE_OK(zeDeviceGet(driver_, &n, &device_));
        ze_context_desc_t cd = {ZE_STRUCTURE_TYPE_CONTEXT_DESC};
        ZE_OK(zeContextCreate(driver_, &cd, &context_));
        ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
        qd.mode = ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
        ZE_OK(zeCommandQueueCreate(context_, device_, &qd, &queue_));
        ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
        ZE_OK(zeCommandListCreate(context_, device_, &ld, &list_));
    }

    void TearDown() override {
        for (void *p : allocations_)
            zeMemFree(context_, p);
        for (auto k : kernels_)
            zeKernelDestroy(k);
        for (auto m : modules_)
            zeModuleDestroy(m);
        if (list_)
            zeCommandListDestroy(list_);
        if (queue_)
            zeCommandQueueDestroy(queue_);
        if (context_)
            zeContextDestroy(context_);
    }

    template <typename T> T *alloc(size_t count) {
        ze_device_mem_alloc_desc_t dd = {ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC};
        ze_host_mem_alloc_desc_t hd = {ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC};
        void *p = nullptr;
        EXPECT_EQ(zeMemAllocShared(context_, &dd, &hd, count * sizeof(T), 64, device_, &p),
                  ZE_RESULT_SUCCESS);
        allocations_.push_back(p);
        return static_cast<T *>(p);
    }

    // Compiles source and creates its kernel; fails the test on any error.
    ze_kernel_handle_t kernel(const std::string &source, const char *name,
                              const char *options = "") {
        Build b = compile(source, options);
        EXPECT_EQ(b.status, imex_l0_success) << b.log;
        if (b.status != imex_l0_success)
            return nullptr;
        ze_module_desc_t md = {ZE_STRUCTURE_TYPE_MODULE_DESC};
        md.format = ZE_MODULE_FORMAT_IL_SPIRV;
        md.inputSize = b.spirv.size();
        md.pInputModule = reinterpret_cast<const uint8_t *>(b.spirv.data());
        ze_module_handle_t module = nullptr;
        ze_result_t r = zeModuleCreate(context_, device_, &md, &module, nullptr);
        EXPECT_EQ(r, ZE_RESULT_SUCCESS) << "zeModuleCreate";
        if (r != ZE_RESULT_SUCCESS)
            return nullptr;
        modules_.push_back(module);
        ze_kernel_desc_t kd = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
        ze_kernel_handle_t k = nullptr;
        EXPECT_EQ(zeKernelCreate(module, &kd, &k), ZE_RESULT_SUCCESS) << name;
        if (k)
            kernels_.push_back(k);
        return k;
    }

    template <typename T> void arg(ze_kernel_handle_t k, uint32_t index, const T &value) {
        ASSERT_EQ(zeKernelSetArgumentValue(k, index, sizeof(T), &value), ZE_RESULT_SUCCESS);
    }
    void localArg(ze_kernel_handle_t k, uint32_t index, size_t bytes) {
        ASSERT_EQ(zeKernelSetArgumentValue(k, index, bytes, nullptr), ZE_RESULT_SUCCESS);
    }

    void run(ze_kernel_handle_t k, uint32_t groups, uint32_t groupSize) {
        ZE_OK(zeKernelSetGroupSize(k, groupSize, 1, 1));
        ze_group_count_t count = {groups, 1, 1};
        ZE_OK(zeCommandListAppendLaunchKernel(list_, k, &count, nullptr, 0, nullptr));
        ZE_OK(zeCommandListClose(list_));
        ZE_OK(zeCommandQueueExecuteCommandLists(queue_, 1, &list_, nullptr));
        ZE_OK(zeCommandQueueSynchronize(queue_, UINT64_MAX));
        ZE_OK(zeCommandListReset(list_));
    }

    ze_driver_handle_t driver_ = nullptr;
    ze_device_handle_t device_ = nullptr;
    ze_context_handle_t context_ = nullptr;
    ze_command_queue_handle_t queue_ = nullptr;
    ze_command_list_handle_t list_ = nullptr;
    std::vector<void *> allocations_;
    std::vector<ze_module_handle_t> modules_;
    std::vector<ze_kernel_handle_t> kernels_;
};

} // namespace

TEST_F(OnDriver, VectorAddWithRegistryHeader) {
    const char *src = R"(
        #include "imex_l0/indexing.h"
        kernel void vadd(global const float *a, global const float *b, global float *c, uint n) {
            IMEX_L0_FOR_EACH_GLOBAL(i, n)
                c[i] = a[i] + b[i];
        })";
    constexpr uint32_t n = 1000;
    float *a = alloc<float>(n), *b = alloc<float>(n), *c = alloc<float>(n);
    for (uint32_t i = 0; i < n; ++i) {
        a[i] = float(i);
        b[i] = 0.5f * float(i);
        c[i] = -1;
    }
    ze_kernel_handle_t k = kernel(src, "vadd");
    ASSERT_NE(k, nullptr);
    arg(k, 0, a);
    arg(k, 1, b);
    arg(k, 2, c);
    arg(k, 3, n);
    run(k, 4, 64); // 256 work-items, grid-stride over 1000
    for (uint32_t i = 0; i < n; ++i)
        ASSERT_FLOAT_EQ(c[i], 1.5f * float(i)) << i;
}

TEST_F(OnDriver, LocalMemoryReduction) {
    const char *src = R"(
        kernel void reduce(global const float *in, global float *out, local float *scratch) {
            size_t lid = get_local_id(0);
            scratch[lid] = in[get_global_id(0)];
            for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
                barrier(CLK_LOCAL_MEM_FENCE);
                if (lid < s)
                    scratch[lid] += scratch[lid + s];
            }
            if (lid == 0)
                out[get_group_id(0)] = scratch[0];
        })";
    constexpr uint32_t groups = 8, size = 64;
    float *in = alloc<float>(groups * size), *out = alloc<float>(groups);
    for (uint32_t i = 0; i < groups * size; ++i)
        in[i] = float(i % 17);
    ze_kernel_handle_t k = kernel(src, "reduce");
    ASSERT_NE(k, nullptr);
    arg(k, 0, in);
    arg(k, 1, out);
    localArg(k, 2, size * sizeof(float));
    run(k, groups, size);
    for (uint32_t g = 0; g < groups; ++g) {
        float expect = 0;
        for (uint32_t i = 0; i < size; ++i)
            expect += in[g * size + i];
        EXPECT_FLOAT_EQ(out[g], expect) << g;
    }
}

TEST_F(OnDriver, Atomics) {
    const char *src = R"(
        kernel void histogram(global const uint *in, volatile global uint *bins) {
            uint v = in[get_global_id(0)];
            atomic_inc(&bins[v % 16]);
            atomic_max(&bins[16], v);
            atomic_add(&bins[17], v);
        })";
    constexpr uint32_t n = 512;
    uint32_t *in = alloc<uint32_t>(n), *bins = alloc<uint32_t>(18);
    for (uint32_t i = 0; i < n; ++i)
        in[i] = (i * 7919u) % 1000u;
    std::fill(bins, bins + 18, 0u);
    ze_kernel_handle_t k = kernel(src, "histogram");
    ASSERT_NE(k, nullptr);
    arg(k, 0, in);
    arg(k, 1, bins);
    run(k, n / 64, 64);
    uint32_t expect[18] = {};
    for (uint32_t i = 0; i < n; ++i) {
        expect[in[i] % 16]++;
        expect[16] = std::max(expect[16], in[i]);
        expect[17] += in[i];
    }
    for (int i = 0; i < 18; ++i)
        EXPECT_EQ(bins[i], expect[i]) << i;
}

// Helpers that take the memory order and scope as parameters: inlined at
// every level so that the translator sees the caller's constants.
TEST_F(OnDriver, AtomicHelpersTakingTheMemoryOrder) {
    const char *src = R"(
        int add(volatile global atomic_int *a, int v, memory_order o, memory_scope s) {
            return atomic_fetch_add_explicit(a, v, o, s);
        }
        int add_relaxed(volatile global atomic_int *a, int v, memory_scope s) {
            return add(a, v, memory_order_relaxed, s);
        }
        kernel void count(volatile global atomic_int *counters, global int *seen) {
            int i = get_global_id(0);
            seen[i] = add(&counters[0], i + 1, memory_order_acq_rel, memory_scope_device);
            add_relaxed(&counters[1], 1, memory_scope_device);
        })";
    if (subprocessMode())
        GTEST_SKIP() << "the naive oracle does not inline the helpers";
    constexpr uint32_t n = 256;
    for (const char *options : {"-cl-std=CL2.0 -O0", "-cl-std=CL2.0", "-cl-std=CL2.0 -O3"}) {
        SCOPED_TRACE(options);
        int32_t *counters = alloc<int32_t>(2), *seen = alloc<int32_t>(n);
        counters[0] = counters[1] = 0;
        ze_kernel_handle_t k = kernel(src, "count", options);
        ASSERT_NE(k, nullptr);
        arg(k, 0, counters);
        arg(k, 1, seen);
        run(k, n / 64, 64);
        EXPECT_EQ(counters[0], int32_t(n * (n + 1) / 2));
        EXPECT_EQ(counters[1], int32_t(n));
        // Each work-item added a positive amount, so each saw a distinct partial
        // sum, smaller than the total.
        std::set<int32_t> distinct(seen, seen + n);
        EXPECT_EQ(distinct.size(), size_t(n));
        EXPECT_LT(*std::max_element(seen, seen + n), counters[0]);
    }
}

TEST_F(OnDriver, DefinesVectorsAndDivisionRemainder) {
    // i % w and i / w on the same operands: clang -O2 emits freeze here.
    const char *src = R"(
        kernel void k(global int4 *o, int w) {
            int i = get_global_id(0);
            o[i] = (int4)(i % w, i / w, SCALE * i, (i % w) * 100 + i / w);
        })";
    if (subprocessMode())
        GTEST_SKIP() << "freeze: translator 15 defect the naive oracle does not legalise";
    constexpr uint32_t n = 128;
    int32_t *o = alloc<int32_t>(4 * n);
    ze_kernel_handle_t k = kernel(src, "k", "-DSCALE=3");
    ASSERT_NE(k, nullptr);
    arg(k, 0, o);
    arg(k, 1, int32_t(7));
    run(k, n / 32, 32);
    for (int32_t i = 0; i < int32_t(n); ++i) {
        EXPECT_EQ(o[4 * i + 0], i % 7);
        EXPECT_EQ(o[4 * i + 1], i / 7);
        EXPECT_EQ(o[4 * i + 2], 3 * i);
        EXPECT_EQ(o[4 * i + 3], (i % 7) * 100 + i / 7);
    }
}

// C99 `inline` without `static`: an inline definition and no external one.
// Without optimisation nothing inlines the helper, so its calls stay calls.
TEST_F(OnDriver, C99InlineHelpersAreDefinedInTheProgram) {
    const char *src = R"(
        inline float axpy(float a, float x, float y) { return a * x + y; }
        inline int twice(int v) { return 2 * v; }
        kernel void k(global float *o, global const float *x, float a) {
            size_t i = get_global_id(0);
            o[i] = axpy(a, x[i], (float)twice((int)i));
        })";
    if (subprocessMode())
        GTEST_SKIP() << "the naive pipeline leaves C99 inline helpers undefined";
    constexpr uint32_t n = 64;
    for (const char *options : {"", "-cl-opt-disable"}) {
        SCOPED_TRACE(options);
        float *o = alloc<float>(n);
        float *x = alloc<float>(n);
        for (uint32_t i = 0; i < n; ++i)
            x[i] = 0.5f * float(i) - 3.0f;
        ze_kernel_handle_t k = kernel(src, "k", options);
        ASSERT_NE(k, nullptr);
        arg(k, 0, o);
        arg(k, 1, x);
        arg(k, 2, 1.5f);
        run(k, 2, n / 2);
        for (uint32_t i = 0; i < n; ++i)
            EXPECT_FLOAT_EQ(o[i], 1.5f * x[i] + float(2 * i)) << i;
    }
}

// OpenCL C 2.0: builtins called on unqualified (generic) pointers. The
// driver's OpenCL library has only the named address-space overloads.
TEST_F(OnDriver, BuiltinsOnGenericPointers) {
    const char *src = R"(
        float3 load3(const float *p) { return vload3(0, p); }
        void store3(float3 v, float *p) { vstore3(v, 0, p); }
        kernel void k(global float *o, global const float *in) {
            size_t i = get_global_id(0);
            float c, whole;
            float s = sincos(in[i], &c);
            float part = fract(in[i] * 7.0f, &whole);
            float f[3] = {in[i], 2.0f * in[i], 3.0f};
            float g[3];
            store3(load3(f), g);
            o[i] = s * 10.0f + c + g[0] + g[1] + g[2] + part + whole * 100.0f;
        })";
    constexpr uint32_t n = 64;
    float *o = alloc<float>(n);
    float *in = alloc<float>(n);
    for (uint32_t i = 0; i < n; ++i)
        in[i] = 0.05f * float(i);
    ze_kernel_handle_t k = kernel(src, "k", "-cl-std=CL2.0");
    ASSERT_NE(k, nullptr);
    arg(k, 0, o);
    arg(k, 1, in);
    run(k, 4, n / 4);
    for (uint32_t i = 0; i < n; ++i) {
        const float x = in[i];
        const float whole = std::floor(x * 7.0f);
        const float expected = std::sin(x) * 10.0f + std::cos(x) + x + 2.0f * x + 3.0f +
                               (x * 7.0f - whole) + whole * 100.0f;
        EXPECT_NEAR(o[i], expected, 1e-3f) << i;
    }
}

// The driver reports sub-groups of one work-item; the sub-group builtins
// must give the answers of that size.
TEST_F(OnDriver, SubGroupBuiltinsFollowTheReportedSize) {
    ze_device_properties_t props = {ZE_STRUCTURE_TYPE_DEVICE_PROPERTIES};
    ZE_OK(zeDeviceGetProperties(device_, &props));
    ze_device_compute_properties_t compute = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ZE_OK(zeDeviceGetComputeProperties(device_, &compute));
    ASSERT_EQ(compute.numSubGroupSizes, 1u);
    ASSERT_EQ(compute.subGroupSizes[0], 1u) << "this test checks sub-groups of one work-item";
    const char *src = R"(
        kernel void k(global int *o, global const int *in) {
            size_t i = get_global_id(0);
            int x = in[i];
            sub_group_barrier(CLK_LOCAL_MEM_FENCE);
            global int *r = o + 12 * i;
            r[0] = get_sub_group_size();
            r[1] = get_max_sub_group_size();
            r[2] = get_num_sub_groups();
            r[3] = get_sub_group_id();
            r[4] = get_sub_group_local_id();
            r[5] = sub_group_reduce_add(x);
            r[6] = sub_group_scan_exclusive_add(x);
            r[7] = sub_group_scan_exclusive_min(x);
            r[8] = sub_group_scan_inclusive_max(x);
            r[9] = sub_group_broadcast(x, 0);
            r[10] = sub_group_all(x > 3);
            r[11] = sub_group_any(x > 3);
        })";
    constexpr uint32_t n = 64, groupSize = 8;
    int32_t *o = alloc<int32_t>(12 * n);
    int32_t *in = alloc<int32_t>(n);
    for (uint32_t i = 0; i < n; ++i)
        in[i] = int32_t(i % 7);
    ze_kernel_handle_t k = kernel(src, "k", "-cl-std=CL2.0");
    ASSERT_NE(k, nullptr);
    arg(k, 0, o);
    arg(k, 1, in);
    run(k, n / groupSize, groupSize);
    for (uint32_t i = 0; i < n; ++i) {
        const int32_t *r = o + 12 * i;
        const int32_t x = in[i];
        const int32_t expected[12] = {1, 1, int32_t(groupSize), int32_t(i % groupSize), 0, x, 0,
                                      INT32_MAX, x, x, x > 3, x > 3};
        for (int j = 0; j < 12; ++j)
            EXPECT_EQ(r[j], expected[j]) << "work-item " << i << ", value " << j;
    }
}

// Intel's shuffles (declared by the full header only) on the same
// one-work-item sub-groups.
TEST_F(OnDriver, IntelShufflesOnOneWorkItemSubGroups) {
    const char *src = R"(
        kernel void k(global int *o, global const int *in) {
            size_t i = get_global_id(0);
            int x = in[i];
            global int *r = o + 5 * i;
            r[0] = intel_sub_group_shuffle(x, 0u);
            r[1] = intel_sub_group_shuffle_xor(x, 0u);
            r[2] = intel_sub_group_shuffle_down(x, x + 100, 0u);
            r[3] = intel_sub_group_shuffle_down(x, x + 100, 1u);
            r[4] = intel_sub_group_shuffle_up(x - 100, x, 1u);
        })";
    if (subprocessMode())
        GTEST_SKIP() << "the naive pipeline does not declare Intel's sub-group builtins";
    constexpr uint32_t n = 32;
    int32_t *o = alloc<int32_t>(5 * n);
    int32_t *in = alloc<int32_t>(n);
    for (uint32_t i = 0; i < n; ++i)
        in[i] = int32_t(3 * i + 1);
    ze_kernel_handle_t k = kernel(src, "k");
    ASSERT_NE(k, nullptr);
    arg(k, 0, o);
    arg(k, 1, in);
    run(k, 4, n / 4);
    for (uint32_t i = 0; i < n; ++i) {
        const int32_t x = in[i];
        const int32_t expected[5] = {x, x, x, x + 100, x - 100};
        for (int j = 0; j < 5; ++j)
            EXPECT_EQ(o[5 * i + j], expected[j]) << "work-item " << i << ", value " << j;
    }
}

// cl_intel_subgroups(_short)'s collectives and block accesses of global
// memory, written for any sub-group size S (work-item l of a sub-group moves
// element k from or to base[k * S + l]) and run where S is 1.
TEST_F(OnDriver, IntelSubGroupCollectivesAndBlockAccesses) {
    const char *src = R"(
        kernel void k(global uint *o, global const uint *in, global ushort *w) {
            size_t i = get_global_id(0);
            size_t S = get_max_sub_group_size();
            size_t group = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
            uint2 v = intel_sub_group_block_read2(in + group * S * 2);
            ushort s = (ushort)in[i];
            global uint *r = o + 6 * i;
            r[0] = v.x;
            r[1] = v.y;
            r[2] = intel_sub_group_broadcast(s, 0u);
            r[3] = intel_sub_group_reduce_add(s);
            r[4] = intel_sub_group_scan_exclusive_min(s);
            r[5] = intel_sub_group_scan_inclusive_max(s);
            intel_sub_group_block_write_us2(w + group * S * 2, (ushort2)(s, s + 1));
        })";
    if (subprocessMode())
        GTEST_SKIP() << "the naive pipeline does not declare Intel's sub-group builtins";
    constexpr uint32_t n = 32;
    uint32_t *o = alloc<uint32_t>(6 * n);
    uint32_t *in = alloc<uint32_t>(2 * n);
    uint16_t *w = alloc<uint16_t>(2 * n);
    for (uint32_t i = 0; i < 2 * n; ++i)
        in[i] = 7 * i + 3;
    ze_kernel_handle_t k = kernel(src, "k");
    ASSERT_NE(k, nullptr);
    arg(k, 0, o);
    arg(k, 1, in);
    arg(k, 2, w);
    run(k, 4, n / 4);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t s = uint16_t(in[i]);
        const uint32_t expected[6] = {in[2 * i], in[2 * i + 1], s, s, 0xffff, s};
        for (int j = 0; j < 6; ++j)
            EXPECT_EQ(o[6 * i + j], expected[j]) << "work-item " << i << ", value " << j;
        EXPECT_EQ(w[2 * i], s) << i;
        EXPECT_EQ(w[2 * i + 1], uint16_t(s + 1)) << i;
    }
}

// OpenCL C 2.0's work-group collectives, several in one kernel (each reuses
// the work-group's scratch memory after the one before), on groups of 64
// work-items, against the host's computation of each group.
TEST_F(OnDriver, WorkGroupCollectives) {
    const char *src = R"(
        kernel void k(global int *o, global const int *in, global const float *f) {
            size_t i = get_global_id(0);
            int x = in[i];
            global int *r = o + 9 * i;
            r[0] = work_group_reduce_add(x);
            r[1] = work_group_scan_inclusive_add(x);
            r[2] = work_group_scan_exclusive_max(x);
            r[3] = (int)work_group_reduce_min((uint)x);
            r[4] = work_group_broadcast(x, 5);
            r[5] = work_group_all(x > 0);
            r[6] = work_group_any(x > 90);
            r[7] = (int)work_group_reduce_max(f[i]);
            r[8] = (int)work_group_scan_exclusive_add((long)x * 1000000000L / 1000000000L);
        })";
    constexpr uint32_t groups = 4, size = 64, n = groups * size;
    int32_t *o = alloc<int32_t>(9 * n);
    int32_t *in = alloc<int32_t>(n);
    float *f = alloc<float>(n);
    for (uint32_t i = 0; i < n; ++i) {
        in[i] = int32_t((i * 37) % 101) - (i == 70 ? 200 : 0); // group 1 has a negative
        f[i] = float((i * 13) % 50) + 0.5f;
    }
    ze_kernel_handle_t k = kernel(src, "k", "-cl-std=CL2.0");
    ASSERT_NE(k, nullptr);
    arg(k, 0, o);
    arg(k, 1, in);
    arg(k, 2, f);
    run(k, groups, size);
    for (uint32_t g = 0; g < groups; ++g) {
        const int32_t *x = in + g * size;
        int32_t sum = 0, minU = -1, all = 1, any = 0;
        float maxF = -1e30f;
        for (uint32_t j = 0; j < size; ++j) {
            sum += x[j];
            minU = int32_t(std::min(uint32_t(minU), uint32_t(x[j])));
            all &= x[j] > 0;
            any |= x[j] > 90;
            maxF = std::max(maxF, f[g * size + j]);
        }
        int32_t inclusive = 0, exclusiveMax = INT32_MIN, exclusiveSum = 0;
        for (uint32_t j = 0; j < size; ++j) {
            inclusive += x[j];
            const int32_t *r = o + 9 * (g * size + j);
            const int32_t expected[9] = {sum,  inclusive, exclusiveMax, minU, x[5],
                                         all, any,       int32_t(maxF), exclusiveSum};
            for (int v = 0; v < 9; ++v)
                EXPECT_EQ(r[v], expected[v]) << "group " << g << ", item " << j << ", value " << v;
            exclusiveMax = std::max(exclusiveMax, x[j]);
            exclusiveSum += x[j];
        }
    }
}

// cl_khr_extended_bit_ops' bitfield operations, which the driver defines,
// on scalars and vectors, at the edges (count 0, the full width).
TEST_F(OnDriver, BitfieldOperations) {
    const char *src = R"(
        kernel void k(global uint *o, global const uint *in) {
            size_t i = get_global_id(0);
            uint x = in[i];
            uint offset = i % 8, count = (i * 5) % 25;
            global uint *r = o + 6 * i;
            r[0] = bitfield_insert(x, 0x5a5a5a5au, offset, count);
            r[1] = (uint)bitfield_extract_signed(x, offset, count);
            r[2] = bitfield_extract_unsigned(x, offset, count);
            r[3] = bitfield_insert(x, ~x, 0u, 32u);
            r[4] = (uint)bitfield_extract_signed((char)x, 1u, 3u);
            uint2 v = bitfield_extract_unsigned((uint2)(x, ~x), 4u, 8u);
            r[5] = v.x | (v.y << 8);
        })";
    constexpr uint32_t n = 64;
    uint32_t *o = alloc<uint32_t>(6 * n);
    uint32_t *in = alloc<uint32_t>(n);
    for (uint32_t i = 0; i < n; ++i)
        in[i] = 0x9e3779b9u * (i + 1);
    ze_kernel_handle_t k = kernel(src, "k", "-cl-std=CL3.0");
    ASSERT_NE(k, nullptr);
    arg(k, 0, o);
    arg(k, 1, in);
    run(k, 1, n);
    auto mask = [](uint32_t count) { return count == 0 ? 0u : ~0u >> (32 - count); };
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t x = in[i], offset = i % 8, count = (i * 5) % 25;
        const uint32_t field = (x >> offset) & mask(count);
        const uint32_t sign = count != 0 && (field >> (count - 1)) & 1 ? ~mask(count) : 0u;
        const int8_t c = int8_t(x);
        const int32_t c3 = ((c >> 1) & 4) ? int32_t((c >> 1) & 7) - 8 : (c >> 1) & 7;
        const uint32_t expected[6] = {
            (x & ~(mask(count) << offset)) | ((0x5a5a5a5au & mask(count)) << offset),
            field | sign,
            field,
            ~x,
            uint32_t(c3),
            ((x >> 4) & 0xff) | (((~x >> 4) & 0xff) << 8)};
        for (int v = 0; v < 6; ++v)
            EXPECT_EQ(o[6 * i + v], expected[v]) << "work-item " << i << ", value " << v;
    }
}

// Clang makes `long long` 128 bits wide on SPIR, so an ULL literal makes the
// arithmetic around it i128, which SPIR-V cannot hold; kernels written where
// it is 64 bits (hash kernels: `(i + 16) * 0x0555...ULL` stored into a ulong)
// compute in 64 bits what they truncate to 64 bits. A wide division keeps
// its high bits and is refused by name.
TEST_F(OnDriver, LongLongLiteralArithmeticTruncatedToUlong) {
    const char *src = R"(
        #define C64(x) x##ULL
        kernel void k(global ulong *o, global const ulong *in, int n) {
            int i = get_global_id(0);
            ulong x = in[i];
            o[3 * i] = (i + 16) * C64(0x0555555555555555) + x;
            o[3 * i + 1] = ((x * C64(3) - (C64(1) << 40)) ^ (x << 7)) | (i & 1 ? C64(5) : x);
            ulong acc = 0;
            for (int j = 0; j < 4; ++j)
                acc = acc * C64(31) + in[(i + j) % n];
            o[3 * i + 2] = acc;
        })";
    constexpr int32_t n = 64;
    uint64_t *o = alloc<uint64_t>(3 * n);
    uint64_t *in = alloc<uint64_t>(n);
    for (int32_t i = 0; i < n; ++i)
        in[i] = 0x9e3779b97f4a7c15ull * uint64_t(i + 1);
    ze_kernel_handle_t k = kernel(src, "k");
    ASSERT_NE(k, nullptr);
    arg(k, 0, o);
    arg(k, 1, in);
    arg(k, 2, n);
    run(k, 1, n);
    for (int32_t i = 0; i < n; ++i) {
        const uint64_t x = in[i];
        uint64_t acc = 0;
        for (int j = 0; j < 4; ++j)
            acc = acc * 31 + in[(i + j) % n];
        EXPECT_EQ(o[3 * i], uint64_t(i + 16) * 0x0555555555555555ull + x) << i;
        EXPECT_EQ(o[3 * i + 1],
                  ((x * 3 - (1ull << 40)) ^ (x << 7)) | (i & 1 ? 5ull : x)) << i;
        EXPECT_EQ(o[3 * i + 2], acc) << i;
    }

    Build refused = compile(R"(
        kernel void k(global ulong *o) { o[0] = o[1] * 3ULL / 7ULL; })");
    EXPECT_NE(refused.status, imex_l0_success);
    if (!subprocessMode()) // the naive oracle's refusal is the translator's own message
        EXPECT_NE(refused.log.find("an integer wider than 64 bits"), std::string::npos)
            << refused.log;
}

TEST_F(OnDriver, StructByValueAndClStd20) {
    const char *src = R"(
        typedef struct { float scale; int offset; } params_t;
        float twice(float *p) { return 2 * *p; } // generic address space
        kernel void k(global float *o, params_t p) {
            size_t i = get_global_id(0);
            float x = (float)i;
            o[i] = twice(&x) * p.scale + p.offset;
        })";
    struct { float scale; int32_t offset; } params = {0.25f, 10};
    constexpr uint32_t n = 64;
    float *o = alloc<float>(n);
    ze_kernel_handle_t k = kernel(src, "k", "-cl-std=CL2.0");
    ASSERT_NE(k, nullptr);
    arg(k, 0, o);
    arg(k, 1, params);
    run(k, 1, n);
    for (uint32_t i = 0; i < n; ++i)
        EXPECT_FLOAT_EQ(o[i], 2.0f * float(i) * 0.25f + 10.0f) << i;
}

// OpenCL C leaves x / 0 and x % 0 unspecified (and INT_MIN / -1 overflows):
// a kernel that divides by a zero it reads at run time gets some value,
// never a trap that ends the host process (a CPU's divide instruction
// traps).
TEST_F(OnDriver, IntegerDivisionByZeroDoesNotTrap) {
    const char *src = R"(
        kernel void divide(global int *q, global int *r, global uint *uq, global const int *d) {
            size_t i = get_global_id(0);
            int x = (int)i - 2;
            q[i] = x / d[i];
            r[i] = (x - 2147483646) % d[i];
            uq[i] = (uint)i / (uint)d[i];
        }
        kernel void divide_vectors(global int4 *q, global const int4 *d) {
            size_t i = get_global_id(0);
            q[i] = (int4)(7, -7, (int)0x80000000, 9) / d[i];
        })";
    constexpr uint32_t n = 4;
    int *q = alloc<int>(n), *r = alloc<int>(n), *d = alloc<int>(n);
    uint32_t *uq = alloc<uint32_t>(n);
    const int divisors[n] = {0, 3, -1, 0};
    for (uint32_t i = 0; i < n; ++i)
        d[i] = divisors[i];
    ze_kernel_handle_t k = kernel(src, "divide");
    ASSERT_NE(k, nullptr);
    arg(k, 0, q);
    arg(k, 1, r);
    arg(k, 2, uq);
    arg(k, 3, d);
    run(k, 1, n);
    // Defined results are right; the unspecified ones did not end the process.
    EXPECT_EQ(q[1], -1 / 3);
    EXPECT_EQ(q[2], 0);
    EXPECT_EQ(r[1], (-1 - 2147483646) % 3);
    EXPECT_EQ(uq[1], 1u / 3u);
    int32_t *vq = alloc<int32_t>(8), *vd = alloc<int32_t>(8);
    const int vdivisors[8] = {0, -1, -1, 3, 1, 0, 2, 0};
    for (int i = 0; i < 8; ++i)
        vd[i] = vdivisors[i];
    ze_kernel_handle_t kv = kernel(src, "divide_vectors");
    ASSERT_NE(kv, nullptr);
    arg(kv, 0, vq);
    arg(kv, 1, vd);
    run(kv, 1, 2);
    EXPECT_EQ(vq[1], 7);
    EXPECT_EQ(vq[3], 3);
    EXPECT_EQ(vq[4], 7);
    EXPECT_EQ(vq[6], int(0x80000000) / 2);
}

// OpenCL C has no recursion; a device that cannot run it must refuse it when
// the module is created, naming the functions, not crash at the launch.
TEST_F(OnDriver, RecursionIsRefusedAtModuleCreation) {
    const char *src = R"(
        int odd(int n);
        int even(int n) { return n == 0 ? 1 : odd(n - 1); }
        int odd(int n) { return n == 0 ? 0 : even(n - 1); }
        kernel void parity(global int *out, int n) { out[0] = even(n); })";
    Build b = compile(src, "-O0");
    ASSERT_EQ(b.status, imex_l0_success) << b.log;
    ze_module_desc_t md = {ZE_STRUCTURE_TYPE_MODULE_DESC};
    md.format = ZE_MODULE_FORMAT_IL_SPIRV;
    md.inputSize = b.spirv.size();
    md.pInputModule = reinterpret_cast<const uint8_t *>(b.spirv.data());
    ze_module_handle_t module = nullptr;
    ze_module_build_log_handle_t log = nullptr;
    // Loader 1.8.12 in intercept mode hands back the driver's raw log handle
    // of a failed build, unusable through the loader: no log is asked for.
    const char *intercept = std::getenv("ZE_ENABLE_LOADER_INTERCEPT");
    const bool logReadable = !intercept || std::string(intercept) != "1";
    EXPECT_EQ(zeModuleCreate(context_, device_, &md, &module, logReadable ? &log : nullptr),
              ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    if (!logReadable)
        return;
    size_t size = 0;
    ASSERT_EQ(zeModuleBuildLogGetString(log, &size, nullptr), ZE_RESULT_SUCCESS);
    std::string text(size, '\0');
    ASSERT_EQ(zeModuleBuildLogGetString(log, &size, text.data()), ZE_RESULT_SUCCESS);
    zeModuleBuildLogDestroy(log);
    EXPECT_NE(text.find("recursion"), std::string::npos) << text;
    EXPECT_NE(text.find("even"), std::string::npos) << text;
    EXPECT_NE(text.find("odd"), std::string::npos) << text;
}

// Builtins PoCL's kernel library lacks for SPIR input (it expands them from
// its own headers when it compiles source): fences, wait_group_events after
// an async copy, and the reduced-precision half_ math functions, computed
// and checked.
TEST_F(OnDriver, FencesAsyncCopiesAndHalfPrecisionMath) {
    const char *src = R"(
        kernel void fences(global int *o) {
            o[get_global_id(0)] = 1;
            mem_fence(CLK_GLOBAL_MEM_FENCE);
            read_mem_fence(CLK_LOCAL_MEM_FENCE);
            write_mem_fence(CLK_GLOBAL_MEM_FENCE);
            o[get_global_id(0)] += 1;
        }
        kernel void staged(global const int *in, global int *out, local int *tmp) {
            event_t e = async_work_group_copy(tmp, in + get_group_id(0) * 16, 16, 0);
            wait_group_events(1, &e);
            size_t l = get_local_id(0);
            out[get_global_id(0)] = tmp[15 - l];
        }
        kernel void halves(global const float *x, global float *o) {
            float v = x[0];
            float4 w = (float4)(v, v + 1.0f, v + 2.0f, v + 3.0f);
            o[0] = half_exp(v);
            o[1] = half_sqrt(v);
            o[2] = half_divide(v, 3.0f);
            o[3] = half_recip(v);
            o[4] = half_log(v);
            o[5] = half_powr(v, 2.0f);
            o[6] = half_rsqrt(v);
            o[7] = half_sin(v) + half_cos(v) + half_tan(v);
            o[8] = half_exp2(v) + half_exp10(v) + half_log2(v) + half_log10(v);
            float4 e = half_exp(w);
            o[9] = e.x + e.y + e.z + e.w;
        })";
    int *o = alloc<int>(64);
    ze_kernel_handle_t fences = kernel(src, "fences");
    ASSERT_NE(fences, nullptr);
    arg(fences, 0, o);
    run(fences, 1, 64);
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(o[i], 2) << i;

    constexpr uint32_t groups = 4;
    int *in = alloc<int>(groups * 16), *out = alloc<int>(groups * 16);
    for (uint32_t i = 0; i < groups * 16; ++i)
        in[i] = int(i * 3);
    ze_kernel_handle_t staged = kernel(src, "staged");
    ASSERT_NE(staged, nullptr);
    arg(staged, 0, in);
    arg(staged, 1, out);
    localArg(staged, 2, 16 * sizeof(int));
    run(staged, groups, 16);
    for (uint32_t g = 0; g < groups; ++g)
        for (uint32_t l = 0; l < 16; ++l)
            ASSERT_EQ(out[g * 16 + l], in[g * 16 + 15 - l]) << g << "," << l;

    float *x = alloc<float>(1), *h = alloc<float>(10);
    const float v = 0.75f;
    x[0] = v;
    ze_kernel_handle_t halves = kernel(src, "halves");
    ASSERT_NE(halves, nullptr);
    arg(halves, 0, x);
    arg(halves, 1, h);
    run(halves, 1, 1);
    // half_ functions promise about 2^-11 relative error: full precision is within it.
    const float expected[10] = {
        std::exp(v),  std::sqrt(v),    v / 3.0f,
        1.0f / v,     std::log(v),     std::pow(v, 2.0f),
        1.0f / std::sqrt(v),           std::sin(v) + std::cos(v) + std::tan(v),
        std::exp2(v) + std::pow(10.0f, v) + std::log2(v) + std::log10(v),
        std::exp(v) + std::exp(v + 1) + std::exp(v + 2) + std::exp(v + 3)};
    for (int i = 0; i < 10; ++i)
        EXPECT_NEAR(h[i], expected[i], std::fabs(expected[i]) * 1e-3f + 1e-3f) << "output " << i;
}
