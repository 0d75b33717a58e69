// Modules and kernels: SPIR-V and native-binary modules, build failures and
// logs, kernel introspection, argument kinds (pointers, local memory,
// scalars, structs), multi-dimensional launches with global offsets, and the
// error paths of argument setting and launching.
#include "ze_test_common.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <future>
#include <numeric>
#include <set>
#include <thread>

namespace zetest {
namespace {

class ModuleTest : public WithImmediateList {
  protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(WithImmediateList::SetUp());
        ASSERT_NO_FATAL_FAILURE(loadModule(basic_, "basic"));
    }
    void TearDown() override {
        basic_.reset();
        WithImmediateList::TearDown();
    }

    Module basic_;
};

// ---------------------------------------------------------------------------
// Computing kernels

TEST_F(ModuleTest, VectorAddWithSeveralGroupSizes) {
    for (uint32_t groupSize : {1u, 2u, 8u, 16u, 64u})
        ASSERT_NO_FATAL_FAILURE(checkVectorAdd(basic_, groupSize, 1024));
}

// A tree reduction in local memory: wrong local size, missing barriers or a
// local buffer shared between groups all change the partial sums.
TEST_F(ModuleTest, ReductionWithLocalMemoryAndBarriers) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "reduce"));
    for (uint32_t groupSize : {16u, 64u, 128u}) {
        constexpr uint32_t groups = 37;
        const uint32_t n = groups * groupSize;
        Kernel kernel;
        ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "reduce_sum", groupSize));
        UsmBuffer<int> in, partial;
        allocate(in, UsmKind::Shared, n);
        allocate(partial, UsmKind::Shared, groups);
        for (uint32_t i = 0; i < n; ++i)
            in[i] = testValue(i, static_cast<int>(groupSize));
        std::fill(partial.data(), partial.data() + groups, 0);
        ASSERT_ZE_SUCCESS(
            setArgs(kernel, {usm(in), usm(partial), localBytes(groupSize * sizeof(int))}));
        ASSERT_ZE_SUCCESS(launch(list_, kernel, {groups, 1, 1}));
        ASSERT_NO_FATAL_FAILURE(sync());
        for (uint32_t g = 0; g < groups; ++g) {
            const int expected =
                std::accumulate(in.data() + g * groupSize, in.data() + (g + 1) * groupSize, 0);
            ASSERT_EQ(partial[g], expected) << "group size " << groupSize << " group " << g;
        }
    }
}

// The uniform group arithmetic of SPV_KHR_uniform_group_instructions
// (cl_khr_work_group_uniform_arithmetic's names once translated), which the
// driver defines for both backends: every result of every work-item against
// the host's, one kernel per function. Groups: all non-zero, one zero, all
// zero, mixed.
TEST_F(ModuleTest, WorkGroupUniformArithmetic) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "uniform_arithmetic"));
    constexpr uint32_t group = 16, groups = 4, n = group * groups;
    UsmBuffer<int> in, out;
    allocate(in, UsmKind::Shared, n);
    allocate(out, UsmKind::Shared, n);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t g = i / group, j = i % group;
        const int value = int(3 * j + 1) * (j % 2 ? -1 : 1); // non-zero, both signs
        in[i] = g == 0 ? value : g == 1 ? (j == 5 ? 0 : value) : g == 2 ? 0 : int(j % 3);
    }
    // Each function as the host computes it for work-item j of a group's
    // values v: int arithmetic wraps, so products are computed unsigned.
    using Expected = std::function<int(const int *v, uint32_t j)>;
    auto fold = [](int identity, auto op, bool inclusive) {
        return [=](const int *v, uint32_t j) {
            const uint32_t last = inclusive ? j + 1 : j;
            int result = identity;
            for (uint32_t k = 0; k < last; ++k)
                result = op(result, v[k]);
            return result;
        };
    };
    auto reduce = [&](int identity, auto op) {
        auto whole = fold(identity, op, true);
        return [=](const int *v, uint32_t) { return whole(v, group - 1); };
    };
    auto mul = [](int a, int b) { return int(uint32_t(a) * uint32_t(b)); };
    auto bitAnd = [](int a, int b) { return a & b; };
    auto bitOr = [](int a, int b) { return a | b; };
    auto bitXor = [](int a, int b) { return a ^ b; };
    auto logicalAnd = [](int a, int b) { return int(a != 0 && b != 0); };
    auto logicalOr = [](int a, int b) { return int(a != 0 || b != 0); };
    auto logicalXor = [](int a, int b) { return int((a != 0) != (b != 0)); };
    const std::pair<const char *, Expected> functions[] = {
        {"work_group_reduce_mul_kernel", reduce(1, mul)},
        {"work_group_reduce_bitwise_and_kernel", reduce(-1, bitAnd)},
        {"work_group_reduce_bitwise_or_kernel", reduce(0, bitOr)},
        {"work_group_reduce_bitwise_xor_kernel", reduce(0, bitXor)},
        {"work_group_reduce_logical_and_kernel", reduce(1, logicalAnd)},
        {"work_group_reduce_logical_or_kernel", reduce(0, logicalOr)},
        {"work_group_reduce_logical_xor_kernel", reduce(0, logicalXor)},
        {"work_group_scan_inclusive_mul_kernel", fold(1, mul, true)},
        {"work_group_scan_exclusive_bitwise_xor_kernel", fold(0, bitXor, false)},
        {"work_group_scan_inclusive_logical_or_kernel", fold(0, logicalOr, true)},
    };
    for (const auto &[name, expected] : functions) {
        Kernel kernel;
        ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, name, group));
        std::fill(out.data(), out.data() + n, 12345);
        ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(in), usm(out)}));
        ASSERT_ZE_SUCCESS(launch(list_, kernel, {groups, 1, 1}));
        ASSERT_NO_FATAL_FAILURE(sync());
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(out[i], expected(in.data() + i / group * group, i % group))
                << name << ", work-item " << i % group << " of group " << i / group;
    }
}

// PoCL aborts the process when a launch asks for more local memory than the
// device has; the driver refuses such an argument instead, and the process
// goes on to run the kernel with a size that fits.
TEST_F(ModuleTest, LocalMemoryBeyondTheDeviceIsRefused) {
    ze_device_compute_properties_t compute = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetComputeProperties(device_, &compute));
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "reduce"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "reduce_sum", 16));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
                     zeKernelSetArgumentValue(kernel, 2, 4 * size_t(compute.maxSharedLocalMemory),
                                              nullptr));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
                     zeKernelSetArgumentValue(kernel, 2, size_t(compute.maxSharedLocalMemory) + 1,
                                              nullptr));

    UsmBuffer<int> in, partial;
    ASSERT_NO_FATAL_FAILURE(allocate(in, UsmKind::Shared, 64));
    ASSERT_NO_FATAL_FAILURE(allocate(partial, UsmKind::Shared, 4));
    for (size_t i = 0; i < 64; ++i)
        in[i] = int(i);
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(in), usm(partial), localBytes(16 * sizeof(int))}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {4, 1, 1}));
    sync();
    for (int g = 0; g < 4; ++g) {
        int expected = 0;
        for (int i = g * 16; i < (g + 1) * 16; ++i)
            expected += i;
        EXPECT_EQ(partial[g], expected) << g;
    }
}

