// Modules and kernels on libze_cuda.so, through the system loader (the CUDA
// driver alone): the driver tests' SPIR-V kernels built into PTX and run on
// the GPU, their results checked against the host. Inputs go to device
// memory and results come back through copies; device memory is never
// touched by the host. Without an NVIDIA GPU every test says it skipped.
#include "cuda_test.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <thread>

#include <unistd.h>

namespace zetest {
namespace {

using CudaKernels = WithCudaModules;

// n test values (testValue), converted to T (narrow types keep their low bits).
template <class T = int> std::vector<T> values(size_t n, int seed) {
    std::vector<T> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = T(testValue(i, seed));
    return v;
}

TEST_F(CudaKernels, VectorAddInDeviceMemory) {
    constexpr size_t n = 1 << 20;
    std::vector<int> a = values(n, 1), b = values(n, 2);
    int *da = deviceWith(a), *db = deviceWith(b), *dc = device<int>(n);
    ze_kernel_handle_t k = kernel(module("basic"), "vector_add", 256);
    void *pa = da, *pb = db, *pc = dc;
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pa), pointer(pb), pointer(pc)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 256, 1, 1}));
    std::vector<int> c = read(dc, n);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(c[i], a[i] + b[i]) << i;
}

// __local arguments become offsets into the launch's dynamic shared memory;
// two of them side by side must not overlap, and barriers must hold.
TEST_F(CudaKernels, LocalMemoryReductionWithBarriers) {
    constexpr uint32_t group = 256, groups = 512;
    std::vector<int> in = values(size_t(group) * groups, 3);
    int *din = deviceWith(in), *dpartial = device<int>(groups);
    ze_kernel_handle_t k = kernel(module("reduce"), "reduce_sum", group);
    void *pin = din, *pp = dpartial;
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pin), pointer(pp), localBytes(group * sizeof(int))}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {groups, 1, 1}));
    std::vector<int> partial = read(dpartial, groups);
    for (uint32_t g = 0; g < groups; ++g) {
        int sum = 0;
        for (uint32_t i = 0; i < group; ++i)
            sum += in[size_t(g) * group + i];
        ASSERT_EQ(partial[g], sum) << g;
    }
    // More local memory than a group has is refused when set.
    uint64_t limit = 0;
    ze_device_compute_properties_t compute = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetComputeProperties(device_, &compute));
    limit = compute.maxSharedLocalMemory;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_ARGUMENT_SIZE,
                     zeKernelSetArgumentValue(k, 2, limit + 1, nullptr));
}

// Local memory past the 48 KiB every CUDA launch gets: the device reports
// what a block may have once its function opts in, and launches up to that
// run, through a local argument alone (all of it, then a small launch of the
// same kernel), through the kernel's own 64 KiB array (which the translation
// moves to the dynamic shared memory) with an argument after it, and through
// an own 32 KiB array (static) with one after it. One word more than an
// array and its argument may have together is refused at the append.
TEST_F(CudaKernels, LocalMemoryBeyondWhatEveryLaunchGets) {
    ze_device_compute_properties_t compute = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetComputeProperties(device_, &compute));
    if (compute.maxSharedLocalMemory <= 96 * 1024)
        GTEST_SKIP() << "this GPU's blocks have " << compute.maxSharedLocalMemory
                     << " bytes of shared memory";
    constexpr uint32_t group = 1024, groups = 4;
    ze_module_handle_t m = cudaModule("large_local");
    ze_kernel_handle_t argument = kernel(m, "reverse_through_local", group);
    ze_kernel_handle_t own64k = kernel(m, "reverse_through_64k_own", group);
    ze_kernel_handle_t own32k = kernel(m, "reverse_through_32k_own", group);
    // Launches k with `words` a group and `argBytes` of local argument, and
    // checks that each group's slice came back reversed.
    auto run = [&](ze_kernel_handle_t k, uint32_t words, size_t argBytes) {
        std::vector<int> in = values(size_t(words) * groups, 7);
        int *din = deviceWith(in), *dout = device<int>(in.size());
        void *pin = din, *pout = dout;
        ASSERT_ZE_SUCCESS(
            setArgs(k, {pointer(pin), pointer(pout), localBytes(argBytes), byValue(words)}));
        ASSERT_ZE_SUCCESS(launch(list_, k, {groups, 1, 1}));
        std::vector<int> out = read(dout, in.size());
        for (size_t g = 0; g < groups; ++g)
            for (size_t i = 0; i < words; ++i)
                ASSERT_EQ(out[g * words + i], in[g * words + words - 1 - i])
                    << words << " words, group " << g << ", word " << i;
    };
    const uint32_t allWords = compute.maxSharedLocalMemory / sizeof(int);
    run(argument, allWords, size_t(allWords) * sizeof(int));
    run(argument, 2048, 2048 * sizeof(int));
    for (auto [k, ownWords] : {std::pair{own64k, 16384u}, std::pair{own32k, 8192u}}) {
        // Its own local memory, moved or not.
        ze_kernel_properties_t properties = {ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
        ASSERT_ZE_SUCCESS(zeKernelGetProperties(k, &properties));
        EXPECT_EQ(properties.localMemSize, ownWords * sizeof(int));
        const size_t restBytes = size_t(allWords - ownWords) * sizeof(int);
        run(k, allWords, restBytes);
        void *unused = device<int>(1);
        uint32_t words = allWords;
        ASSERT_ZE_SUCCESS(setArgs(k, {pointer(unused), pointer(unused),
                                      localBytes(restBytes + sizeof(int)), byValue(words)}));
        EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, launch(list_, k, {groups, 1, 1}))
            << ownWords << " words of its own";
    }
}

// A kernel's own 44 KiB array and the work-group functions' 8 KiB scratch,
// which another kernel of the module shares, are more than ptxas lets a
// kernel declare: the translation moves the array, and both the reversal
// through it and the group's sum come out right.
TEST_F(CudaKernels, OwnLocalArrayBesideTheWorkGroupFunctionsScratch) {
    constexpr uint32_t words = 11264, group = 1024, groups = 4; // large_local.cl's OWN_44K
    std::vector<int> in = values(size_t(words) * groups, 8);
    int *din = deviceWith(in), *dout = device<int>(in.size()), *dsums = device<int>(groups);
    void *pin = din, *pout = dout, *psums = dsums;
    ze_kernel_handle_t k = kernel(cudaModule("large_local"), "reverse_and_sum", group);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pin), pointer(pout), pointer(psums)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {groups, 1, 1}));
    std::vector<int> out = read(dout, in.size()), sums = read(dsums, groups);
    for (size_t g = 0; g < groups; ++g) {
        int sum = 0;
        for (size_t i = 0; i < words; ++i) {
            sum += in[g * words + i];
            ASSERT_EQ(out[g * words + i], in[g * words + words - 1 - i]) << g << ", " << i;
        }
        EXPECT_EQ(sums[g], sum) << g;
    }
}

// Scalars of every width, a vector, a double and a struct with padding, by
// value: each lands where the kernel's parameter layout says.
TEST_F(CudaKernels, ArgumentsByValue) {
    ze_module_handle_t m = module("struct_arg");
    long *dout = device<long>(8);
    void *pout = dout;
    ze_kernel_handle_t k = kernel(m, "scalars", 1);
    char c = -7;
    short s = -300;
    int i = 123456;
    long l = -(1L << 40);
    float f = 2.5f;
    uint8_t v[4] = {1, 2, 3, 4};
    double d = 0.625;
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pout), byValue(c), byValue(s), byValue(i), byValue(l),
                                  byValue(f), Arg{4, v}, byValue(d)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {1, 1, 1}));
    std::vector<long> out = read(dout, 7);
    EXPECT_EQ(out[0], -7);
    EXPECT_EQ(out[1], -300);
    EXPECT_EQ(out[2], 123456);
    EXPECT_EQ(out[3], -(1L << 40));
    EXPECT_EQ(out[4], 10);
    EXPECT_EQ(out[5], 1 + 256 * (2 + 256 * (3 + 256 * 4)));
    EXPECT_EQ(out[6], 5);

    struct Params {
        int offset;
        float scale;
        long big;
        char tag;
    } p = {5, 1.5f, 1L << 33, 9};
    constexpr size_t n = 1000;
    std::vector<int> in = values(n, 4);
    int *din = deviceWith(in);
    long *dres = device<long>(n);
    void *pin = din, *pres = dres;
    ze_kernel_handle_t apply = kernel(m, "apply_params", 8);
    ASSERT_ZE_SUCCESS(setArgs(apply, {pointer(pres), pointer(pin), byValue(p)}));
    ASSERT_ZE_SUCCESS(launch(list_, apply, {n / 8, 1, 1}));
    std::vector<long> res = read(dres, n);
    for (size_t j = 0; j < n; ++j)
        ASSERT_EQ(res[j], long(float(in[j]) * p.scale) + p.offset + p.big + p.tag) << j;
}