TEST_F(ModuleTest, AtomicHistogram) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "atomics"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "histogram", 32));
    constexpr uint32_t n = 32 * 129;
    constexpr uint32_t nbins = 7;
    UsmBuffer<uint32_t> values, bins;
    allocate(values, UsmKind::Host, n);
    allocate(bins, UsmKind::Device, nbins);
    std::vector<uint32_t> expected(nbins, 0);
    for (uint32_t i = 0; i < n; ++i) {
        values[i] = (i * 7919u) ^ (i >> 3);
        ++expected[values[i] % nbins];
    }
    const uint32_t zero = 0;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryFill(list_, bins.ptr(), &zero, sizeof(zero),
                                                    bins.bytes(), nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(values), usm(bins), byValue(nbins)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {n / 32, 1, 1}));
    UsmBuffer<uint32_t> result;
    allocate(result, UsmKind::Host, nbins);
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, result.ptr(), bins.ptr(), bins.bytes(),
                                                    nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (uint32_t b = 0; b < nbins; ++b)
        EXPECT_EQ(result[b], expected[b]) << "bin " << b;
}

TEST_F(ModuleTest, AtomicSumAndMax) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "atomics"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "atomic_sum_max", 64));
    constexpr uint32_t n = 64 * 50;
    UsmBuffer<int> values, sum, max;
    allocate(values, UsmKind::Shared, n);
    allocate(sum, UsmKind::Shared, 1);
    allocate(max, UsmKind::Shared, 1);
    for (uint32_t i = 0; i < n; ++i)
        values[i] = testValue(i, 77);
    sum[0] = 0;
    max[0] = INT32_MIN;
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(values), usm(sum), usm(max)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {n / 64, 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    EXPECT_EQ(sum[0], std::accumulate(values.data(), values.data() + n, 0));
    EXPECT_EQ(max[0], *std::max_element(values.data(), values.data() + n));
}

// Host mirror of params_t in kernels/struct_arg.cl. Both sides follow the
// same C layout rules: 24 bytes, `big` at offset 8, `tag` at 16.
struct Params {
    int32_t offset;
    float scale;
    int64_t big;
    char tag;
};
static_assert(sizeof(Params) == 24, "layout must match the kernel's params_t");

TEST_F(ModuleTest, StructPassedByValue) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "struct_arg"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "apply_params", 4));
    constexpr uint32_t n = 4 * 33;
    UsmBuffer<int> in;
    UsmBuffer<int64_t> out;
    allocate(in, UsmKind::Shared, n);
    allocate(out, UsmKind::Shared, n);
    for (uint32_t i = 0; i < n; ++i)
        in[i] = testValue(i, 5);
    Params p{};
    p.offset = -17;
    p.scale = 2.5f;
    p.big = int64_t(1) << 40;
    p.tag = 3;
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(out), usm(in), byValue(p)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {n / 4, 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (uint32_t i = 0; i < n; ++i) {
        const int64_t expected =
            static_cast<int64_t>(static_cast<float>(in[i]) * p.scale) + p.offset + p.big + p.tag;
        ASSERT_EQ(out[i], expected) << "i=" << i;
    }
}

// Pointers stored in memory (a table of USM pointers, a struct holding one),
// with the indirect-access flags a Level Zero program sets for them.
TEST_F(ModuleTest, IndirectAccessThroughPointersInMemory) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "struct_arg"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "gather_indirect", 8));
    ASSERT_ZE_SUCCESS(zeKernelSetIndirectAccess(kernel, ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST |
                                                            ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE |
                                                            ZE_KERNEL_INDIRECT_ACCESS_FLAG_SHARED));
    constexpr uint32_t n = 8 * 16;
    UsmBuffer<int> first, second, third, viewed, out;
    allocate(first, UsmKind::Device, n);
    allocate(second, UsmKind::Host, n);
    allocate(third, UsmKind::Shared, n);
    allocate(viewed, UsmKind::Shared, n);
    allocate(out, UsmKind::Shared, n);
    std::vector<int> host(n);
    for (uint32_t i = 0; i < n; ++i)
        host[i] = testValue(i, 7);
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, first.data(), host.data(),
                                                    n * sizeof(int), nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (uint32_t i = 0; i < n; ++i) {
        second[i] = 3 * int(i);
        third[i] = -int(i);
        viewed[i] = int(i % 5);
    }
    UsmBuffer<int *> tables;
    allocate(tables, UsmKind::Shared, 3);
    tables[0] = first.data();
    tables[1] = second.data();
    tables[2] = third.data();
    struct {
        const int *data;
        int32_t scale;
    } view = {viewed.data(), 10};
    const uint32_t ntables = 3;
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(out), usm(tables), byValue(ntables), byValue(view)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {n / 8, 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (uint32_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], host[i] + 3 * int(i) - int(i) + 10 * int(i % 5)) << "i=" << i;
}

TEST_F(ModuleTest, ScalarsOfEveryWidthByValue) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "struct_arg"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "scalars", 1));
    UsmBuffer<int64_t> out;
    allocate(out, UsmKind::Shared, 7);
    std::fill(out.data(), out.data() + 7, -1);
    const int8_t c = -5;
    const int16_t sh = -3000;
    const int32_t i = 123456789;
    const int64_t l = -(int64_t(1) << 50) - 7;
    const float f = 2.75f;
    const uint8_t v[4] = {1, 2, 3, 4};
    const double d = -1.125;
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(out), byValue(c), byValue(sh), byValue(i), byValue(l),
                                       byValue(f), Arg{sizeof(v), v}, byValue(d)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {1, 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    EXPECT_EQ(out[0], c);
    EXPECT_EQ(out[1], sh);
    EXPECT_EQ(out[2], i);
    EXPECT_EQ(out[3], l);
    EXPECT_EQ(out[4], 11);
    EXPECT_EQ(out[5], 1 + 256 * (2 + 256 * (3 + 256 * 4)));
    EXPECT_EQ(out[6], -9);
}

// A pointer to the constant address space is a USM pointer like a global one.
TEST_F(ModuleTest, ConstantAddressSpaceArgument) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "struct_arg"));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "lookup", 1));
    constexpr uint32_t n = 100, tableSize = 17;
    UsmBuffer<int> out, table;
    UsmBuffer<uint32_t> index;
    allocate(out, UsmKind::Shared, n);
    allocate(table, UsmKind::Device, tableSize);
    allocate(index, UsmKind::Host, n);
    UsmBuffer<int> tableHost;
    allocate(tableHost, UsmKind::Host, tableSize);
    for (uint32_t t = 0; t < tableSize; ++t)
        tableHost[t] = static_cast<int>(t * t) - 50;
    for (uint32_t k = 0; k < n; ++k)
        index[k] = (k * 5) % tableSize;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, table.ptr(), tableHost.ptr(),
                                                    table.bytes(), nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(out), usm(table), usm(index)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {n, 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (uint32_t k = 0; k < n; ++k)
        ASSERT_EQ(out[k], tableHost[index[k]]) << "k=" << k;
}

// The group counts of an indirect launch are read when the launch executes,
// not when it is appended: a copy earlier in the same in-order list, held
// back by a host event, writes them.
TEST_F(ModuleTest, LaunchKernelIndirectReadsCountsAtExecution) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, basic_, "increment", 4));
    constexpr uint32_t n = 4 * 25;
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, n);
    std::fill(data.data(), data.data() + n, 0);
    UsmBuffer<ze_group_count_t> counts, newCounts;
    allocate(counts, UsmKind::Shared, 1);
    allocate(newCounts, UsmKind::Host, 1);
    counts[0] = {1, 1, 1};
    newCounts[0] = {n / 4, 1, 1};
    Event gate;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    ze_event_handle_t wait = gate;
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(list_, counts.ptr(), newCounts.ptr(),
                                                    sizeof(ze_group_count_t), nullptr, 1, &wait));
    // Appending to an asynchronous list must not wait for earlier commands.
    // The append runs on another thread so that a driver which does block
    // (reading the counts at append time) fails this test instead of hanging
    // it: the bounded wait is only a hang guard, a correct driver returns at
    // once.
    std::future<ze_result_t> appended = std::async(std::launch::async, [&] {
        return zeCommandListAppendLaunchKernelIndirect(list_, kernel, counts.data(), nullptr, 0,
                                                       nullptr);
    });
    const bool returned = appended.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    EXPECT_TRUE(returned) << "zeCommandListAppendLaunchKernelIndirect blocked until the "
                             "commands before it had run";
    ASSERT_ZE_SUCCESS(appended.get());
    ASSERT_NO_FATAL_FAILURE(sync());
    for (uint32_t i = 0; i < n; ++i)
        ASSERT_EQ(data[i], 1) << "i=" << i;
}

TEST_F(ModuleTest, CooperativeLaunch) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, basic_, "increment", 8));
    uint32_t maxGroups = 0;
    ASSERT_ZE_SUCCESS(zeKernelSuggestMaxCooperativeGroupCount(kernel, &maxGroups));
    ASSERT_GT(maxGroups, 0u);
    const uint32_t groups = std::min(maxGroups, 4u);
    UsmBuffer<int> data;
    allocate(data, UsmKind::Shared, groups * 8);
    std::fill(data.data(), data.data() + data.size(), 41);
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(data)}));
    ze_group_count_t count = {groups, 1, 1};
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendLaunchCooperativeKernel(list_, kernel, &count, nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (size_t i = 0; i < data.size(); ++i)
        ASSERT_EQ(data[i], 42) << "i=" << i;
}

// A program-scope variable is reachable through zeModuleGetGlobalPointer
// "where possible" (the driver issue): when the driver supports it, the
// pointer must be the variable the kernels use.
TEST_F(ModuleTest, GlobalPointerOfAProgramScopeVariable) {
    Module module;
    ASSERT_NO_FATAL_FAILURE(loadModule(module, "globals"));
    size_t size = 0;
    void *ptr = nullptr;
    const ze_result_t r = zeModuleGetGlobalPointer(module, "counter", &size, &ptr);
    if (r == ZE_RESULT_ERROR_UNSUPPORTED_FEATURE)
        GTEST_SKIP() << "zeModuleGetGlobalPointer is not supported by this driver";
    ASSERT_ZE_SUCCESS(r);
    EXPECT_EQ(size, sizeof(int));
    ASSERT_NE(ptr, nullptr);
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME,
                     zeModuleGetGlobalPointer(module, "no_such_global", &size, &ptr));

    UsmBuffer<int> value;
    allocate(value, UsmKind::Host, 1);
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryCopy(list_, value.ptr(), ptr, sizeof(int), nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    EXPECT_EQ(value[0], 5) << "the initialiser";

    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "bump_counter", 1));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {byValue(10)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {1, 1, 1}));
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryCopy(list_, value.ptr(), ptr, sizeof(int), nullptr, 0, nullptr));
    ASSERT_NO_FATAL_FAILURE(sync());
    EXPECT_EQ(value[0], 15) << "the kernel's update, read through the global pointer";
}

// A 3D launch: every work-item records its global id (with the offset) and
// its group and local ids; the host checks all of them.
class LaunchGeometry {
  public:
    uint32_t group[3];
    uint32_t count[3];
    uint32_t offset[3];
    uint32_t size(int d) const { return group[d] * count[d]; }
    uint32_t total() const { return size(0) * size(1) * size(2); }
};

void checkIds(const UsmBuffer<uint32_t> &ids, const UsmBuffer<uint32_t> &groups,
              const LaunchGeometry &g) {
    for (uint32_t z = 0; z < g.size(2); ++z)
        for (uint32_t y = 0; y < g.size(1); ++y)
            for (uint32_t x = 0; x < g.size(0); ++x) {
                const size_t linear = (size_t(z) * g.size(1) + y) * g.size(0) + x;
                const uint32_t *id = &ids[linear * 4];
                const uint32_t *grp = &groups[linear * 4];
                const uint32_t lx = x % g.group[0], ly = y % g.group[1], lz = z % g.group[2];
                ASSERT_EQ(id[0], x + g.offset[0]) << "x at " << x << "," << y << "," << z;
                ASSERT_EQ(id[1], y + g.offset[1]) << "y at " << x << "," << y << "," << z;
                ASSERT_EQ(id[2], z + g.offset[2]) << "z at " << x << "," << y << "," << z;
                ASSERT_EQ(grp[0], x / g.group[0]);
                ASSERT_EQ(grp[1], y / g.group[1]);
                ASSERT_EQ(grp[2], z / g.group[2]);
                ASSERT_EQ(grp[3], lx + g.group[0] * (ly + g.group[1] * lz)) << "local id";
            }
}

TEST_F(ModuleTest, Launch2DAnd3D) {
    const LaunchGeometry cases[] = {
        {{4, 3, 1}, {5, 7, 1}, {0, 0, 0}},
        {{2, 2, 2}, {3, 4, 5}, {0, 0, 0}},
        {{1, 8, 2}, {9, 1, 3}, {0, 0, 0}},
    };
    for (const LaunchGeometry &g : cases) {
        Kernel kernel;
        ASSERT_NO_FATAL_FAILURE(
            loadKernel(kernel, basic_, "record_ids", g.group[0], g.group[1], g.group[2]));
        UsmBuffer<uint32_t> ids, groups;
        allocate(ids, UsmKind::Shared, g.total() * 4);
        allocate(groups, UsmKind::Shared, g.total() * 4);
        const uint32_t width = g.size(0), height = g.size(1);
        ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(ids), usm(groups), byValue(width), byValue(height)}));
        ASSERT_ZE_SUCCESS(launch(list_, kernel, {g.count[0], g.count[1], g.count[2]}));
        ASSERT_NO_FATAL_FAILURE(sync());
        ASSERT_NO_FATAL_FAILURE(checkIds(ids, groups, g));
    }
}

// zeKernelSetGlobalOffsetExp shifts global ids (not group ids); the offset
// is kernel state captured at append time like arguments.
TEST_F(ModuleTest, Launch3DWithGlobalOffset) {
    const LaunchGeometry shifted = {{4, 2, 2}, {3, 2, 2}, {5, 11, 3}};
    const LaunchGeometry plain = {{4, 2, 2}, {3, 2, 2}, {0, 0, 0}};
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, basic_, "record_ids", 4, 2, 2));
    UsmBuffer<uint32_t> ids1, groups1, ids2, groups2;
    for (auto *b : {&ids1, &groups1, &ids2, &groups2})
        allocate(*b, UsmKind::Shared, shifted.total() * 4);
    const uint32_t width = shifted.size(0), height = shifted.size(1);
    Event gate;
    ASSERT_NO_FATAL_FAILURE(createEvent(gate, 1));

    ASSERT_ZE_SUCCESS(zeKernelSetGlobalOffsetExp(kernel, 5, 11, 3));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(ids1), usm(groups1), byValue(width), byValue(height)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {3, 2, 2}, nullptr, {gate}));
    // Held back by the gate while the offset changes: the first launch
    // must keep its own offset.
    ASSERT_ZE_SUCCESS(zeKernelSetGlobalOffsetExp(kernel, 0, 0, 0));
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(ids2), usm(groups2), byValue(width), byValue(height)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {3, 2, 2}));
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_NO_FATAL_FAILURE(sync());
    ASSERT_NO_FATAL_FAILURE(checkIds(ids1, groups1, shifted));
    ASSERT_NO_FATAL_FAILURE(checkIds(ids2, groups2, plain));
}