// A table in the constant address space, and USM pointers the kernel finds
// in memory rather than in its arguments.
TEST_F(CudaKernels, ConstantTablesAndPointersInMemory) {
    ze_module_handle_t m = module("struct_arg");
    constexpr size_t n = 4096;
    std::vector<int> table = values(64, 5);
    std::vector<uint32_t> index(n);
    for (size_t i = 0; i < n; ++i)
        index[i] = uint32_t(i * 7 % 64);
    int *dtable = deviceWith(table), *dout = device<int>(n);
    uint32_t *dindex = deviceWith(index);
    void *ptable = dtable, *pout = dout, *pindex = dindex;
    ze_kernel_handle_t lookup = kernel(m, "lookup", 64);
    ASSERT_ZE_SUCCESS(setArgs(lookup, {pointer(pout), pointer(ptable), pointer(pindex)}));
    ASSERT_ZE_SUCCESS(launch(list_, lookup, {n / 64, 1, 1}));
    std::vector<int> out = read(dout, n);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], table[index[i]]) << i;

    std::vector<int> t0 = values(n, 6), t1 = values(n, 7), viewed = values(n, 8);
    std::vector<int *> tables = {deviceWith(t0), deviceWith(t1)};
    int *const *dtables = deviceWith(tables);
    int *dviewed = deviceWith(viewed);
    struct View {
        uint64_t data;
        int scale;
    } view = {reinterpret_cast<uint64_t>(dviewed), 3};
    uint32_t ntables = 2;
    void *ptables = const_cast<int **>(dtables);
    ze_kernel_handle_t gather = kernel(m, "gather_indirect", 64);
    ASSERT_ZE_SUCCESS(
        setArgs(gather, {pointer(pout), pointer(ptables), byValue(ntables), byValue(view)}));
    ASSERT_ZE_SUCCESS(launch(list_, gather, {n / 64, 1, 1}));
    out = read(dout, n);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], t0[i] + t1[i] + 3 * viewed[i]) << i;
}

TEST_F(CudaKernels, GlobalAtomicsLoseNoUpdate) {
    ze_module_handle_t m = module("atomics");
    constexpr size_t n = 1 << 20;
    constexpr uint32_t nbins = 17;
    std::vector<uint32_t> in(n);
    for (size_t i = 0; i < n; ++i)
        in[i] = uint32_t(i * 2654435761u >> 7);
    uint32_t *din = deviceWith(in), *dbins = deviceWith(std::vector<uint32_t>(nbins, 0));
    void *pin = din, *pbins = dbins;
    ze_kernel_handle_t histogram = kernel(m, "histogram", 128);
    ASSERT_ZE_SUCCESS(setArgs(histogram, {pointer(pin), pointer(pbins), byValue(nbins)}));
    ASSERT_ZE_SUCCESS(launch(list_, histogram, {n / 128, 1, 1}));
    std::vector<uint32_t> bins = read(dbins, nbins), expected(nbins, 0);
    for (uint32_t v : in)
        ++expected[v % nbins];
    EXPECT_EQ(bins, expected);

    std::vector<int> v = values(n, 9);
    int *dv = deviceWith(v), *dsum = deviceWith(std::vector<int>{0}),
        *dmax = deviceWith(std::vector<int>{-1000000});
    void *pv = dv, *psum = dsum, *pmax = dmax;
    ze_kernel_handle_t summax = kernel(m, "atomic_sum_max", 256);
    ASSERT_ZE_SUCCESS(setArgs(summax, {pointer(pv), pointer(psum), pointer(pmax)}));
    ASSERT_ZE_SUCCESS(launch(list_, summax, {n / 256, 1, 1}));
    long long sum = 0;
    for (int x : v)
        sum += x;
    EXPECT_EQ(read(dsum, 1)[0], int(sum));
    EXPECT_EQ(read(dmax, 1)[0], *std::max_element(v.begin(), v.end()));
}

// Every work-item's global and group ids in a 3D launch, without and with a
// global offset, and a kernel's required group size, which is the group
// size it gets.
TEST_F(CudaKernels, ThreeDimensionalLaunchesGlobalOffsetsAndRequiredGroupSizes) {
    ze_module_handle_t m = module("basic");
    constexpr uint32_t w = 16, h = 6, d = 4; // groups of 4x2x2
    constexpr size_t n = size_t(w) * h * d;
    uint32_t *dids = device<uint32_t>(4 * n), *dgroups = device<uint32_t>(4 * n);
    void *pids = dids, *pgroups = dgroups;
    ze_kernel_handle_t k = kernel(m, "record_ids", 4, 2, 2);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pids), pointer(pgroups), byValue(w), byValue(h)}));
    for (uint32_t offset : {0u, 1u}) {
        SCOPED_TRACE(offset ? "offset (5, 3, 1)" : "no offset");
        const uint32_t ox = 5 * offset, oy = 3 * offset, oz = offset;
        ASSERT_ZE_SUCCESS(zeKernelSetGlobalOffsetExp(k, ox, oy, oz));
        ASSERT_ZE_SUCCESS(launch(list_, k, {w / 4, h / 2, d / 2}));
        std::vector<uint32_t> ids = read(dids, 4 * n), groups = read(dgroups, 4 * n);
        for (uint32_t z = 0; z < d; ++z)
            for (uint32_t y = 0; y < h; ++y)
                for (uint32_t x = 0; x < w; ++x) {
                    size_t i = 4 * ((size_t(z) * h + y) * w + x);
                    ASSERT_EQ(ids[i], x + ox);
                    ASSERT_EQ(ids[i + 1], y + oy);
                    ASSERT_EQ(ids[i + 2], z + oz);
                    ASSERT_EQ(groups[i], x / 4);
                    ASSERT_EQ(groups[i + 1], y / 2);
                    ASSERT_EQ(groups[i + 2], z / 2);
                    ASSERT_EQ(groups[i + 3], x % 4 + 4 * (y % 2 + 2 * (z % 2)));
                }
    }

    ze_kernel_handle_t fixed = kernel(m, "fixed_group", 8, 2, 1);
    ze_kernel_properties_t props = {ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeKernelGetProperties(fixed, &props));
    EXPECT_EQ(props.requiredGroupSizeX, 8u);
    EXPECT_EQ(props.requiredGroupSizeY, 2u);
    EXPECT_EQ(props.maxSubgroupSize, 32u);
    EXPECT_EQ(props.numKernelArgs, 1u);
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_GROUP_SIZE_DIMENSION,
                     zeKernelSetGroupSize(fixed, 4, 2, 1));
    int *dout = device<int>(64);
    void *pout = dout;
    ASSERT_ZE_SUCCESS(setArgs(fixed, {pointer(pout)}));
    ASSERT_ZE_SUCCESS(launch(list_, fixed, {2, 2, 1}));
    std::vector<int> out = read(dout, 64);
    for (int v : out)
        ASSERT_EQ(v, 802);
    uint32_t gx = 0, gy = 0, gz = 0;
    ASSERT_ZE_SUCCESS(zeKernelSuggestGroupSize(k, 1 << 20, 1, 1, &gx, &gy, &gz));
    EXPECT_EQ(gx, 1024u);
}

// Launches on two lists ordered by events, the first gated by an event the
// host sets later: the order of the in-place updates shows in the result,
// and nothing runs before the host's signal.
TEST_F(CudaKernels, LaunchesOrderedByEventsAcrossListsAndTheHost) {
    constexpr size_t n = 1 << 16;
    std::vector<int> in = values(n, 10);
    int *data = deviceWith(in);
    void *p = data;
    ze_module_handle_t m = module("basic");
    ze_kernel_handle_t k = kernel(m, "mul_add_inplace", 256);
    ze_command_list_handle_t other = immediate(ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
    ze_event_handle_t gate = event(), first = event(), second = event();
    int mul = 3, add = -2;
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(p), byValue(mul), byValue(add)}));
    ASSERT_ZE_SUCCESS(launch(other, k, {n / 256, 1, 1}, first, {gate}));
    mul = 2;
    add = 7;
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(p), byValue(mul), byValue(add)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 256, 1, 1}, second, {first}));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(zeEventQueryStatus(second), ZE_RESULT_NOT_READY);
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    ASSERT_ZE_SUCCESS(zeEventHostSynchronize(second, UINT64_MAX));
    std::vector<int> out = read(data, n);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], (in[i] * 3 - 2) * 2 + 7) << i;
}

// A regular list keeps the values set when each launch was appended, and
// replays them at every execution.
TEST_F(CudaKernels, RegularListsReplayTheValuesOfEachAppend) {
    constexpr size_t n = 1 << 12;
    std::vector<int> in = values(n, 11);
    int *data = deviceWith(in);
    void *p = data;
    ze_kernel_handle_t k = kernel(module("basic"), "mul_add_inplace", 64);
    ze_command_queue_desc_t qd = {ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC};
    ze_command_queue_handle_t queue = nullptr;
    ASSERT_ZE_SUCCESS(zeCommandQueueCreate(context_, device_, &qd, &queue));
    ze_command_list_desc_t ld = {ZE_STRUCTURE_TYPE_COMMAND_LIST_DESC};
    ze_command_list_handle_t list = nullptr;
    ASSERT_ZE_SUCCESS(zeCommandListCreate(context_, device_, &ld, &list));
    int mul = 2, add = 1;
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(p), byValue(mul), byValue(add)}));
    ASSERT_ZE_SUCCESS(launch(list, k, {n / 64, 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list, nullptr, 0, nullptr));
    mul = -1;
    add = 5;
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(p), byValue(mul), byValue(add)}));
    ASSERT_ZE_SUCCESS(launch(list, k, {n / 64, 1, 1}));
    ASSERT_ZE_SUCCESS(zeCommandListClose(list));
    mul = 100; // after the appends: no effect on them
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(k, 1, sizeof(mul), &mul));
    for (int run = 0; run < 3; ++run)
        ASSERT_ZE_SUCCESS(zeCommandQueueExecuteCommandLists(queue, 1, &list, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandQueueSynchronize(queue, UINT64_MAX));
    std::vector<int> out = read(data, n);
    for (size_t i = 0; i < n; ++i) {
        int v = in[i];
        for (int run = 0; run < 3; ++run)
            v = -(v * 2 + 1) + 5;
        ASSERT_EQ(out[i], v) << i;
    }
    EXPECT_ZE_SUCCESS(zeCommandListDestroy(list));
    EXPECT_ZE_SUCCESS(zeCommandQueueDestroy(queue));
}