// The attributes of a kernel's source, as source text. (The size is asked
// with a null string, not a null pointer to it, which the loader's validation
// layer refuses.)
std::string sourceAttributes(ze_kernel_handle_t kernel) {
    uint32_t size = 0;
    char *none = nullptr;
    EXPECT_ZE_SUCCESS(zeKernelGetSourceAttributes(kernel, &size, &none));
    std::string text(size, 'x');
    char *buffer = text.data();
    EXPECT_ZE_SUCCESS(zeKernelGetSourceAttributes(kernel, &size, &buffer));
    EXPECT_EQ(size, text.size());
    EXPECT_EQ(text.back(), '\0');
    return text.c_str();
}

TEST_F(ModuleTest, SourceAttributes) {
    const char *expected = "reqd_work_group_size(8,2,1) work_group_size_hint(4,2,1)";
    Kernel fixed, plain;
    ASSERT_ZE_SUCCESS(createKernel(basic_, "fixed_group", fixed));
    ASSERT_ZE_SUCCESS(createKernel(basic_, "vector_add", plain));
    EXPECT_EQ(sourceAttributes(fixed), expected);
    EXPECT_EQ(sourceAttributes(plain), "");
    // A buffer too small gets what fits, terminated.
    uint32_t size = 6;
    char small[6];
    char *buffer = small;
    ASSERT_ZE_SUCCESS(zeKernelGetSourceAttributes(fixed, &size, &buffer));
    EXPECT_STREQ(small, "reqd_");

    // They survive a native binary.
    size_t bytes = 0;
    ASSERT_ZE_SUCCESS(zeModuleGetNativeBinary(basic_, &bytes, nullptr));
    std::vector<uint8_t> binary(bytes);
    ASSERT_ZE_SUCCESS(zeModuleGetNativeBinary(basic_, &bytes, binary.data()));
    Module native;
    ASSERT_ZE_SUCCESS(createModule(context_, device_, binary, ZE_MODULE_FORMAT_NATIVE, native));
    Kernel again;
    ASSERT_ZE_SUCCESS(createKernel(native, "fixed_group", again));
    EXPECT_EQ(sourceAttributes(again), expected);
}

// reqd_work_group_size is reported in the kernel properties and honoured.
TEST_F(ModuleTest, RequiredGroupSize) {
    Kernel kernel;
    ASSERT_ZE_SUCCESS(createKernel(basic_, "fixed_group", kernel));
    ze_kernel_properties_t props = {ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeKernelGetProperties(kernel, &props));
    EXPECT_EQ(props.requiredGroupSizeX, 8u);
    EXPECT_EQ(props.requiredGroupSizeY, 2u);
    EXPECT_EQ(props.requiredGroupSizeZ, 1u);

    // The only workable suggestion for such a kernel is its required size.
    uint32_t sx = 0, sy = 0, sz = 0;
    ASSERT_ZE_SUCCESS(zeKernelSuggestGroupSize(kernel, 32, 6, 1, &sx, &sy, &sz));
    EXPECT_EQ(sx, 8u);
    EXPECT_EQ(sy, 2u);
    EXPECT_EQ(sz, 1u);

    ASSERT_ZE_SUCCESS(zeKernelSetGroupSize(kernel, 8, 2, 1));
    UsmBuffer<int> out;
    allocate(out, UsmKind::Shared, 32 * 6);
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(out)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {4, 3, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (size_t i = 0; i < out.size(); ++i)
        ASSERT_EQ(out[i], 802) << "i=" << i;
}

TEST_F(ModuleTest, KernelWithoutArguments) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, basic_, "empty_kernel", 4));
    ze_kernel_properties_t props = {ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeKernelGetProperties(kernel, &props));
    EXPECT_EQ(props.numKernelArgs, 0u);
    Event done;
    ASSERT_NO_FATAL_FAILURE(createEvent(done, 1));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {8, 1, 1}, done));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(done, UINT64_MAX));
}

// ---------------------------------------------------------------------------
// Introspection

TEST_F(ModuleTest, KernelNames) {
    uint32_t count = 0;
    ASSERT_ZE_SUCCESS(zeModuleGetKernelNames(basic_, &count, nullptr));
    ASSERT_EQ(count, 7u);
    std::vector<const char *> names(count);
    ASSERT_ZE_SUCCESS(zeModuleGetKernelNames(basic_, &count, names.data()));
    std::set<std::string> got(names.begin(), names.end());
    const std::set<std::string> expected = {"vector_add", "scale_add",   "mul_add_inplace",
                                            "increment",  "record_ids",  "fixed_group",
                                            "empty_kernel"};
    EXPECT_EQ(got, expected);

    // Asking for fewer names returns that many.
    uint32_t two = 2;
    const char *firstTwo[2] = {nullptr, nullptr};
    ASSERT_ZE_SUCCESS(zeModuleGetKernelNames(basic_, &two, firstTwo));
    EXPECT_EQ(two, 2u);
    for (const char *name : firstTwo) {
        ASSERT_NE(name, nullptr);
        EXPECT_EQ(expected.count(name), 1u) << name;
    }
}

// A program without kernels (helper functions, as a library of them is
// written) builds: the module has no kernel names, and asking for a kernel
// finds none.
TEST_F(ModuleTest, ProgramWithoutKernelsBuilds) {
    Module helpers;
    ASSERT_NO_FATAL_FAILURE(loadModule(helpers, "helpers_only"));
    uint32_t count = 7;
    ASSERT_ZE_SUCCESS(zeModuleGetKernelNames(helpers, &count, nullptr));
    EXPECT_EQ(count, 0u);
    Kernel kernel;
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC};
    desc.pKernelName = "mix_bits";
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_NAME, zeKernelCreate(helpers, &desc, kernel.out()));
}

// zeModuleCreate may be called from several threads at once (the spec says
// so); each thread builds its own module and runs a kernel from it.
TEST_F(ModuleTest, ModulesAreCreatedConcurrently) {
    constexpr int kThreads = 4;
    const std::vector<uint8_t> spirv = loadSpirv("reduce");
    ASSERT_FALSE(spirv.empty());
    std::vector<Module> modules(kThreads);
    std::vector<ze_result_t> results(kThreads, ZE_RESULT_ERROR_UNKNOWN);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
            desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
            desc.inputSize = spirv.size();
            desc.pInputModule = spirv.data();
            desc.pBuildFlags = "";
            results[t] = zeModuleCreate(context_, device_, &desc, modules[t].out(), nullptr);
        });
    }
    for (auto &th : threads)
        th.join();
    for (int t = 0; t < kThreads; ++t) {
        ASSERT_ZE_SUCCESS(results[t]) << "thread " << t;
        Kernel kernel;
        ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, modules[t], "reduce_sum", 16));
        UsmBuffer<int> in, partial;
        allocate(in, UsmKind::Shared, 64);
        allocate(partial, UsmKind::Shared, 4);
        std::iota(in.data(), in.data() + 64, t);
        ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(in), usm(partial), localBytes(16 * sizeof(int))}));
        ASSERT_ZE_SUCCESS(launch(list_, kernel, {4, 1, 1}));
        ASSERT_NO_FATAL_FAILURE(sync());
        for (int g = 0; g < 4; ++g)
            EXPECT_EQ(partial[g], std::accumulate(in.data() + g * 16, in.data() + g * 16 + 16, 0));
    }
}

TEST_F(ModuleTest, KernelPropertiesAndName) {
    struct Expect {
        const char *module;
        const char *kernel;
        uint32_t args;
    };
    const Expect cases[] = {{"basic", "vector_add", 3},   {"basic", "scale_add", 4},
                            {"basic", "record_ids", 4},   {"reduce", "reduce_sum", 3},
                            {"struct_arg", "apply_params", 3}, {"atomics", "histogram", 3},
                            {"struct_arg", "scalars", 8},      {"struct_arg", "lookup", 3}};
    for (const Expect &c : cases) {
        Module module;
        ASSERT_NO_FATAL_FAILURE(loadModule(module, c.module));
        Kernel kernel;
        ASSERT_ZE_SUCCESS(createKernel(module, c.kernel, kernel));
        ze_kernel_properties_t props = {ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
        ASSERT_ZE_SUCCESS(zeKernelGetProperties(kernel, &props));
        EXPECT_EQ(props.numKernelArgs, c.args) << c.kernel;
        EXPECT_EQ(props.requiredGroupSizeX, 0u) << c.kernel;

        size_t size = 0;
        ASSERT_ZE_SUCCESS(zeKernelGetName(kernel, &size, nullptr));
        ASSERT_EQ(size, std::strlen(c.kernel) + 1) << "the size includes the terminator";
        std::string name(size, '\0');
        ASSERT_ZE_SUCCESS(zeKernelGetName(kernel, &size, name.data()));
        EXPECT_STREQ(name.c_str(), c.kernel);
    }
}

TEST_F(ModuleTest, ModuleProperties) {
    ze_module_properties_t props = {ZE_STRUCTURE_TYPE_MODULE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeModuleGetProperties(basic_, &props));
    EXPECT_EQ(props.flags & ZE_MODULE_PROPERTY_FLAG_IMPORTS, 0u)
        << "the test kernels import nothing";
}

// Suggested group sizes divide the global size and respect device limits.
TEST_F(ModuleTest, SuggestGroupSize) {
    Kernel kernel;
    ASSERT_ZE_SUCCESS(createKernel(basic_, "record_ids", kernel));
    ze_device_compute_properties_t compute = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetComputeProperties(device_, &compute));
    const uint32_t globals[][3] = {{1000, 1, 1}, {64, 48, 1}, {7, 9, 13}, {1, 1, 1}, {4096, 2, 2}};
    for (const auto &g : globals) {
        uint32_t s[3] = {0, 0, 0};
        ASSERT_ZE_SUCCESS(zeKernelSuggestGroupSize(kernel, g[0], g[1], g[2], &s[0], &s[1], &s[2]));
        for (int d = 0; d < 3; ++d) {
            ASSERT_GT(s[d], 0u);
            EXPECT_EQ(g[d] % s[d], 0u) << "dimension " << d << " of " << g[0] << "x" << g[1]
                                       << "x" << g[2] << " suggested " << s[d];
        }
        EXPECT_LE(uint64_t(s[0]) * s[1] * s[2], compute.maxTotalGroupSize);
        EXPECT_LE(s[0], compute.maxGroupSizeX);
        EXPECT_LE(s[1], compute.maxGroupSizeY);
        EXPECT_LE(s[2], compute.maxGroupSizeZ);
        ASSERT_ZE_SUCCESS(zeKernelSetGroupSize(kernel, s[0], s[1], s[2]));
    }
}

TEST_F(ModuleTest, SetIndirectAccess) {
    Kernel kernel;
    ASSERT_ZE_SUCCESS(createKernel(basic_, "vector_add", kernel));
    const ze_kernel_indirect_access_flags_t all = ZE_KERNEL_INDIRECT_ACCESS_FLAG_HOST |
                                                  ZE_KERNEL_INDIRECT_ACCESS_FLAG_DEVICE |
                                                  ZE_KERNEL_INDIRECT_ACCESS_FLAG_SHARED;
    ASSERT_ZE_SUCCESS(zeKernelSetIndirectAccess(kernel, all));
    ze_kernel_indirect_access_flags_t got = 0;
    ASSERT_ZE_SUCCESS(zeKernelGetIndirectAccess(kernel, &got));
    EXPECT_EQ(got, all);
}

// ---------------------------------------------------------------------------
// Module creation paths

TEST_F(ModuleTest, BuildLogOfASuccessfulBuildIsReadable) {
    const std::vector<uint8_t> spirv = loadSpirv("reduce");
    Module module;
    std::string log = "unset";
    ASSERT_ZE_SUCCESS(
        createModule(context_, device_, spirv, ZE_MODULE_FORMAT_IL_SPIRV, module, "", &log));
    EXPECT_NE(log, "unset") << "the build log string could not be read";

    // The reported size includes the terminator.
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    desc.inputSize = spirv.size();
    desc.pInputModule = spirv.data();
    Module again;
    BuildLog buildLog;
    ASSERT_ZE_SUCCESS(zeModuleCreate(context_, device_, &desc, again.out(), buildLog.out()));
    size_t size = 0;
    ASSERT_ZE_SUCCESS(zeModuleBuildLogGetString(buildLog, &size, nullptr));
    ASSERT_GE(size, 1u);
    std::vector<char> text(size, 'x');
    ASSERT_ZE_SUCCESS(zeModuleBuildLogGetString(buildLog, &size, text.data()));
    EXPECT_EQ(text[size - 1], '\0');
}

// The specification's build flags are accepted (and mean what they can on a CPU).
TEST_F(ModuleTest, IntelBuildFlagsAreAccepted) {
    const std::vector<uint8_t> spirv = loadSpirv("basic");
    Module module;
    ASSERT_ZE_SUCCESS(createModule(
        context_, device_, spirv, ZE_MODULE_FORMAT_IL_SPIRV, module,
        "-ze-opt-disable -ze-opt-level=2 -ze-opt-greater-than-4GB-buffer-required"));
    ASSERT_NO_FATAL_FAILURE(checkVectorAdd(module, 4, 64));
}

// OpenCL build options are passed on to the OpenCL compiler.
TEST_F(ModuleTest, OpenClBuildOptionsAreAccepted) {
    const std::vector<uint8_t> spirv = loadSpirv("basic");
    Module module;
    ASSERT_ZE_SUCCESS(createModule(context_, device_, spirv, ZE_MODULE_FORMAT_IL_SPIRV, module,
                                   "-cl-mad-enable -cl-fast-relaxed-math"));
    ASSERT_NO_FATAL_FAILURE(checkVectorAdd(module, 4, 64));
}