TEST_F(CudaKernels, SpecializationConstantsTakeTheirValues) {
    std::vector<uint8_t> spirv = loadSpirv("spec_constants");
    uint32_t ids[] = {7, 9};
    int v7 = 1234;
    long v9 = -(1L << 35);
    const void *vals[] = {&v7, &v9};
    ze_module_constants_t constants = {2, ids, vals};
    ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
    desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
    desc.inputSize = spirv.size();
    desc.pInputModule = spirv.data();
    desc.pConstants = &constants;
    modules_.emplace_back();
    ASSERT_ZE_SUCCESS(zeModuleCreate(context_, device_, &desc, modules_.back().out(), nullptr));
    long *dout = device<long>(2);
    void *pout = dout;
    ze_kernel_handle_t k = kernel(modules_.back(), "spec_values", 1);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pout)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {1, 1, 1}));
    std::vector<long> out = read(dout, 2);
    EXPECT_EQ(out[0], 1234);
    EXPECT_EQ(out[1], -(1L << 35));
}

// A module's native binary (its PTX and kernel metadata) builds a module
// that runs; a damaged one is refused with the reason.
TEST_F(CudaKernels, NativeBinariesBuildModulesAgain) {
    ze_module_handle_t m = module("basic");
    size_t size = 0;
    ASSERT_ZE_SUCCESS(zeModuleGetNativeBinary(m, &size, nullptr));
    std::vector<uint8_t> binary(size);
    ASSERT_ZE_SUCCESS(zeModuleGetNativeBinary(m, &size, binary.data()));
    modules_.emplace_back();
    ASSERT_ZE_SUCCESS(
        createModule(context_, device_, binary, ZE_MODULE_FORMAT_NATIVE, modules_.back()));
    ze_kernel_handle_t k = kernel(modules_.back(), "scale_add", 64);
    std::vector<int> in = values(256, 12);
    int *din = deviceWith(in), *dout = device<int>(256);
    void *pin = din, *pout = dout;
    int factor = 3, bias = -4;
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pout), pointer(pin), byValue(factor), byValue(bias)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {4, 1, 1}));
    std::vector<int> out = read(dout, 256);
    for (size_t i = 0; i < 256; ++i)
        ASSERT_EQ(out[i], in[i] * 3 - 4) << i;

    binary[binary.size() / 2] ^= 0x40;
    std::string log =
        refusedBuild(binary, ZE_MODULE_FORMAT_NATIVE, ZE_RESULT_ERROR_INVALID_NATIVE_BINARY);
    EXPECT_NE(log.find("checksum"), std::string::npos) << log;
}

// Indirect launches read their group counts when they run: here the counts
// are copied into device memory by work that waits for an event the host
// sets after the appends; several kernels with a count in host memory run
// as many of them as it says.
TEST_F(CudaKernels, IndirectLaunchesReadTheirCountsWhenTheyRun) {
    ze_module_handle_t m = module("basic");
    ze_kernel_handle_t inc = kernel(m, "increment", 64), mul = kernel(m, "mul_add_inplace", 64);
    constexpr size_t n = 64 * 40;
    std::vector<int> in = values(n, 13);
    int *data = deviceWith(in);
    void *p = data;
    int two = 2, one = 1;
    ASSERT_ZE_SUCCESS(setArgs(inc, {pointer(p)}));
    ASSERT_ZE_SUCCESS(setArgs(mul, {pointer(p), byValue(two), byValue(one)}));
    ze_group_count_t *dcounts = device<ze_group_count_t>(2), *hcounts = host<ze_group_count_t>(2);
    hcounts[0] = {30, 1, 1}; // increments the first 30 groups' items
    hcounts[1] = {40, 1, 1};
    ze_event_handle_t gate = event();
    ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(
        list_, dcounts, hcounts, 2 * sizeof(ze_group_count_t), nullptr, 1, &gate));
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendLaunchKernelIndirect(list_, inc, dcounts, nullptr, 0, nullptr));
    uint32_t *howMany = host<uint32_t>(1);
    *howMany = 1; // of the two kernels below, only the first runs
    ze_kernel_handle_t both[] = {mul, inc};
    ASSERT_ZE_SUCCESS(zeCommandListAppendLaunchMultipleKernelsIndirect(
        list_, 2, both, howMany, dcounts + 1, nullptr, 0, nullptr));
    hcounts[0] = {20, 1, 1}; // before the gate opens: the launch reads this
    ASSERT_ZE_SUCCESS(zeEventHostSignal(gate));
    std::vector<int> out = read(data, n);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], (in[i] + (i < 20 * 64 ? 1 : 0)) * 2 + 1) << i;
}

// Kernel timestamps are the kernels' own times on the device: each launch
// takes time, in-order launches do not overlap, all lie between two reads
// of the device's clock around them, and zeCommandListAppendQueryKernelTimestamps
// (here into device memory) reports the same as the events.
TEST_F(CudaKernels, KernelTimestampsAreTheKernelsTimes) {
    ze_event_pool_desc_t desc = {
        ZE_STRUCTURE_TYPE_EVENT_POOL_DESC, nullptr,
        ZE_EVENT_POOL_FLAG_HOST_VISIBLE | ZE_EVENT_POOL_FLAG_KERNEL_TIMESTAMP, 3};
    ze_event_pool_handle_t pool = nullptr;
    ASSERT_ZE_SUCCESS(zeEventPoolCreate(context_, &desc, 1, &device_, &pool));
    ze_event_handle_t timed[3] = {};
    for (uint32_t i = 0; i < 3; ++i) {
        ze_event_desc_t e = {ZE_STRUCTURE_TYPE_EVENT_DESC, nullptr, i, ZE_EVENT_SCOPE_FLAG_HOST,
                             ZE_EVENT_SCOPE_FLAG_HOST};
        ASSERT_ZE_SUCCESS(zeEventCreate(pool, &e, &timed[i]));
    }
    constexpr size_t n = size_t(1) << 24; // 64 MiB: tens of microseconds a pass
    int *data = device<int>(n);
    void *p = data;
    ze_kernel_handle_t k = kernel(module("basic"), "mul_add_inplace", 256);
    int mul = 1, add = 1, zero = 0;
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(p), byValue(mul), byValue(add)}));
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryFill(list_, data, &zero, 4, n * 4, nullptr, 0, nullptr));
    sync(list_);
    uint64_t hostBefore = 0, before = 0, hostAfter = 0, after = 0;
    ASSERT_ZE_SUCCESS(zeDeviceGetGlobalTimestamps(device_, &hostBefore, &before));
    for (ze_event_handle_t e : timed)
        ASSERT_ZE_SUCCESS(launch(list_, k, {n / 256, 1, 1}, e));
    ze_kernel_timestamp_result_t *queried = device<ze_kernel_timestamp_result_t>(3);
    ASSERT_ZE_SUCCESS(zeCommandListAppendQueryKernelTimestamps(list_, 3, timed, queried, nullptr,
                                                               nullptr, 0, nullptr));
    std::vector<ze_kernel_timestamp_result_t> fromList = read(queried, 3);
    ASSERT_ZE_SUCCESS(zeDeviceGetGlobalTimestamps(device_, &hostAfter, &after));
    for (uint32_t i = 0; i < 3; ++i) {
        ze_kernel_timestamp_result_t ts = {};
        ASSERT_ZE_SUCCESS(zeEventQueryKernelTimestamp(timed[i], &ts));
        SCOPED_TRACE(i);
        EXPECT_LT(ts.global.kernelStart, ts.global.kernelEnd);
        EXPECT_LE(before, ts.global.kernelStart);
        EXPECT_LE(ts.global.kernelEnd, after);
        EXPECT_EQ(ts.global.kernelStart, fromList[i].global.kernelStart);
        EXPECT_EQ(ts.global.kernelEnd, fromList[i].global.kernelEnd);
        EXPECT_EQ(ts.context.kernelEnd, ts.global.kernelEnd);
        if (i > 0) {
            ze_kernel_timestamp_result_t previous = {};
            ASSERT_ZE_SUCCESS(zeEventQueryKernelTimestamp(timed[i - 1], &previous));
            EXPECT_LE(previous.global.kernelEnd, ts.global.kernelStart);
        }
    }
    std::vector<int> out = read(data, 16);
    for (int v : out)
        ASSERT_EQ(v, 3);
    for (ze_event_handle_t e : timed)
        EXPECT_ZE_SUCCESS(zeEventDestroy(e));
    EXPECT_ZE_SUCCESS(zeEventPoolDestroy(pool));
}

// The builtins this backend defines itself (missing_builtins.cpp): printf,
// whose line CUDA prints when the module is unloaded at the latest, and
// atomics on generic pointers.
TEST_F(CudaKernels, PrintfAndGenericAddressAtomics) {
    std::vector<uint8_t> spirv =
        readFile(std::string(ZE_CUDA_TEST_SPIRV_DIR) + "/cuda_builtins.spv");
    modules_.emplace_back();
    ASSERT_ZE_SUCCESS(
        createModule(context_, device_, spirv, ZE_MODULE_FORMAT_IL_SPIRV, modules_.back()));
    ze_module_handle_t m = modules_.back();
    int *out = device<int>(64);
    void *pout = out;
    ze_kernel_handle_t print = kernel(m, "print_and_double", 64);
    ASSERT_ZE_SUCCESS(setArgs(print, {pointer(pout)}));
    // CUDA writes the line to the process's standard output: caught in a file.
    std::fflush(stdout);
    FILE *caught = std::tmpfile();
    ASSERT_NE(caught, nullptr);
    int saved = dup(STDOUT_FILENO);
    dup2(fileno(caught), STDOUT_FILENO);
    // The line is printed by the time the host's wait for the launch
    // returns (an event; CUDA itself prints only at its own synchronizations).
    ze_event_handle_t printed = event();
    EXPECT_ZE_SUCCESS(launch(list_, print, {1, 1, 1}, printed));
    EXPECT_ZE_SUCCESS(zeEventHostSynchronize(printed, UINT64_MAX));
    std::fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    std::rewind(caught);
    char line[256] = {};
    if (!std::fgets(line, sizeof(line), caught))
        line[0] = '\0';
    std::fclose(caught);
    EXPECT_EQ(line, std::string("print_and_double: 64 work-items, 2.5, done\n"));
    std::vector<int> doubled = read(out, 64);
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(doubled[i], 2 * i) << i;

    modules_.emplace_back();
    ASSERT_ZE_SUCCESS(
        createModule(context_, device_, spirv, ZE_MODULE_FORMAT_IL_SPIRV, modules_.back()));
    constexpr uint32_t n = 4096;
    int *values = deviceWith(std::vector<int>{0, 0, 0, 0, 0});
    void *sum = values, *max = values + 1, *count = values + 2, *flag = values + 3,
         *winners = values + 4;
    ze_kernel_handle_t atomics = kernel(modules_.back(), "generic_atomics", 128);
    ASSERT_ZE_SUCCESS(setArgs(
        atomics, {pointer(sum), pointer(max), pointer(count), pointer(flag), pointer(winners)}));
    ASSERT_ZE_SUCCESS(launch(list_, atomics, {n / 128, 1, 1}));
    std::vector<int> result = read(values, 5);
    EXPECT_EQ(result[0], int(n * (n - 1) / 2));
    EXPECT_EQ(result[1], int(n - 1));
    EXPECT_EQ(result[2], int(n));
    EXPECT_EQ(result[3], 7);
    EXPECT_EQ(result[4], 1);
}

// Kernels on images run (image_builtins.cl); a kernel that calls an image
// builtin those do not define (a mipmapped image's read) is left out of its
// module, named in the log, and the module's other kernels build and run; a
// module of such kernels alone is refused, the builtin named.
TEST_F(CudaKernels, KernelsOnUnsupportedImagesAreLeftOutByName) {
    modules_.emplace_back();
    std::string mixedLog;
    ASSERT_ZE_SUCCESS(createModule(
        context_, device_, readFile(std::string(ZE_CUDA_TEST_SPIRV_DIR) + "/mixed_images.spv"),
        ZE_MODULE_FORMAT_IL_SPIRV, modules_.back(), "", &mixedLog));
    EXPECT_NE(mixedLog.find("kernel mipmapped_read calls image builtins"), std::string::npos)
        << mixedLog;
    uint32_t count = 0;
    ASSERT_ZE_SUCCESS(zeModuleGetKernelNames(modules_.back(), &count, nullptr));
    EXPECT_EQ(count, 2u);
    ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, "mipmapped_read"};
    ze_kernel_handle_t missing = nullptr;
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_KERNEL_NAME,
                     zeKernelCreate(modules_.back(), &desc, &missing));

    ze_image_desc_t imageDesc = {ZE_STRUCTURE_TYPE_IMAGE_DESC};
    imageDesc.type = ZE_IMAGE_TYPE_2D;
    imageDesc.format = {ZE_IMAGE_FORMAT_LAYOUT_8_8_8_8, ZE_IMAGE_FORMAT_TYPE_UNORM,
                        ZE_IMAGE_FORMAT_SWIZZLE_R,      ZE_IMAGE_FORMAT_SWIZZLE_G,
                        ZE_IMAGE_FORMAT_SWIZZLE_B,      ZE_IMAGE_FORMAT_SWIZZLE_A};
    imageDesc.width = 37;
    imageDesc.height = 5;
    ze_image_handle_t image = nullptr;
    ASSERT_ZE_SUCCESS(zeImageCreate(context_, device_, &imageDesc, &image));
    ze_kernel_handle_t width = kernel(modules_.back(), "image_width", 1);
    int *size = deviceWith(std::vector<int>(1, 0));
    void *out = size;
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(width, 0, sizeof(image), &image));
    ASSERT_ZE_SUCCESS(zeKernelSetArgumentValue(width, 1, sizeof(out), &out));
    ASSERT_ZE_SUCCESS(launch(list_, width, {1, 1, 1}));
    EXPECT_EQ(read(size, 1)[0], 5037);
    ASSERT_ZE_SUCCESS(zeImageDestroy(image));

    ze_kernel_handle_t addOne = kernel(modules_.back(), "add_one", 64);
    int *d = deviceWith(std::vector<int>(64, 41));
    void *p = d;
    ASSERT_ZE_SUCCESS(setArgs(addOne, {pointer(p)}));
    ASSERT_ZE_SUCCESS(launch(list_, addOne, {1, 1, 1}));
    for (int v : read(d, 64))
        ASSERT_EQ(v, 42);

    std::string log =
        refusedBuild(readFile(std::string(ZE_CUDA_TEST_SPIRV_DIR) + "/mipmapped_image.spv"),
                     ZE_MODULE_FORMAT_IL_SPIRV, ZE_RESULT_ERROR_MODULE_BUILD_FAILURE);
    EXPECT_NE(log.find("is an image builtin the CUDA backend does not define"), std::string::npos)
        << log;
}

// A program-scope variable has a device address (zeModuleGetGlobalPointer):
// its initial value and a kernel's update read through it.
TEST_F(CudaKernels, ProgramScopeVariablesHaveAddresses) {
    ze_module_handle_t m = module("globals");
    size_t size = 0;
    void *counter = nullptr;
    ASSERT_ZE_SUCCESS(zeModuleGetGlobalPointer(m, "counter", &size, &counter));
    EXPECT_EQ(size, sizeof(int));
    ASSERT_NE(counter, nullptr);
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_GLOBAL_NAME,
                     zeModuleGetGlobalPointer(m, "no_such_global", &size, &counter));
    void *again = nullptr;
    ASSERT_ZE_SUCCESS(zeModuleGetGlobalPointer(m, "counter", nullptr, &again));
    EXPECT_EQ(again, counter);
    EXPECT_EQ(read(static_cast<int *>(counter), 1)[0], 5) << "the initializer";
    ze_kernel_handle_t bump = kernel(m, "bump_counter", 1);
    ASSERT_ZE_SUCCESS(setArgs(bump, {byValue(10)}));
    ASSERT_ZE_SUCCESS(launch(list_, bump, {1, 1, 1}));
    EXPECT_EQ(read(static_cast<int *>(counter), 1)[0], 15) << "the kernel's update";
}

// A program of helper functions without kernels builds (a module with no
// kernel names), as on the OpenCL backend.
TEST_F(CudaKernels, ProgramWithoutKernelsBuilds) {
    ze_module_handle_t helpers = module("helpers_only");
    uint32_t count = 7;
    ASSERT_ZE_SUCCESS(zeModuleGetKernelNames(helpers, &count, nullptr));
    EXPECT_EQ(count, 0u);
}

// A program of two modules (ZE_experimental_module_program): the kernel
// module's function and variable imports are bound to the library module's
// exports, and the variable has one address.
TEST_F(CudaKernels, ProgramOfTwoModulesIsLinked) {
    std::vector<uint8_t> kernels = loadSpirv("linked_kernels");
    std::vector<uint8_t> library = loadSpirv("linked_library");
    modules_.emplace_back();
    std::string log;
    ASSERT_ZE_SUCCESS(
        createProgramModule(context_, device_, {&kernels, &library}, modules_.back(), &log))
        << log;
    ze_module_handle_t m = modules_.back();

    constexpr uint32_t n = 256;
    std::vector<int> in(n);
    for (uint32_t i = 0; i < n; ++i)
        in[i] = int(i * 37) - 4000;
    int *data = deviceWith(in);
    void *pdata = data;
    ze_kernel_handle_t apply = kernel(m, "apply_scaled", 64);
    ASSERT_ZE_SUCCESS(setArgs(apply, {pointer(pdata)}));
    ASSERT_ZE_SUCCESS(launch(list_, apply, {n / 64, 1, 1}));
    std::vector<int> out = read(data, n);
    for (uint32_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], 3 * in[i] + 14) << i;

    // The library's variable, written through its address, is what the
    // kernel module reads.
    void *bias = nullptr;
    ASSERT_ZE_SUCCESS(zeModuleGetGlobalPointer(m, "bias", nullptr, &bias));
    const int newBias = -21;
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryCopy(list_, bias, &newBias, sizeof(int), nullptr, 0, nullptr));
    int *seen = device<int>(1);
    void *pseen = seen;
    ze_kernel_handle_t readBias = kernel(m, "read_bias", 1);
    ASSERT_ZE_SUCCESS(setArgs(readBias, {pointer(pseen)}));
    ASSERT_ZE_SUCCESS(launch(list_, readBias, {1, 1, 1}));
    EXPECT_EQ(read(seen, 1)[0], newBias);
}