// Specialization constants (OpSpecConstant with a SpecId) take their
// defaults, or the values given in the module descriptor.
TEST_F(ModuleTest, SpecializationConstants) {
    const std::vector<uint8_t> spirv = loadSpirv("spec_constants");
    ASSERT_FALSE(spirv.empty());
    auto run = [&](const ze_module_constants_t *constants, int64_t expected0, int64_t expected1) {
        ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
        desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
        desc.inputSize = spirv.size();
        desc.pInputModule = spirv.data();
        desc.pBuildFlags = "";
        desc.pConstants = constants;
        Module module;
        ASSERT_ZE_SUCCESS(zeModuleCreate(context_, device_, &desc, module.out(), nullptr));
        Kernel kernel;
        ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "spec_values", 1));
        UsmBuffer<int64_t> out;
        allocate(out, UsmKind::Shared, 2);
        out[0] = out[1] = 0;
        ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(out)}));
        ASSERT_ZE_SUCCESS(launch(list_, kernel, {1, 1, 1}));
        ASSERT_NO_FATAL_FAILURE(sync());
        EXPECT_EQ(out[0], expected0);
        EXPECT_EQ(out[1], expected1);
    };
    {
        SCOPED_TRACE("defaults");
        ASSERT_NO_FATAL_FAILURE(run(nullptr, 42, -5));
    }
    {
        SCOPED_TRACE("both set");
        const uint32_t ids[] = {7, 9};
        const int32_t v7 = -1234;
        const int64_t v9 = int64_t(1) << 40;
        const void *values[] = {&v7, &v9};
        const ze_module_constants_t constants = {2, ids, values};
        ASSERT_NO_FATAL_FAILURE(run(&constants, -1234, int64_t(1) << 40));
    }
    {
        SCOPED_TRACE("one set");
        const uint32_t ids[] = {9};
        const int64_t v9 = -77;
        const void *values[] = {&v9};
        const ze_module_constants_t constants = {1, ids, values};
        ASSERT_NO_FATAL_FAILURE(run(&constants, 42, -77));
    }
}

// Garbage input is a build failure with a log, never a crash.
TEST_F(ModuleTest, GarbageSpirvFailsWithABuildLog) {
    std::vector<uint8_t> garbage(256);
    for (size_t i = 0; i < garbage.size(); ++i)
        garbage[i] = static_cast<uint8_t>(i * 37 + 11);
    // Random bytes, then a valid SPIR-V magic and header with a garbage body.
    std::vector<uint8_t> badBody = garbage;
    const uint32_t header[5] = {0x07230203u, 0x00010200u, 0u, 100u, 0u};
    std::memcpy(badBody.data(), header, sizeof(header));
    // And a real module cut in half.
    std::vector<uint8_t> truncated = loadSpirv("basic");
    truncated.resize(truncated.size() / 2 & ~size_t(3));

    const std::pair<const char *, const std::vector<uint8_t> *> inputs[] = {
        {"random bytes", &garbage}, {"SPIR-V header, garbage body", &badBody},
        {"truncated module", &truncated}};
    for (const auto &[what, input] : inputs) {
        SCOPED_TRACE(what);
        ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
        desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
        desc.inputSize = input->size();
        desc.pInputModule = input->data();
        desc.pBuildFlags = "";
        ze_module_handle_t module = nullptr;
        // Through the intercepting loader the log of a failed build can be
        // neither read nor destroyed (buildLogOfAFailedBuildIsUsable), so it
        // is only requested, and checked, in pass-through mode.
        const bool withLog = buildLogOfAFailedBuildIsUsable();
        BuildLog log;
        const ze_result_t r =
            zeModuleCreate(context_, device_, &desc, &module, withLog ? log.out() : nullptr);
        EXPECT_ZE_RESULT(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE, r);
        if (r == ZE_RESULT_SUCCESS && module != nullptr) {
            EXPECT_ZE_SUCCESS(zeModuleDestroy(module));
            continue;
        }
        if (!withLog)
            continue;
        ASSERT_NE(log.get(), nullptr) << "no build log on failure";
        EXPECT_FALSE(buildLogText(log).empty()) << "the build log of a failed build is empty";
    }
}

// The native binary of a module rebuilds an equivalent module: same
// kernels, same argument metadata, same results.
TEST_F(ModuleTest, NativeBinaryRoundTrip) {
    size_t size = 0;
    ASSERT_ZE_SUCCESS(zeModuleGetNativeBinary(basic_, &size, nullptr));
    ASSERT_GT(size, 0u);
    std::vector<uint8_t> binary(size);
    ASSERT_ZE_SUCCESS(zeModuleGetNativeBinary(basic_, &size, binary.data()));
    ASSERT_EQ(size, binary.size());

    Module native;
    ASSERT_ZE_SUCCESS(
        createModule(context_, device_, binary, ZE_MODULE_FORMAT_NATIVE, native));
    uint32_t count = 0;
    ASSERT_ZE_SUCCESS(zeModuleGetKernelNames(native, &count, nullptr));
    EXPECT_EQ(count, 7u);
    ASSERT_NO_FATAL_FAILURE(checkVectorAdd(native, 8, 512));

    // Arguments of every kind survive the round trip: a by-value struct and
    // local memory.
    Module structModule, reduceModule;
    for (auto [name, module] : {std::pair<const char *, Module *>{"struct_arg", &structModule},
                                {"reduce", &reduceModule}}) {
        Module spirvModule;
        ASSERT_NO_FATAL_FAILURE(loadModule(spirvModule, name));
        size_t n = 0;
        ASSERT_ZE_SUCCESS(zeModuleGetNativeBinary(spirvModule, &n, nullptr));
        std::vector<uint8_t> bin(n);
        ASSERT_ZE_SUCCESS(zeModuleGetNativeBinary(spirvModule, &n, bin.data()));
        ASSERT_ZE_SUCCESS(createModule(context_, device_, bin, ZE_MODULE_FORMAT_NATIVE, *module));
    }
    Kernel reduce;
    ASSERT_NO_FATAL_FAILURE(loadKernel(reduce, reduceModule, "reduce_sum", 32));
    UsmBuffer<int> in, partial;
    allocate(in, UsmKind::Shared, 32 * 4);
    allocate(partial, UsmKind::Shared, 4);
    std::iota(in.data(), in.data() + in.size(), 1);
    ASSERT_ZE_SUCCESS(setArgs(reduce, {usm(in), usm(partial), localBytes(32 * sizeof(int))}));
    ASSERT_ZE_SUCCESS(launch(list_, reduce, {4, 1, 1}));

    Kernel apply;
    ASSERT_NO_FATAL_FAILURE(loadKernel(apply, structModule, "apply_params", 1));
    UsmBuffer<int64_t> out;
    allocate(out, UsmKind::Shared, in.size());
    Params p{};
    p.offset = 1;
    p.scale = 2.0f;
    p.big = 1000;
    p.tag = 7;
    ASSERT_ZE_SUCCESS(setArgs(apply, {usm(out), usm(in), byValue(p)}));
    ASSERT_ZE_SUCCESS(launch(list_, apply, {static_cast<uint32_t>(in.size()), 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (int g = 0; g < 4; ++g) {
        const int first = g * 32 + 1, last = g * 32 + 32;
        EXPECT_EQ(partial[g], (first + last) * 32 / 2) << "group " << g;
    }
    for (size_t i = 0; i < in.size(); ++i)
        ASSERT_EQ(out[i], int64_t(in[i]) * 2 + 1 + 1000 + 7) << "i=" << i;
}

// A native binary that is not one is rejected, not crashed on.
TEST_F(ModuleTest, GarbageNativeBinaryIsRejected) {
    std::vector<uint8_t> garbage(512, 0xA5);
    std::vector<uint8_t> truncated;
    {
        size_t size = 0;
        ASSERT_ZE_SUCCESS(zeModuleGetNativeBinary(basic_, &size, nullptr));
        truncated.resize(size);
        ASSERT_ZE_SUCCESS(zeModuleGetNativeBinary(basic_, &size, truncated.data()));
        truncated.resize(size / 2);
    }
    const std::pair<const char *, const std::vector<uint8_t> *> inputs[] = {
        {"garbage", &garbage}, {"truncated native binary", &truncated}};
    for (const auto &[what, input] : inputs) {
        SCOPED_TRACE(what);
        ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
        desc.format = ZE_MODULE_FORMAT_NATIVE;
        desc.inputSize = input->size();
        desc.pInputModule = input->data();
        ze_module_handle_t module = nullptr;
        // No build log: see buildLogOfAFailedBuildIsUsable().
        const ze_result_t r = zeModuleCreate(context_, device_, &desc, &module, nullptr);
        // The spec names INVALID_NATIVE_BINARY for a binary the device
        // cannot use; MODULE_BUILD_FAILURE is the generic build error.
        EXPECT_TRUE(r == ZE_RESULT_ERROR_INVALID_NATIVE_BINARY ||
                    r == ZE_RESULT_ERROR_MODULE_BUILD_FAILURE)
            << resultName(r);
        if (r == ZE_RESULT_SUCCESS && module != nullptr) {
            EXPECT_ZE_SUCCESS(zeModuleDestroy(module));
        }
    }
}

// ---------------------------------------------------------------------------
// Error paths

TEST_F(ModuleTest, UnknownKernelName) {
    Kernel kernel;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_NAME,
                     createKernel(basic_, "no_such_kernel", kernel));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_NAME,
                     createKernel(basic_, "vector_ad", kernel));
}

TEST_F(ModuleTest, WrongArgumentSize) {
    Kernel kernel;
    ASSERT_ZE_SUCCESS(createKernel(basic_, "scale_add", kernel));
    const int64_t wide = 1;
    // Argument 2 is an int: no bytes at all is refused.
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
                     zeKernelSetArgumentValue(kernel, 2, 0, &wide));
    // Argument 0 is a pointer.
    const uint32_t half = 0;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
                     zeKernelSetArgumentValue(kernel, 0, sizeof(half), &half));
}