// mul24 and mad24 on operands beyond 24 bits compute the full product, as
// PoCL and NVIDIA's OpenCL do.
TEST_F(CudaKernels, Mul24IsTheFullProduct) {
    constexpr uint32_t n = 64;
    std::vector<int> a(n);
    std::vector<uint32_t> b(n);
    for (uint32_t i = 0; i < n; ++i) {
        a[i] = (i % 2 ? -1 : 1) * int(3000 + 977 * i); // up to 65,000: products beyond 24 bits
        b[i] = 40000u + 1013u * i;
    }
    int *da = deviceWith(a);
    uint32_t *db = deviceWith(b);
    int *out = device<int>(2 * n);
    uint32_t *uout = device<uint32_t>(2 * n);
    void *pa = da, *pb = db, *po = out, *pu = uout;
    ze_kernel_handle_t k = kernel(cudaModule("cuda_builtins"), "mul24_full", 64);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pa), pointer(pb), pointer(po), pointer(pu)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {1, 1, 1}));
    std::vector<int> got = read(out, 2 * n);
    std::vector<uint32_t> ugot = read(uout, 2 * n);
    for (uint32_t i = 0; i < n; ++i) {
        EXPECT_EQ(got[2 * i], int(uint32_t(a[i]) * uint32_t(a[i] + 3))) << i;
        EXPECT_EQ(got[2 * i + 1], a[i] * 7 + 11) << i;
        EXPECT_EQ(ugot[2 * i], b[i] * (b[i] + 3u)) << i;
        EXPECT_EQ(ugot[2 * i + 1], b[i] * 7u + 11u) << i;
    }
}

// clamp on integers (min(max(x, lo), hi): missing_builtins.hpp), signed,
// unsigned and on a vector with scalar bounds, values below, inside and above
// the bounds.
TEST_F(CudaKernels, IntegerClampIsMinOfMax) {
    constexpr uint32_t n = 256;
    std::vector<int> a(n);
    for (uint32_t i = 0; i < n; ++i)
        a[i] = (i % 2 ? -1 : 1) * int(37 * i); // -9,435 .. 9,435
    const int lo = -100, hi = 1000;
    const uint32_t ulo = 100, uhi = 5000;
    int *da = deviceWith(a), *out = device<int>(n);
    uint32_t *uout = device<uint32_t>(n);
    int16_t *vout = device<int16_t>(4 * n);
    void *pa = da, *po = out, *pu = uout, *pv = vout;
    ze_kernel_handle_t k = kernel(cudaModule("cuda_builtins"), "clamp_integers", 64);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pa), pointer(po), pointer(pu), pointer(pv), byValue(lo),
                                  byValue(hi), byValue(ulo), byValue(uhi)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    std::vector<int> got = read(out, n);
    std::vector<uint32_t> ugot = read(uout, n);
    std::vector<int16_t> vgot = read(vout, 4 * n);
    for (uint32_t i = 0; i < n; ++i) {
        const int x = a[i];
        EXPECT_EQ(got[i], std::min(std::max(x, lo), hi)) << i;
        EXPECT_EQ(ugot[i], std::min(std::max(uint32_t(x), ulo), uhi)) << i;
        const int16_t lanes[4] = {int16_t(x), int16_t(-x), int16_t(x >> 4), int16_t(x * 3)};
        for (int c = 0; c < 4; ++c)
            EXPECT_EQ(vgot[4 * i + c], std::min<int16_t>(std::max<int16_t>(lanes[c], lo), hi))
                << i << " lane " << c;
    }
}

// Steps of a Collatz-like walk under one of two rules, as the host counts
// them (unswitching.cl).
uint32_t collatzSteps(uint32_t h, bool firstRule, uint32_t limit) {
    uint32_t k = 0;
    for (; h > 1 && k < limit; ++k)
        if (firstRule)
            h = (h & 1) ? 3 * h + 1 : h / 2;
        else
            h = (h & 1) ? h + 1 : h / 4 + 1;
    return k;
}

// A loop unswitched on the kernel's argument (uniform_unswitch.hpp) runs the
// rule the argument picks, either way; the loop testing the work-item's id
// (not unswitched) mixes the rules by id.
TEST_F(CudaKernels, UnswitchedLoopsRunTheRuleTheArgumentPicks) {
    constexpr uint32_t n = 1024, limit = 300;
    std::vector<uint32_t> start(n);
    for (uint32_t i = 0; i < n; ++i)
        start[i] = 1 + 7919 * i % 100000;
    uint32_t *dstart = deviceWith(start), *steps = device<uint32_t>(n);
    void *ps = steps, *pst = dstart;
    ze_module_handle_t m = cudaModule("unswitching");
    for (const char *name : {"collatz_uniform_rule", "collatz_item_rule"})
        for (int rule : {3, 1}) {
            SCOPED_TRACE(std::string(name) + " rule " + std::to_string(rule));
            ze_kernel_handle_t k = kernel(m, name, 64);
            ASSERT_ZE_SUCCESS(
                setArgs(k, {pointer(ps), pointer(pst), byValue(rule), byValue(limit)}));
            ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
            std::vector<uint32_t> got = read(steps, n);
            const bool byItem = std::string(name) == "collatz_item_rule";
            for (uint32_t i = 0; i < n; ++i) {
                const bool firstRule = byItem ? int(i & 3) == rule : rule == 3;
                ASSERT_EQ(got[i], collatzSteps(start[i], firstRule, limit)) << i;
            }
        }
}

// Short searches unrolled four times with their exits in every copy
// (unroll_hints.hpp) stop where the rolled loop stops: runs of equal keys of
// every length, ending inside a group of four copies and at the table's
// start; values before, between and after the table's entries.
TEST_F(CudaKernels, UnrolledSearchesStopWhereTheLoopStops) {
    constexpr uint32_t n = 1024, table = 301;
    std::vector<uint32_t> keys(4 * n);
    for (uint32_t i = 0; i < 4 * n; ++i)
        keys[i] = i < 40 ? 7 : uint32_t(testValue(i, 9) + 1000) % 3; // a run from the start
    std::vector<float> sorted(table), values(n);
    for (uint32_t i = 0; i < table; ++i)
        sorted[i] = float(i) * 0.5f;
    for (uint32_t i = 0; i < n; ++i)
        values[i] = float((testValue(i, 10) + 1000) % 420) * 0.4f - 10.0f;
    uint32_t *dkeys = deviceWith(keys), *runs = device<uint32_t>(n);
    float *dsorted = deviceWith(sorted), *dvalues = deviceWith(values);
    int *found = device<int>(n);
    void *pk = dkeys, *pr = runs, *ps = dsorted, *pv = dvalues, *pf = found;
    ze_module_handle_t m = cudaModule("unrolling");
    ze_kernel_handle_t back = kernel(m, "search_back", 64),
                       forward = kernel(m, "search_forward", 64);
    ASSERT_ZE_SUCCESS(setArgs(back, {pointer(pr), pointer(pk)}));
    ASSERT_ZE_SUCCESS(
        setArgs(forward, {pointer(pf), pointer(ps), pointer(pv), byValue(int(table))}));
    ASSERT_ZE_SUCCESS(launch(list_, back, {n / 64, 1, 1}));
    ASSERT_ZE_SUCCESS(launch(list_, forward, {n / 64, 1, 1}));
    std::vector<uint32_t> gotRuns = read(runs, n);
    std::vector<int> gotFound = read(found, n);
    for (uint32_t id = 0; id < n; ++id) {
        uint32_t run = 0;
        for (int i = int(4 * id) - 1; i >= 0 && keys[size_t(i)] == keys[4 * id]; --i)
            ++run;
        ASSERT_EQ(gotRuns[id], run) << id;
        int first = -1;
        for (uint32_t x = 0; x < table && first < 0; ++x)
            if (sorted[x] >= values[id])
                first = int(x);
        ASSERT_EQ(gotFound[id], first) << id;
    }
}

// Loops updating one address every iteration run as two versions
// (loop_versioning.hpp): with tmp and y apart, the one that keeps both sums
// in registers; with tmp and y the same buffer, where both sums go to one
// word, the one as written. Every work-item's result against the host's
// (the sums in the kernel's order, each product added with one rounding).
TEST_F(CudaKernels, VersionedLoopsFollowTheirBuffers) {
    constexpr int n = 96, rows = 256;
    std::vector<float> a(size_t(n) * rows), b(a.size()), x(n), start(rows);
    for (size_t p = 0; p < a.size(); ++p) {
        a[p] = float(testValue(uint32_t(p), 31) % 200) * 0.01f - 1.0f;
        b[p] = float(testValue(uint32_t(p), 32) % 200) * 0.01f;
    }
    for (int j = 0; j < n; ++j)
        x[size_t(j)] = float(testValue(uint32_t(j), 33) % 100) * 0.02f;
    for (int i = 0; i < rows; ++i)
        start[size_t(i)] = float(i % 7) - 3.0f;
    const float alpha = 1.5f, beta = -0.75f;
    float *da = deviceWith(a), *db = deviceWith(b), *dx = deviceWith(x);
    ze_module_handle_t m = cudaModule("loop_versioning");
    ze_kernel_handle_t k = kernel(m, "row_sums", 64);
    auto run = [&](float *y, float *tmp) {
        void *pa = da, *pb = db, *px = dx, *py = y, *pt = tmp;
        EXPECT_ZE_SUCCESS(setArgs(k, {pointer(pa), pointer(pb), pointer(px), pointer(py),
                                      pointer(pt), byValue(alpha), byValue(beta), byValue(n)}));
        EXPECT_ZE_SUCCESS(launch(list_, k, {rows / 64, 1, 1}));
    };

    float *y = deviceWith(start), *tmp = deviceWith(start);
    run(y, tmp);
    const std::vector<float> gotY = read(y, rows), gotTmp = read(tmp, rows);
    float *same = deviceWith(start);
    run(same, same);
    const std::vector<float> gotSame = read(same, rows);
    for (int i = 0; i < rows; ++i) {
        float t = start[size_t(i)], u = start[size_t(i)], w = start[size_t(i)];
        for (int j = 0; j < n; ++j) {
            const size_t p = size_t(i) * n + size_t(j);
            t = std::fma(a[p], x[size_t(j)], t);
            u = std::fma(b[p], x[size_t(j)], u);
            w = std::fma(b[p], x[size_t(j)], std::fma(a[p], x[size_t(j)], w));
        }
        const float apart = alpha * t + beta * u, together = alpha * w + beta * w;
        ASSERT_NEAR(gotTmp[size_t(i)], t, 1e-4f * std::max(1.0f, std::fabs(t))) << i;
        ASSERT_NEAR(gotY[size_t(i)], apart, 1e-4f * std::max(1.0f, std::fabs(apart))) << i;
        ASSERT_NEAR(gotSame[size_t(i)], together, 1e-4f * std::max(1.0f, std::fabs(together))) << i;
    }
}

// Vectors read in part through an index (vector_loads.hpp: loaded whole):
// the elements used, from the right vectors.
TEST_F(CudaKernels, GatheredVectorElements) {
    constexpr uint32_t n = 256;
    std::vector<float> position(4 * n);
    std::vector<int> packed(4 * n), neighbour(n);
    for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t c = 0; c < 4; ++c) {
            position[4 * i + c] = float(testValue(4 * i + c, 5) % 64);
            packed[4 * i + c] = testValue(4 * i + c, 6) % 1000;
        }
        neighbour[i] = int((i * 37 + 11) % n);
    }
    float *dposition = deviceWith(position);
    int *dpacked = deviceWith(packed), *dneighbour = deviceWith(neighbour);
    float *distance = device<float>(n);
    int *picked = device<int>(n);
    void *pp = dposition, *pv = dpacked, *pn = dneighbour, *pd = distance, *pk = picked;
    ze_module_handle_t m = cudaModule("vector_loads");
    ze_kernel_handle_t xyz = kernel(m, "gather_xyz", 64), xz = kernel(m, "gather_xz", 64);
    ASSERT_ZE_SUCCESS(setArgs(xyz, {pointer(pp), pointer(pn), pointer(pd)}));
    ASSERT_ZE_SUCCESS(setArgs(xz, {pointer(pv), pointer(pn), pointer(pk)}));
    ASSERT_ZE_SUCCESS(launch(list_, xyz, {n / 64, 1, 1}));
    ASSERT_ZE_SUCCESS(launch(list_, xz, {n / 64, 1, 1}));
    std::vector<float> gotDistance = read(distance, n);
    std::vector<int> gotPicked = read(picked, n);
    for (uint32_t i = 0; i < n; ++i) {
        const float *me = &position[4 * i], *other = &position[4 * size_t(neighbour[i])];
        float expected = 0;
        for (int c = 0; c < 3; ++c)
            expected += (me[c] - other[c]) * (me[c] - other[c]); // small integers: exact
        EXPECT_EQ(gotDistance[i], expected) << i;
        const int *v = &packed[4 * size_t(neighbour[i])];
        EXPECT_EQ(gotPicked[i], v[0] * 1000 + v[2]) << i;
    }
}

// One step of narrow_integers.cl's chain, in the narrow type's wrapping
// arithmetic (computed unsigned, where wrapping is defined).
template <class T> T narrowStep(T x, T c) {
    x = T(uint32_t(x) * x + c);
    return T((x ^ T(uint32_t(x) << 3)) - uint32_t(c));
}

template <class T> T narrowChain(T x, T c) {
    for (int step = 0; step < 16; ++step)
        x = narrowStep(x, c);
    return x;
}

// Short and char arithmetic computed in 32-bit registers (wide_integers.hpp):
// the chains' values wrap as the narrow types do, and what reads their
// narrow range (a right shift, a division, a comparison, a conversion to
// int) sees the narrow value.
TEST_F(CudaKernels, NarrowIntegerChainsWrapAsTheirTypes) {
    constexpr uint32_t n = 256;
    ze_module_handle_t m = cudaModule("narrow_integers");
    const std::vector<int16_t> shorts = values<int16_t>(8 * n, 21);
    const std::vector<uint8_t> uchars = values<uint8_t>(16 * n, 22);
    const std::vector<int8_t> chars = values<int8_t>(n, 23);
    const int16_t shortC = -1234;
    const uint8_t ucharC = 201;
    const int8_t charC = -77;
    int16_t *dshorts = deviceWith(shorts), *shortOut = device<int16_t>(4 * shorts.size());
    uint8_t *duchars = deviceWith(uchars), *ucharOut = device<uint8_t>(4 * uchars.size());
    int8_t *dchars = deviceWith(chars);
    int *intOut = device<int>(n);
    void *p0 = shortOut, *p1 = dshorts, *p2 = ucharOut, *p3 = duchars, *p4 = intOut, *p5 = dchars;
    ze_kernel_handle_t s = kernel(m, "short8_chain", 64), u = kernel(m, "uchar16_chain", 64),
                       c = kernel(m, "char_to_int", 64);
    ASSERT_ZE_SUCCESS(setArgs(s, {pointer(p0), pointer(p1), byValue(shortC)}));
    ASSERT_ZE_SUCCESS(setArgs(u, {pointer(p2), pointer(p3), byValue(ucharC)}));
    ASSERT_ZE_SUCCESS(setArgs(c, {pointer(p4), pointer(p5), byValue(charC)}));
    for (ze_kernel_handle_t k : {s, u, c})
        ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    std::vector<int16_t> gotShorts = read(shortOut, 4 * shorts.size());
    std::vector<uint8_t> gotUchars = read(ucharOut, 4 * uchars.size());
    std::vector<int> gotInts = read(intOut, n);
    for (size_t i = 0; i < shorts.size(); ++i) {
        const int16_t x = int16_t(narrowChain<uint16_t>(uint16_t(shorts[i]), uint16_t(shortC)));
        const size_t item = i / 8, lane = i % 8;
        const int16_t expected[4] = {x, int16_t(x >> 3), int16_t(x / 7),
                                     int16_t(x + (x > 100 ? -1 : 0))};
        for (size_t r = 0; r < 4; ++r)
            ASSERT_EQ(gotShorts[(4 * item + r) * 8 + lane], expected[r]) << i << " result " << r;
    }
    for (size_t i = 0; i < uchars.size(); ++i) {
        const uint8_t x = narrowChain<uint8_t>(uchars[i], ucharC);
        const size_t item = i / 16, lane = i % 16;
        const uint8_t expected[4] = {x, uint8_t(x >> 1), uint8_t(x / 3),
                                     uint8_t(x + (x > 200 ? 255 : 0))};
        for (size_t r = 0; r < 4; ++r)
            ASSERT_EQ(gotUchars[(4 * item + r) * 16 + lane], expected[r]) << i << " result " << r;
    }
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(gotInts[i], int(int8_t(narrowChain<uint8_t>(uint8_t(chars[i]), uint8_t(charC)))))
            << i;
}