// A value of another size than the argument's is taken as on Intel's driver:
// fewer bytes are its low bytes, the rest zero; more are cut (code passes an
// int for a size_t, or a size_t for an int).
TEST_F(ModuleTest, OtherSizedValuesAreItsLowBytes) {
    constexpr size_t n = 64;
    Kernel kernel;
    ASSERT_ZE_SUCCESS(createKernel(basic_, "scale_add", kernel));
    ASSERT_ZE_SUCCESS(zeKernelSetGroupSize(kernel, 1, 1, 1));
    UsmBuffer<int> out, in;
    ASSERT_NO_FATAL_FAILURE(allocate(out, UsmKind::Shared, n));
    ASSERT_NO_FATAL_FAILURE(allocate(in, UsmKind::Shared, n));
    for (size_t i = 0; i < n; ++i)
        in[i] = testValue(i);
    // The full int first, so that stale high bytes would show.
    const int32_t stale = -1;
    const int16_t factor = 3;
    const int64_t bias = 5 | (int64_t(7) << 32); // the high word is cut
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(out), usm(in)}));
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 2, sizeof(stale), &stale));
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 3, sizeof(stale), &stale));
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 2, sizeof(factor), &factor));
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 3, sizeof(bias), &bias));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {static_cast<uint32_t>(n), 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], in[i] * 3 + 5) << i;
}

TEST_F(ModuleTest, ArgumentIndexOutOfRange) {
    Kernel kernel;
    ASSERT_ZE_SUCCESS(createKernel(basic_, "vector_add", kernel));
    void *ptr = nullptr;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_INDEX,
                     zeKernelSetArgumentValue(kernel, 3, sizeof(ptr), &ptr));
}

// A null pointer argument is a valid argument value (the kernel may not use
// it); the spec allows `pArgValue` to point at a null pointer.
TEST_F(ModuleTest, NullPointerArgumentIsAccepted) {
    Kernel kernel;
    ASSERT_ZE_SUCCESS(createKernel(basic_, "vector_add", kernel));
    void *ptr = nullptr;
    EXPECT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 0, sizeof(ptr), &ptr));
}

// A null value of a by-value argument is the value zero, as the
// specification says ("considered null"); SYCL's runtime passes one for any
// 8-byte argument that is 0.
TEST_F(ModuleTest, NullValueOfAByValueArgumentIsZero) {
    constexpr size_t n = 16;
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, basic_, "scale_add", 4));
    UsmBuffer<int> out, in;
    ASSERT_NO_FATAL_FAILURE(allocate(out, UsmKind::Shared, n));
    ASSERT_NO_FATAL_FAILURE(allocate(in, UsmKind::Shared, n));
    for (size_t i = 0; i < n; ++i)
        in[i] = testValue(i);
    const int32_t factor = 3, stale = 77;
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 0, sizeof(void *), out.arg()));
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 1, sizeof(void *), in.arg()));
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 2, sizeof(factor), &factor));
    // Set first, so that a value left in place would show.
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 3, sizeof(stale), &stale));
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 3, sizeof(int64_t), nullptr));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {uint32_t(n / 4), 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], in[i] * 3) << i;
}

// Launching with arguments left unset is an error at append time, not a
// crash at execution time.
TEST_F(ModuleTest, LaunchWithUnsetArgumentsFails) {
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, basic_, "vector_add", 4));
    UsmBuffer<int> a;
    allocate(a, UsmKind::Shared, 16);
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(kernel, 0, sizeof(void *), a.arg()));
    const ze_result_t r = launch(list_, kernel, {4, 1, 1});
    EXPECT_NE(Result{ZE_RESULT_SUCCESS}, Result{r}) << "a launch with 2 of 3 arguments unset";

    Kernel none;
    ASSERT_NO_FATAL_FAILURE(loadKernel(none, basic_, "increment", 4));
    EXPECT_NE(Result{ZE_RESULT_SUCCESS}, Result{launch(list_, none, {4, 1, 1})})
        << "a launch with no argument set";
    // The list is still usable afterwards.
    ASSERT_NO_FATAL_FAILURE(sync());
    ASSERT_NO_FATAL_FAILURE(checkVectorAdd(basic_, 4, 64));
}

TEST_F(ModuleTest, GroupSizeBeyondTheDeviceLimit) {
    ze_device_compute_properties_t compute = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetComputeProperties(device_, &compute));
    Kernel kernel;
    ASSERT_ZE_SUCCESS(createKernel(basic_, "vector_add", kernel));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
                     zeKernelSetGroupSize(kernel, compute.maxGroupSizeX + 1, 1, 1));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
                     zeKernelSetGroupSize(kernel, compute.maxTotalGroupSize, 2, 1));
}

// ---------------------------------------------------------------------------
// Programs of several modules (ZE_experimental_module_program): one module
// built from SPIR-V modules linked by their Import and Export linkage.

class ModuleProgramTest : public ModuleTest {
  protected:
    void SetUp() override {
        ASSERT_NO_FATAL_FAILURE(ModuleTest::SetUp());
        library_ = loadSpirv("linked_library");
        kernels_ = loadSpirv("linked_kernels");
        ASSERT_FALSE(library_.empty());
        ASSERT_FALSE(kernels_.empty());
    }

    ze_result_t createProgram(const std::vector<const std::vector<uint8_t> *> &parts,
                              Module &module, std::string *logText = nullptr,
                              std::vector<const ze_module_constants_t *> constants = {}) {
        return createProgramModule(context_, device_, parts, module, logText, constants);
    }

    // apply_scaled computes 3x + 2 * bias through the library's function and
    // variable; read_bias reads the variable.
    void checkLinkedKernels(ze_module_handle_t module) {
        constexpr size_t n = 64;
        Kernel apply, read;
        ASSERT_NO_FATAL_FAILURE(loadKernel(apply, module, "apply_scaled", 16));
        ASSERT_NO_FATAL_FAILURE(loadKernel(read, module, "read_bias", 1));
        UsmBuffer<int> data, bias;
        ASSERT_NO_FATAL_FAILURE(allocate(data, UsmKind::Shared, n));
        ASSERT_NO_FATAL_FAILURE(allocate(bias, UsmKind::Shared, 1));
        for (size_t i = 0; i < n; ++i)
            data[i] = testValue(i);
        bias[0] = 0;
        ASSERT_ZE_SUCCESS(setArgs(apply, {usm(data)}));
        ASSERT_ZE_SUCCESS(setArgs(read, {usm(bias)}));
        ASSERT_ZE_SUCCESS(launch(list_, apply, {uint32_t(n / 16), 1, 1}));
        ASSERT_ZE_SUCCESS(launch(list_, read, {1, 1, 1}));
        ASSERT_NO_FATAL_FAILURE(sync());
        for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(data[i], 3 * testValue(i) + 14) << i;
        EXPECT_EQ(bias[0], 7);
    }

    std::vector<uint8_t> library_, kernels_;
};

TEST_F(ModuleProgramTest, ExtensionIsAnnounced) {
    uint32_t count = 0;
    ASSERT_ZE_SUCCESS(zeDriverGetExtensionProperties(driver_, &count, nullptr));
    std::vector<ze_driver_extension_properties_t> extensions(count);
    ASSERT_ZE_SUCCESS(zeDriverGetExtensionProperties(driver_, &count, extensions.data()));
    bool found = false;
    for (const auto &e : extensions)
        if (std::string(e.name) == ZE_MODULE_PROGRAM_EXP_NAME) {
            found = true;
            EXPECT_EQ(e.version, uint32_t(ZE_MODULE_PROGRAM_EXP_VERSION_1_0));
        }
    EXPECT_TRUE(found);
}

// A kernel module calls a function and reads a variable of a library module
// without kernels, whichever comes first.
TEST_F(ModuleProgramTest, ImportsAreBoundToExportsInEitherOrder) {
    for (bool libraryFirst : {false, true}) {
        SCOPED_TRACE(libraryFirst ? "library first" : "kernels first");
        Module module;
        std::string log;
        const ze_result_t r = libraryFirst ? createProgram({&library_, &kernels_}, module, &log)
                                           : createProgram({&kernels_, &library_}, module, &log);
        ASSERT_ZE_SUCCESS(r) << log;
        uint32_t count = 0;
        ASSERT_ZE_SUCCESS(zeModuleGetKernelNames(module, &count, nullptr));
        EXPECT_EQ(count, 2u);
        ASSERT_NO_FATAL_FAILURE(checkLinkedKernels(module));
    }
}

// Three modules, the specialization constants of each applied to it alone.
TEST_F(ModuleProgramTest, EachModuleHasItsOwnConstants) {
    const std::vector<uint8_t> spec = loadSpirv("spec_constants");
    ASSERT_FALSE(spec.empty());
    const uint32_t ids[] = {7, 9};
    const int32_t v7 = -1234;
    const int64_t v9 = int64_t(1) << 40;
    const void *values[] = {&v7, &v9};
    const ze_module_constants_t constants = {2, ids, values};
    Module module;
    std::string log;
    ASSERT_ZE_SUCCESS(
        createProgram({&library_, &spec, &kernels_}, module, &log, {nullptr, &constants, nullptr}))
        << log;
    ASSERT_NO_FATAL_FAILURE(checkLinkedKernels(module));
    Kernel kernel;
    ASSERT_NO_FATAL_FAILURE(loadKernel(kernel, module, "spec_values", 1));
    UsmBuffer<int64_t> out;
    ASSERT_NO_FATAL_FAILURE(allocate(out, UsmKind::Shared, 2));
    out[0] = out[1] = 0;
    ASSERT_ZE_SUCCESS(setArgs(kernel, {usm(out)}));
    ASSERT_ZE_SUCCESS(launch(list_, kernel, {1, 1, 1}));
    ASSERT_NO_FATAL_FAILURE(sync());
    EXPECT_EQ(out[0], -1234);
    EXPECT_EQ(out[1], int64_t(1) << 40);
}

// What does not link fails the build, the log naming the symbol: an import
// nobody exports, a symbol two modules export.
TEST_F(ModuleProgramTest, WhatDoesNotLinkFailsNamingTheSymbol) {
    {
        SCOPED_TRACE("imports without their exports");
        const std::vector<uint8_t> basic = loadSpirv("basic");
        Module module;
        std::string log;
        EXPECT_ZE_RESULT(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
                         createProgram({&kernels_, &basic}, module, &log));
        if (buildLogOfAFailedBuildIsUsable())
            EXPECT_TRUE(log.find("scaled") != std::string::npos ||
                        log.find("bias") != std::string::npos)
                << log;
    }
    {
        SCOPED_TRACE("exported twice");
        Module module;
        std::string log;
        EXPECT_ZE_RESULT(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
                         createProgram({&kernels_, &library_, &library_}, module, &log));
        if (buildLogOfAFailedBuildIsUsable()) {
            EXPECT_NE(log.find("SPIR-V module 3"), std::string::npos) << log;
            EXPECT_TRUE(log.find("'scaled'") != std::string::npos ||
                        log.find("'bias'") != std::string::npos)
                << log;
        }
    }
    // The context is still usable.
    Module module;
    ASSERT_ZE_SUCCESS(createProgram({&kernels_, &library_}, module));
    ASSERT_NO_FATAL_FAILURE(checkLinkedKernels(module));
}

// Wrong descriptions are refused with the result that says what is wrong;
// a module that is not SPIR-V is named in the log.
TEST_F(ModuleProgramTest, BadDescriptionsAreRefused) {
    const uint8_t *inputs[] = {kernels_.data(), library_.data()};
    size_t sizes[] = {kernels_.size(), library_.size()};
    ze_module_program_exp_desc_t program = {ZE_STRUCTURE_TYPE_MODULE_PROGRAM_EXP_DESC};
    program.count = 2;
    program.inputSizes = sizes;
    program.pInputModules = inputs;
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC, &program};
    desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    desc.inputSize = kernels_.size();
    desc.pInputModule = kernels_.data();
    desc.pBuildFlags = "";
    auto create = [&] {
        ze_module_handle_t module = nullptr;
        const ze_result_t r = zeModuleCreate(context_, device_, &desc, &module, nullptr);
        if (r == ZE_RESULT_SUCCESS)
            zeModuleDestroy(module);
        return r;
    };
    program.count = 0;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_SIZE, create());
    program.count = 2;
    program.pInputModules = nullptr;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, create());
    program.pInputModules = inputs;
    inputs[1] = nullptr;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, create());
    inputs[1] = library_.data();
    sizes[1] = 0;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_SIZE, create());
    sizes[1] = library_.size();
    desc.format = ZE_MODULE_FORMAT_NATIVE;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, create());
    desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    EXPECT_ZE_SUCCESS(create());

    std::vector<uint8_t> garbage(64, 0x5a);
    Module module;
    std::string log;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_MODULE_BUILD_FAILURE,
                     createProgram({&kernels_, &garbage}, module, &log));
    if (buildLogOfAFailedBuildIsUsable())
        EXPECT_NE(log.find("SPIR-V module 2 of 2: input is not SPIR-V"), std::string::npos) << log;
}

} // namespace
} // namespace zetest