// Loops whose counter enters data (loop_recurrences.cl, lsr_fences.hpp):
// chains of masked 24-bit products, of products of loop values with the
// counter added, and the counter masked and sign-extended, against the host
// (unsigned arithmetic, where wrapping is defined). 37 trips: the unrolled
// loop and its remainder both run.
TEST_F(CudaKernels, LoopCountersMixedIntoDataKeepTheirValues) {
    constexpr uint32_t n = 256, trips = 37;
    ze_module_handle_t m = cudaModule("loop_recurrences");
    const std::vector<uint32_t> in = values<uint32_t>(n, 31);
    uint32_t *din = deviceWith(in);
    uint32_t *outs[3] = {device<uint32_t>(n), device<uint32_t>(n), device<uint32_t>(n)};
    const char *names[3] = {"masked_mad24", "mixed_chain", "masked_counter"};
    for (int which = 0; which < 3; ++which) {
        ze_kernel_handle_t k = kernel(m, names[which], 64);
        void *out = outs[which], *input = din;
        ASSERT_ZE_SUCCESS(setArgs(k, {pointer(out), pointer(input), byValue(trips)}));
        ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    }
    const std::vector<uint32_t> mad24 = read(outs[0], n), chain = read(outs[1], n),
                                counter = read(outs[2], n);
    for (size_t i = 0; i < n; ++i) {
        uint32_t a = in[i], b = a ^ 0x5bd1e995u;
        for (uint32_t k = 0; k < trips; ++k) {
            a = (a & 0x7fffffu) * (b & 0x7fffu) + k;
            b = (b & 0xffffu) * (a & 0x7ffu) + a;
        }
        ASSERT_EQ(mad24[i], a ^ b) << i;
        a = in[i], b = a ^ 0x2545f491u;
        for (uint32_t k = 0; k < trips; ++k) {
            a = a * b + k;
            b = b * a + a;
        }
        ASSERT_EQ(chain[i], a ^ b) << i;
        uint32_t x = in[i];
        for (uint32_t k = 0; k < trips; ++k)
            x = x * 3 + (k & 3) + uint32_t(int32_t(int8_t(uint8_t(k * 5))));
        ASSERT_EQ(counter[i], x) << i;
    }
}

// The loops of state_spaces.cl, whose updated element now stays in a
// register (state_space_aa.hpp), against the host: a grid-stride sum into
// local memory, then a tree, and a weighted sum of a local tile into global
// memory. Small integers, so every order of the additions gives the same
// floats.
TEST_F(CudaKernels, LoopsUpdatingAnotherStateSpaceKeepTheirSums) {
    constexpr uint32_t groups = 8, size = 64, n = 5000 * 2, trips = 37;
    ze_module_handle_t m = cudaModule("state_spaces");
    std::vector<float> in(n + size);
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = float((i * 7) % 16);
    float *din = deviceWith(in);
    float *sums = device<float>(groups), *weighted = device<float>(groups * size);
    ze_kernel_handle_t k = kernel(m, "grid_stride_sums", size);
    void *input = din, *out = sums;
    ASSERT_ZE_SUCCESS(
        setArgs(k, {pointer(input), pointer(out), localBytes(size * sizeof(float)), byValue(n)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {groups, 1, 1}));
    k = kernel(m, "tile_weighted", size);
    out = weighted;
    ASSERT_ZE_SUCCESS(setArgs(
        k, {pointer(input), pointer(out), localBytes(size * sizeof(float)), byValue(trips)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {groups, 1, 1}));
    const std::vector<float> gotSums = read(sums, groups),
                             gotWeighted = read(weighted, groups * size);
    for (uint32_t g = 0; g < groups; ++g) {
        float expected = 0;
        for (uint32_t lid = 0; lid < size; ++lid)
            for (uint32_t i = g * size * 2 + lid; i < n; i += size * 2 * groups)
                expected += in[i] + in[i + size];
        ASSERT_EQ(gotSums[g], expected) << "group " << g;
        for (uint32_t lid = 0; lid < size; ++lid) {
            float sum = 0;
            for (uint32_t t = 0; t < trips; ++t)
                sum += in[g * size + ((lid + t) & 63u)] * float(t + 1);
            ASSERT_EQ(gotWeighted[g * size + lid], sum) << "group " << g << ", item " << lid;
        }
    }
}

// More work-groups than a CUDA grid has in the second or third dimension
// (65,535) run as grids of parts (launch_values.hpp): every work-item sees
// the group ids and counts of the whole launch, in the kernel after a
// barrier and in a function it calls, and its global id with the global
// offset, as in one grid. The device reports 2^31 - 1 groups a dimension.
TEST_F(CudaKernels, GridsOverCudasGroupLimitsRunInParts) {
    ze_device_compute_properties_t compute = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ASSERT_ZE_SUCCESS(zeDeviceGetComputeProperties(device_, &compute));
    EXPECT_EQ(compute.maxGroupCountY, uint32_t(INT32_MAX));
    EXPECT_EQ(compute.maxGroupCountZ, uint32_t(INT32_MAX));
    constexpr uint32_t sx = 2, sy = 2, ox = 3, oy = 5, oz = 7;
    ze_kernel_handle_t k = kernel(cudaModule("launch_values"), "record_groups", sx, sy, 1);
    ASSERT_ZE_SUCCESS(zeKernelSetGlobalOffsetExp(k, ox, oy, oz));
    for (const ze_group_count_t &groups :
         {ze_group_count_t{2, 70001, 1}, ze_group_count_t{1, 3, 2 * 65535 + 5},
          ze_group_count_t{1, 65536, 2}}) {
        SCOPED_TRACE("groups " + std::to_string(groups.groupCountX) + " x " +
                     std::to_string(groups.groupCountY) + " x " +
                     std::to_string(groups.groupCountZ));
        const uint32_t w = groups.groupCountX * sx, h = groups.groupCountY * sy,
                       d = groups.groupCountZ;
        const size_t items = size_t(w) * h * d;
        uint32_t *out = device<uint32_t>(8 * items);
        void *pout = out;
        ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pout), localBytes(sx * sy * sizeof(uint32_t))}));
        ASSERT_ZE_SUCCESS(launch(list_, k, groups));
        const std::vector<uint32_t> got = read(out, 8 * items);
        for (uint32_t z = 0; z < d; ++z)
            for (uint32_t y = 0; y < h; ++y)
                for (uint32_t x = 0; x < w; ++x) {
                    const uint32_t *v = &got[8 * ((size_t(z) * h + y) * w + x)];
                    const uint32_t expected[8] = {y / sy, groups.groupCountY, z, d,
                                                  y / sy, d, y + oy, h};
                    for (int j = 0; j < 8; ++j)
                        ASSERT_EQ(v[j], expected[j])
                            << "item (" << x << ", " << y << ", " << z << "), value " << j;
                }
    }
}

// Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1 (inlining.cl's gf_mul).
uint8_t gfMul(uint8_t a, uint8_t b) {
    uint8_t p = 0;
    for (int bit = 0; bit < 8; ++bit, b >>= 1) {
        if (b & 1)
            p ^= a;
        a = uint8_t((a << 1) ^ (a & 0x80 ? 0x1b : 0));
    }
    return p;
}

// inlining.cl's rounds for one work-item: four columns of four bytes.
std::array<uint8_t, 4> mixRounds(const uint8_t *in, const uint8_t coeff[4], uint32_t rounds) {
    std::array<std::array<uint8_t, 4>, 4> c;
    for (int k = 0; k < 4; ++k)
        for (int lane = 0; lane < 4; ++lane)
            c[k][lane] = in[4 * k + lane];
    for (uint32_t r = 0; r < rounds; ++r) {
        const uint32_t row = r % 4;
        std::array<uint8_t, 4> next{};
        for (int k = 0; k < 4; ++k)
            for (int lane = 0; lane < 4; ++lane)
                next[k] ^= gfMul(c[k][lane], coeff[(4 + lane - row) % 4]);
        c = {c[1], c[2], c[3], next};
    }
    std::array<uint8_t, 4> sum{};
    for (int lane = 0; lane < 4; ++lane)
        sum[lane] = c[0][lane] ^ c[1][lane] ^ c[2][lane] ^ c[3][lane];
    return sum;
}

// A helper of the program inlined into both kernels that call it, with the
// kernels' private coefficients (inline_program.hpp): each kernel's own
// coefficients, every round.
TEST_F(CudaKernels, InlinedHelpersUseEachKernelsPrivateArray) {
    constexpr uint32_t n = 1024, rounds = 10;
    const std::vector<uint8_t> in = values<uint8_t>(16 * n, 24);
    uint8_t *din = deviceWith(in), *forwardOut = device<uint8_t>(4 * n),
            *inverseOut = device<uint8_t>(4 * n);
    void *pi = din, *pf = forwardOut, *pv = inverseOut;
    ze_module_handle_t m = cudaModule("inlining");
    ze_kernel_handle_t forward = kernel(m, "mix_forward", 64),
                       inverse = kernel(m, "mix_inverse", 64);
    ASSERT_ZE_SUCCESS(setArgs(forward, {pointer(pf), pointer(pi), byValue(rounds)}));
    ASSERT_ZE_SUCCESS(setArgs(inverse, {pointer(pv), pointer(pi), byValue(rounds)}));
    ASSERT_ZE_SUCCESS(launch(list_, forward, {n / 64, 1, 1}));
    ASSERT_ZE_SUCCESS(launch(list_, inverse, {n / 64, 1, 1}));
    const std::vector<uint8_t> gotForward = read(forwardOut, 4 * n),
                               gotInverse = read(inverseOut, 4 * n);
    const uint8_t forwardCoeff[4] = {2, 3, 1, 1}, inverseCoeff[4] = {14, 11, 13, 9};
    for (uint32_t id = 0; id < n; ++id) {
        const std::array<uint8_t, 4> f = mixRounds(&in[16 * id], forwardCoeff, rounds),
                                     v = mixRounds(&in[16 * id], inverseCoeff, rounds);
        for (int lane = 0; lane < 4; ++lane) {
            ASSERT_EQ(gotForward[4 * id + lane], f[size_t(lane)]) << id << " lane " << lane;
            ASSERT_EQ(gotInverse[4 * id + lane], v[size_t(lane)]) << id << " lane " << lane;
        }
    }
}

// Work-items tested against their work-group's bounds in a loop of
// barriers, the bounds compared once before the loop
// (condition_registers.hpp): every work-item's value after the steps
// against the host's, for bounds inside the group, around all of it, and
// none.
TEST_F(CudaKernels, BoundsComparedBeforeALoopHoldInEveryTrip) {
    constexpr int group = 256, groups = 8, steps = 30;
    std::vector<int> in(size_t(group) * groups);
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = int(testValue(uint32_t(i), 41) % 100);
    int *din = deviceWith(in), *out = device<int>(in.size());
    ze_module_handle_t m = cudaModule("comparisons");
    ze_kernel_handle_t k = kernel(m, "bounded_steps", group);
    const int bounds[][2] = {{20, 200}, {0, group - 1}, {90, 40}};
    for (const auto &b : bounds) {
        void *po = out, *pi = din;
        ASSERT_ZE_SUCCESS(setArgs(k, {pointer(po), pointer(pi), byValue(b[0]), byValue(b[1]),
                                      byValue(steps), localBytes(group * sizeof(int))}));
        ASSERT_ZE_SUCCESS(launch(list_, k, {groups, 1, 1}));
        const std::vector<int> got = read(out, in.size());
        for (int g = 0; g < groups; ++g) {
            std::vector<int> row(in.begin() + g * group, in.begin() + (g + 1) * group);
            for (int i = 0; i < steps; ++i) {
                std::vector<int> next = row;
                for (int tx = i + 1; tx <= group - i - 2; ++tx)
                    if (tx >= b[0] && tx <= b[1])
                        next[size_t(tx)] = std::min(row[size_t(tx) - 1], row[size_t(tx)]) + 1;
                row = next;
            }
            for (int tx = 0; tx < group; ++tx)
                ASSERT_EQ(got[size_t(g * group + tx)], row[size_t(tx)])
                    << "bounds " << b[0] << ".." << b[1] << ", group " << g << ", item " << tx;
        }
    }
}

// A stencil whose neighbours' indices share one address
// (index_offsets.hpp): every interior point of the grid against the host's.
TEST_F(CudaKernels, SharedIndexOffsetsReadTheRightNeighbours) {
    constexpr int nx = 66, ny = 34, nz = 12;
    std::vector<float> in(size_t(nx) * ny * nz);
    for (size_t p = 0; p < in.size(); ++p)
        in[p] = float(testValue(uint32_t(p), 25) % 1000) * 0.01f;
    float *din = deviceWith(in);
    float *dout = deviceWith(std::vector<float>(in.size(), 0.0f));
    // Both grids seen from their point (1, 1, 0): a work-item's (i, j) is the
    // column (i + 1, j + 1), whose neighbours are all inside the buffers.
    const size_t shift = 1 + size_t(nx);
    void *pin = din + shift, *pout = dout + shift;
    ze_module_handle_t m = cudaModule("index_offsets");
    ze_kernel_handle_t k = kernel(m, "column_stencil", 16, 8);
    ASSERT_ZE_SUCCESS(
        setArgs(k, {pointer(pout), pointer(pin), byValue(nx), byValue(ny), byValue(nz)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {(nx - 2) / 16, (ny - 2) / 8, 1}));
    const std::vector<float> got = read(dout, in.size());
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) {
                const size_t p = size_t(x) + size_t(nx) * (size_t(y) + size_t(ny) * size_t(z));
                const bool interior =
                    x > 0 && x < nx - 1 && y > 0 && y < ny - 1 && z > 0 && z < nz - 1;
                if (!interior) {
                    ASSERT_EQ(got[p], 0.0f) << x << " " << y << " " << z;
                    continue;
                }
                const size_t plane = size_t(nx) * ny;
                const float sum =
                    in[p + plane] + in[p - plane] + in[p + nx] + in[p - nx] + in[p + 1] + in[p - 1];
                const float want = 0.5f * sum - in[p] * 0.25f;
                ASSERT_NEAR(got[p], want, 1e-5f * std::max(1.0f, std::fabs(want)))
                    << x << " " << y << " " << z;
            }
}

// A window whose index sums are 64-bit sums of their terms, its counter a
// 64-bit counter (exact_index_sums.hpp): every output against the host's,
// for radii whose trip counts (3, 5, 7, 9) leave each remainder of the
// unrolled inner loop, the counter starting below zero.
TEST_F(CudaKernels, WidenedWindowIndicesReadTheRightPixels) {
    constexpr int width = 64, height = 16, lanes = 4;
    for (int radius = 1; radius <= 4; ++radius) {
        SCOPED_TRACE("radius " + std::to_string(radius));
        const int srcWidth = width + 2 * radius, srcHeight = height + 2 * radius;
        std::vector<int> in(size_t(srcWidth) * srcHeight * lanes);
        for (size_t p = 0; p < in.size(); ++p)
            in[p] = int(testValue(uint32_t(p), 43) % 1000) - 500;
        int *din = deviceWith(in);
        int *dout = deviceWith(std::vector<int>(size_t(width) * height * lanes, 0));
        ze_module_handle_t m = cudaModule("exact_index_sums");
        ze_kernel_handle_t k = kernel(m, "weighted_window", 16, 4);
        void *po = dout, *pi = din;
        ASSERT_ZE_SUCCESS(setArgs(k, {pointer(po), pointer(pi), byValue(radius)}));
        ASSERT_ZE_SUCCESS(launch(list_, k, {width / 16, height / 4, 1}));
        const std::vector<int> got = read(dout, size_t(width) * height * lanes);
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x)
                for (int c = 0; c < lanes; ++c) {
                    int want = 0;
                    for (int v = -radius; v <= radius; ++v)
                        for (int u = -radius; u <= radius; ++u) {
                            const size_t at =
                                size_t(x + radius + u) + size_t(y + radius + v) * size_t(srcWidth);
                            want += in[at * lanes + size_t(c)] * (3 * u + v + 2 * radius + 1);
                        }
                    ASSERT_EQ(got[(size_t(x) + size_t(y) * width) * lanes + size_t(c)], want)
                        << x << " " << y << " lane " << c;
                }
    }
}

// Host memory the application allocated itself, imported with Intel's
// extension (zexDriverImportExternalPointer, as gpu.host_register uses it):
// kernels and copies use the pointer in place; an overlapping import, a
// second release and a pointer never imported are refused.
TEST_F(CudaKernels, ImportedHostMemoryIsUsedInPlace) {
    using Import = ze_result_t(ZE_APICALL *)(ze_driver_handle_t, void *, size_t);
    using Release = ze_result_t(ZE_APICALL *)(ze_driver_handle_t, void *);
    void *importAddress = nullptr, *releaseAddress = nullptr;
    ASSERT_ZE_SUCCESS(zeDriverGetExtensionFunctionAddress(driver_, "zexDriverImportExternalPointer",
                                                          &importAddress));
    ASSERT_ZE_SUCCESS(zeDriverGetExtensionFunctionAddress(
        driver_, "zexDriverReleaseImportedPointer", &releaseAddress));
    auto import = reinterpret_cast<Import>(importAddress);
    auto release = reinterpret_cast<Release>(releaseAddress);

    constexpr size_t n = 1 << 16;
    std::vector<int> storage(n + 64);
    int *p = storage.data() + 3; // not page-aligned, as malloc gives
    std::vector<int> start = values(n, 7);
    std::copy(start.begin(), start.end(), p);
    ASSERT_ZE_SUCCESS(import(driver_, p, n * sizeof(int)));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, import(driver_, p + 100, 64));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_SIZE, import(driver_, storage.data(), 0));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_NULL_POINTER, import(driver_, nullptr, 64));

    // A kernel adds one in place; a copy takes the result into device memory,
    // another kernel doubles it there, and a copy brings it back.
    ze_module_handle_t m = module("basic");
    ze_kernel_handle_t increment = kernel(m, "increment", 256);
    ze_kernel_handle_t mulAdd = kernel(m, "mul_add_inplace", 256);
    void *host = p;
    int *d = device<int>(n);
    void *dev = d;
    ASSERT_ZE_SUCCESS(setArgs(increment, {pointer(host)}));
    ASSERT_ZE_SUCCESS(setArgs(mulAdd, {pointer(dev), byValue(2), byValue(0)}));
    ASSERT_ZE_SUCCESS(launch(list_, increment, {n / 256, 1, 1}));
    sync(list_);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(p[i], start[i] + 1) << i;
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryCopy(list_, d, p, n * sizeof(int), nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(launch(list_, mulAdd, {n / 256, 1, 1}));
    ASSERT_ZE_SUCCESS(
        zeCommandListAppendMemoryCopy(list_, p, d, n * sizeof(int), nullptr, 0, nullptr));
    sync(list_);
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(p[i], 2 * (start[i] + 1)) << i;

    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, release(driver_, p + 1));
    ASSERT_ZE_SUCCESS(release(driver_, p));
    EXPECT_ZE_RESULT(ZE_RESULT_ERROR_INVALID_ARGUMENT, release(driver_, p));
    // Released, the range can be imported again.
    ASSERT_ZE_SUCCESS(import(driver_, p, n * sizeof(int)));
    ASSERT_ZE_SUCCESS(release(driver_, p));
}

} // namespace
} // namespace zetest
