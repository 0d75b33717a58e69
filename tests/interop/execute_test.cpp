// imex_l0_interop_kernel_execute: every argument type (memory object, USM,
// value, by-value struct, local memory), ranges in 1-3 dimensions with the
// group size given or chosen by the library, argument and range validation
// (each refusal names the argument), and two threads launching one kernel.
#include "interop_fixtures.hpp"

#include <algorithm>
#include <numeric>
#include <thread>

using namespace interop_test;

namespace {

class ExecuteTest : public WithKernels {
protected:
    void SetUp() override {
        WithKernels::SetUp();
        if (HasFatalFailure())
            return;
        compute = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
        ASSERT_ZE(zeDeviceGetComputeProperties(device, &compute));
    }
    ze_device_compute_properties_t compute{};
};

ze_event_handle_t sentinelEvent() { return reinterpret_cast<ze_event_handle_t>(uintptr_t(0x5e5e)); }

// Checks every work-item of fill_index's range wrote its own index once.
void expectIndexed(const uint32_t *out, size_t n) {
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(out[i], uint32_t(i)) << "work-item " << i;
}

TEST_F(ExecuteTest, MemoryObjectsUserWrappedAndAllocated) {
    Kernel add = fromSource("add");
    constexpr size_t n = 1024;
    UsmBuffer a = allocShared(n * sizeof(float));
    Memory memA = wrap(a);
    Memory memB = newMemory(imex_l0_memory_kind_shared, n * sizeof(float));
    Memory memOut = newMemory(imex_l0_memory_kind_device, n * sizeof(float));
    auto *b = static_cast<float *>(ptrOf(memB.get()));
    for (size_t i = 0; i < n; ++i) {
        a.as<float>()[i] = float(i) * 0.5f;
        b[i] = float(n - i);
    }
    imex_l0_exec_arg_t args[] = {memArg(memA.get()), memArg(memB.get()), memArg(memOut.get())};
    imex_l0_range_t range = range1d(n, 64);
    ze_event_handle_t ran = nullptr;
    ASSERT_IMEX(imex_l0_interop_kernel_execute(add.get(), stream.get(), 3, args, &range, 0,
                                               nullptr, &ran));
    UsmBuffer host = allocHost(n * sizeof(float));
    ASSERT_IMEX(imex_l0_interop_memcpy(stream.get(), host.get(), ptrOf(memOut.get()),
                                       n * sizeof(float), 1, &ran, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (size_t i = 0; i < n; ++i)
        ASSERT_EQ(host.as<float>()[i], float(i) * 0.5f + float(n - i)) << i;
    ASSERT_IMEX(imex_l0_event_release(engine.get(), ran));
}

TEST_F(ExecuteTest, ByValueStruct) {
    Kernel affine = fromSource("affine");
    constexpr int n = 300;
    UsmBuffer in = allocShared(n * sizeof(float)), out = allocShared(n * sizeof(float));
    for (int i = 0; i < n; ++i)
        in.as<float>()[i] = float(i % 17) - 8.0f;
    AffineParams p = {1.5f, -4.0f, 250};
    imex_l0_exec_arg_t args[] = {usmArg(in.get()), usmArg(out.get()), valueArg(p)};
    imex_l0_range_t range = range1d(n, 30);
    ASSERT_IMEX(imex_l0_interop_kernel_execute(affine.get(), stream.get(), 3, args, &range, 0,
                                               nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (int i = 0; i < n; ++i) {
        float x = float(i % 17) - 8.0f;
        ASSERT_EQ(out.as<float>()[i], i < p.count ? x * p.scale + p.offset : x) << i;
    }
}

// The library sets an argument on the kernel handle only when its value
// differs from the last launch's: a sequence of launches that repeats, then
// changes, one argument at a time (a pointer, a 12-byte struct's field, the
// struct back) computes each launch with its own arguments.
TEST_F(ExecuteTest, EachLaunchRunsWithItsOwnArguments) {
    Kernel affine = fromSource("affine");
    constexpr int n = 64;
    UsmBuffer in = allocShared(n * sizeof(float));
    UsmBuffer outs[2] = {allocShared(n * sizeof(float)), allocShared(n * sizeof(float))};
    for (int i = 0; i < n; ++i)
        in.as<float>()[i] = float(i);
    struct Launch {
        int out;
        AffineParams p;
    };
    const Launch launches[] = {{0, {2.0f, 1.0f, n}}, {0, {2.0f, 1.0f, n}}, {1, {2.0f, 1.0f, n}},
                               {1, {3.0f, 1.0f, n}}, {0, {3.0f, 1.0f, 10}}, {0, {2.0f, 1.0f, n}}};
    imex_l0_range_t range = range1d(n, 16);
    for (const Launch &l : launches) {
        float *out = outs[l.out].as<float>();
        std::fill(out, out + n, -1.0f);
        imex_l0_exec_arg_t args[] = {usmArg(in.get()), usmArg(outs[l.out].get()), valueArg(l.p)};
        ASSERT_IMEX(imex_l0_interop_kernel_execute(affine.get(), stream.get(), 3, args, &range, 0,
                                                   nullptr, nullptr));
        ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
        for (int i = 0; i < n; ++i)
            ASSERT_EQ(out[i], i < l.p.count ? float(i) * l.p.scale + l.p.offset : float(i))
                << "launch into buffer " << l.out << " with scale " << l.p.scale << ", count "
                << l.p.count << ", work-item " << i;
    }
}

TEST_F(ExecuteTest, ConstantMemoryArgument) {
    for (bool spirv : {false, true}) {
        SCOPED_TRACE(spirv ? "from SPIR-V" : "from source");
        Kernel poly = spirv ? fromSpirv("poly") : fromSource("poly");
        constexpr int n = 128;
        UsmBuffer in = allocShared(n * sizeof(float)), coeffs = allocShared(4 * sizeof(float)),
                  out = allocShared(n * sizeof(float));
        const float c[4] = {1.0f, -2.0f, 0.5f, 0.25f};
        std::memcpy(coeffs.get(), c, sizeof(c));
        for (int i = 0; i < n; ++i)
            in.as<float>()[i] = float(i % 8) * 0.5f;
        int ncoeffs = 4;
        Memory memCoeffs = wrap(coeffs);
        imex_l0_exec_arg_t args[] = {usmArg(in.get()), memArg(memCoeffs.get()), valueArg(ncoeffs),
                                     usmArg(out.get())};
        imex_l0_range_t range = range1d(n);
        ASSERT_IMEX(imex_l0_interop_kernel_execute(poly.get(), stream.get(), 4, args, &range, 0,
                                                   nullptr, nullptr));
        ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
        for (int i = 0; i < n; ++i) {
            float x = float(i % 8) * 0.5f, acc = 0.0f, power = 1.0f;
            for (float k : c) {
                acc += k * power;
                power *= x;
            }
            ASSERT_FLOAT_EQ(out.as<float>()[i], acc) << i;
        }
    }
}

TEST_F(ExecuteTest, LocalMemoryReduction) {
    for (bool spirv : {false, true}) {
        SCOPED_TRACE(spirv ? "from SPIR-V" : "from source");
        Kernel reduce = spirv ? fromSpirv("reduce_sum") : fromSource("reduce_sum");
        constexpr size_t n = 4096, group = 64, groups = n / group;
        Memory in = newMemory(imex_l0_memory_kind_shared, n * sizeof(int));
        Memory partial = newMemory(imex_l0_memory_kind_shared, groups * sizeof(int));
        auto *data = static_cast<int *>(ptrOf(in.get()));
        for (size_t i = 0; i < n; ++i)
            data[i] = int(i % 101) - 50 + int(i / 1000);
        imex_l0_exec_arg_t args[] = {memArg(in.get()), memArg(partial.get()),
                                     localArg(group * sizeof(int))};
        imex_l0_range_t range = range1d(n, group);
        ASSERT_IMEX(imex_l0_interop_kernel_execute(reduce.get(), stream.get(), 3, args, &range, 0,
                                                   nullptr, nullptr));
        ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
        auto *sums = static_cast<int *>(ptrOf(partial.get()));
        long total = 0, expectedTotal = 0;
        for (size_t g = 0; g < groups; ++g) {
            int expected = std::accumulate(data + g * group, data + (g + 1) * group, 0);
            ASSERT_EQ(sums[g], expected) << "group " << g;
            total += sums[g];
        }
        for (size_t i = 0; i < n; ++i)
            expectedTotal += data[i];
        EXPECT_EQ(total, expectedTotal);
    }
}

TEST_F(ExecuteTest, ExplicitGroupsIn1d2d3d) {
    Kernel fill = fromSource("fill_index");
    const imex_l0_range_t ranges[] = {
        {{96, 1, 1}, {32, 1, 1}},
        {{12, 10, 1}, {4, 5, 1}},
        {{8, 6, 4}, {4, 3, 2}},
        {{5, 7, 3}, {1, 7, 3}},
    };
    for (const auto &range : ranges) {
        size_t n = range.global[0] * range.global[1] * range.global[2];
        UsmBuffer out = allocShared(n * sizeof(uint32_t));
        std::memset(out.get(), 0xff, out.size());
        imex_l0_exec_arg_t args[] = {usmArg(out.get())};
        ASSERT_IMEX(imex_l0_interop_kernel_execute(fill.get(), stream.get(), 1, args, &range, 0,
                                                   nullptr, nullptr));
        ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
        SCOPED_TRACE(std::to_string(range.global[0]) + "x" + std::to_string(range.global[1]) +
                     "x" + std::to_string(range.global[2]));
        expectIndexed(out.as<uint32_t>(), n);
    }
}

TEST_F(ExecuteTest, AllZeroLocalLetsTheLibraryChoose) {
    Kernel fill = fromSource("fill_index");
    // Sizes with awkward factors: the chosen group must still cover the
    // range exactly once.
    const size_t globals[][3] = {{1000, 1, 1}, {997, 1, 1}, {1, 1, 1}, {30, 7, 3}, {64, 64, 1}};
    for (const auto &g : globals) {
        imex_l0_range_t range = {{g[0], g[1], g[2]}, {0, 0, 0}};
        size_t n = g[0] * g[1] * g[2];
        UsmBuffer out = allocShared(n * sizeof(uint32_t));
        std::memset(out.get(), 0xff, out.size());
        imex_l0_exec_arg_t args[] = {usmArg(out.get())};
        ASSERT_IMEX(imex_l0_interop_kernel_execute(fill.get(), stream.get(), 1, args, &range, 0,
                                                   nullptr, nullptr));
        ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
        SCOPED_TRACE(std::to_string(g[0]) + "x" + std::to_string(g[1]) + "x" +
                     std::to_string(g[2]));
        expectIndexed(out.as<uint32_t>(), n);
    }
}

TEST_F(ExecuteTest, ManyArguments) {
    // More arguments than a launch resolves without allocating (the library
    // keeps a small inline array): the rest must be just as correct.
    constexpr int kValues = 40;
    // Unsigned arithmetic: wraps the same (defined) way on both sides.
    std::string source = "kernel void many(global ulong *out";
    for (int i = 0; i < kValues; ++i)
        source += ", int v" + std::to_string(i);
    source += ") {\n    ulong sum = 0;\n";
    for (int i = 0; i < kValues; ++i)
        source += "    sum = sum * 3 + (ulong)(long)v" + std::to_string(i) + ";\n";
    source += "    out[get_global_id(0)] = sum + get_global_id(0);\n}\n";
    Kernel many;
    ASSERT_IMEX(imex_l0_kernel_create_from_source(many.out(), engine.get(), source.c_str(),
                                                  "many", nullptr, 0, nullptr));
    size_t nargs = 0;
    ASSERT_IMEX(imex_l0_kernel_get_arg_count(many.get(), &nargs));
    ASSERT_EQ(nargs, size_t(kValues + 1));
    UsmBuffer out = allocShared(8 * sizeof(uint64_t));
    int values[kValues];
    std::vector<imex_l0_exec_arg_t> args = {usmArg(out.get())};
    uint64_t expected = 0;
    for (int i = 0; i < kValues; ++i) {
        values[i] = (i * 7919) % 1000 - 500;
        args.push_back(valueArg(values[i]));
        expected = expected * 3 + uint64_t(int64_t(values[i]));
    }
    imex_l0_range_t range = range1d(8, 4);
    ASSERT_IMEX(imex_l0_interop_kernel_execute(many.get(), stream.get(), args.size(), args.data(),
                                               &range, 0, nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (int i = 0; i < 8; ++i)
        ASSERT_EQ(out.as<uint64_t>()[i], expected + uint64_t(i)) << i;
    // A wrong value size deep in the list is still named.
    double wide = 1.0;
    args[33] = valueArg(wide);
    EXPECT_INVALID(imex_l0_interop_kernel_execute(many.get(), stream.get(), args.size(),
                                                  args.data(), &range, 0, nullptr, nullptr),
                   "argument 33");
}

TEST_F(ExecuteTest, RegularListStreamRunsKernelsAtWait) {
    ZeList regular = newRegularList();
    ZeQueue queue = newQueue();
    Stream rstream;
    ASSERT_IMEX(imex_l0_interop_stream_create_regular(rstream.out(), engine.get(), regular.get(),
                                                      queue.get()));
    Kernel increment = fromSpirv("increment");
    UsmBuffer data = allocShared(64 * sizeof(int));
    std::memset(data.get(), 0, data.size());
    imex_l0_exec_arg_t args[] = {usmArg(data.get())};
    imex_l0_range_t range = range1d(64, 16);
    // Dependent launches in one regular list, chained by returned events.
    ze_event_handle_t prev = nullptr;
    std::vector<ze_event_handle_t> events;
    for (int i = 0; i < 5; ++i) {
        ze_event_handle_t e = nullptr;
        ASSERT_IMEX(imex_l0_interop_kernel_execute(increment.get(), rstream.get(), 1, args, &range,
                                                   prev ? 1 : 0, prev ? &prev : nullptr, &e));
        events.push_back(e);
        prev = e;
    }
    EXPECT_EQ(data.as<int>()[0], 0) << "a regular list must not run before it is executed";
    ASSERT_IMEX(imex_l0_stream_wait(rstream.get()));
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(data.as<int>()[i], 5) << i;
    for (auto e : events) {
        EXPECT_ZE(zeEventQueryStatus(e)); // signaled by the executed list
        ASSERT_IMEX(imex_l0_event_release(engine.get(), e));
    }
}

// ---------------------------------------------------------------- validation

TEST_F(ExecuteTest, WrongArgumentCount) {
    Kernel add = fromSource("add");
    UsmBuffer a = allocShared(64);
    imex_l0_exec_arg_t args[] = {usmArg(a.get()), usmArg(a.get()), usmArg(a.get()),
                                 usmArg(a.get())};
    imex_l0_range_t range = range1d(16);
    ze_event_handle_t e = sentinelEvent();
    EXPECT_INVALID(imex_l0_interop_kernel_execute(add.get(), stream.get(), 2, args, &range, 0,
                                                  nullptr, &e),
                   "argument");
    EXPECT_MESSAGE_HAS("3");
    EXPECT_INVALID(imex_l0_interop_kernel_execute(add.get(), stream.get(), 4, args, &range, 0,
                                                  nullptr, &e),
                   "argument");
    EXPECT_INVALID(imex_l0_interop_kernel_execute(add.get(), stream.get(), 3, nullptr, &range, 0,
                                                  nullptr, &e),
                   "args");
    EXPECT_EQ(e, sentinelEvent());
}

TEST_F(ExecuteTest, WrongValueSizeOrType) {
    Kernel affine = fromSource("affine");
    UsmBuffer a = allocShared(64);
    imex_l0_range_t range = range1d(16);
    ze_event_handle_t e = sentinelEvent();
    int tooSmall = 1;
    imex_l0_exec_arg_t wrongSize[] = {usmArg(a.get()), usmArg(a.get()), valueArg(tooSmall)};
    EXPECT_INVALID(imex_l0_interop_kernel_execute(affine.get(), stream.get(), 3, wrongSize, &range,
                                                  0, nullptr, &e),
                   "argument 2");
    imex_l0_exec_arg_t noBytes[] = {usmArg(a.get()), usmArg(a.get()),
                                    {imex_l0_arg_value, nullptr, nullptr, 12}};
    EXPECT_INVALID(imex_l0_interop_kernel_execute(affine.get(), stream.get(), 3, noBytes, &range,
                                                  0, nullptr, &e),
                   "argument 2");
    // A pointer where a value is expected, and a value where a pointer is.
    imex_l0_exec_arg_t usmForValue[] = {usmArg(a.get()), usmArg(a.get()), usmArg(a.get())};
    EXPECT_INVALID(imex_l0_interop_kernel_execute(affine.get(), stream.get(), 3, usmForValue,
                                                  &range, 0, nullptr, &e),
                   "argument 2");
    AffineParams p = {1, 0, 16};
    imex_l0_exec_arg_t valueForPointer[] = {usmArg(a.get()), valueArg(p), valueArg(p)};
    EXPECT_INVALID(imex_l0_interop_kernel_execute(affine.get(), stream.get(), 3, valueForPointer,
                                                  &range, 0, nullptr, &e),
                   "argument 1");
    EXPECT_EQ(e, sentinelEvent());
}

TEST_F(ExecuteTest, LocalArgumentMisuse) {
    Kernel reduce = fromSource("reduce_sum");
    UsmBuffer a = allocShared(256 * sizeof(int));
    imex_l0_range_t range = range1d(64, 64);
    imex_l0_exec_arg_t zeroLocal[] = {usmArg(a.get()), usmArg(a.get()), localArg(0)};
    EXPECT_INVALID(imex_l0_interop_kernel_execute(reduce.get(), stream.get(), 3, zeroLocal, &range,
                                                  0, nullptr, nullptr),
                   "argument 2");
    imex_l0_exec_arg_t usmForLocal[] = {usmArg(a.get()), usmArg(a.get()), usmArg(a.get())};
    EXPECT_INVALID(imex_l0_interop_kernel_execute(reduce.get(), stream.get(), 3, usmForLocal,
                                                  &range, 0, nullptr, nullptr),
                   "argument 2");
    imex_l0_exec_arg_t localForGlobal[] = {localArg(64), usmArg(a.get()), localArg(256)};
    EXPECT_INVALID(imex_l0_interop_kernel_execute(reduce.get(), stream.get(), 3, localForGlobal,
                                                  &range, 0, nullptr, nullptr),
                   "argument 0");
}

TEST_F(ExecuteTest, MemoryObjectOfAnotherEngine) {
    Kernel add = fromSource("add");
    Engine other;
    ASSERT_IMEX(imex_l0_interop_engine_create(other.out(), driver, device, context.get()));
    Memory foreign = newMemory(imex_l0_memory_kind_shared, 64, other.get());
    Memory mine = newMemory(imex_l0_memory_kind_shared, 64);
    imex_l0_exec_arg_t args[] = {memArg(foreign.get()), memArg(mine.get()), memArg(mine.get())};
    imex_l0_range_t range = range1d(16);
    ze_event_handle_t e = sentinelEvent();
    EXPECT_INVALID(imex_l0_interop_kernel_execute(add.get(), stream.get(), 3, args, &range, 0,
                                                  nullptr, &e),
                   "argument 0");
    EXPECT_MESSAGE_HAS("engine");
    EXPECT_EQ(e, sentinelEvent());
    foreign.reset();
}

TEST_F(ExecuteTest, MemoryObjectWithoutBufferOrNotAMemoryObject) {
    Kernel add = fromSource("add");
    Memory none;
    ASSERT_IMEX(imex_l0_interop_memory_create(none.out(), engine.get(),
                                              imex_l0_memory_kind_shared, 64,
                                              IMEX_L0_MEMORY_NONE));
    Memory mine = newMemory(imex_l0_memory_kind_shared, 64);
    imex_l0_range_t range = range1d(16);
    imex_l0_exec_arg_t noBuffer[] = {memArg(mine.get()), memArg(none.get()), memArg(mine.get())};
    EXPECT_INVALID(imex_l0_interop_kernel_execute(add.get(), stream.get(), 3, noBuffer, &range, 0,
                                                  nullptr, nullptr),
                   "argument 1");
    imex_l0_exec_arg_t nullMemory[] = {memArg(nullptr), memArg(mine.get()), memArg(mine.get())};
    EXPECT_INVALID(imex_l0_interop_kernel_execute(add.get(), stream.get(), 3, nullMemory, &range,
                                                  0, nullptr, nullptr),
                   "argument 0");
    imex_l0_exec_arg_t streamAsMemory[] = {
        memArg(mine.get()), memArg(mine.get()),
        memArg(reinterpret_cast<imex_l0_memory_t>(stream.get()))};
    EXPECT_INVALID(imex_l0_interop_kernel_execute(add.get(), stream.get(), 3, streamAsMemory,
                                                  &range, 0, nullptr, nullptr),
                   "argument 2");

    // Once it has a buffer, the same object is a valid argument.
    UsmBuffer late = allocShared(64);
    ASSERT_IMEX(imex_l0_interop_memory_set_mem_object(none.get(), 0, late.get()));
    for (int i = 0; i < 16; ++i) {
        static_cast<float *>(ptrOf(mine.get()))[i] = float(i);
        late.as<float>()[i] = 100.0f;
    }
    imex_l0_exec_arg_t ok[] = {memArg(mine.get()), memArg(none.get()), memArg(none.get())};
    ASSERT_IMEX(imex_l0_interop_kernel_execute(add.get(), stream.get(), 3, ok, &range, 0, nullptr,
                                               nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (int i = 0; i < 16; ++i)
        ASSERT_EQ(late.as<float>()[i], float(i) + 100.0f);
}

TEST_F(ExecuteTest, RangeValidation) {
    Kernel fill = fromSource("fill_index");
    UsmBuffer out = allocShared(1 << 16);
    imex_l0_exec_arg_t args[] = {usmArg(out.get())};
    ze_event_handle_t e = sentinelEvent();
    auto execute = [&](const imex_l0_range_t &range) {
        return imex_l0_interop_kernel_execute(fill.get(), stream.get(), 1, args, &range, 0,
                                              nullptr, &e);
    };
    EXPECT_INVALID(execute({{100, 1, 1}, {7, 1, 1}}), "local[0]");
    EXPECT_INVALID(execute({{8, 9, 1}, {8, 2, 1}}), "local[1]");
    EXPECT_INVALID(execute({{8, 1, 1}, {8, 0, 1}}), "local[1]");
    EXPECT_INVALID(execute({{0, 1, 1}, {0, 0, 0}}), "global[0]");
    EXPECT_INVALID(execute({{16, 1, 0}, {0, 0, 0}}), "global[2]");
    EXPECT_INVALID(execute({{0, 1, 1}, {1, 1, 1}}), "global[0]");
    // Level Zero counts groups in 32 bits.
    EXPECT_INVALID(execute({{size_t(1) << 33, 1, 1}, {0, 0, 0}}), "global[0]");

    // A group larger than the device allows, in one dimension and in total.
    size_t tooWide = size_t(compute.maxGroupSizeX) * 2;
    EXPECT_INVALID(execute({{tooWide, 1, 1}, {tooWide, 1, 1}}), "local[0]");
    size_t side = 1;
    while (side * side <= compute.maxTotalGroupSize)
        side *= 2;
    if (side <= compute.maxGroupSizeX && side <= compute.maxGroupSizeY)
        EXPECT_INVALID(execute({{side, side, 1}, {side, side, 1}}), "group");
    EXPECT_INVALID(imex_l0_interop_kernel_execute(fill.get(), stream.get(), 1, args, nullptr, 0,
                                                  nullptr, &e),
                   "range");
    EXPECT_EQ(e, sentinelEvent());
}

TEST_F(ExecuteTest, HandleValidation) {
    Kernel empty = fromSource("empty");
    imex_l0_range_t range = range1d(1);
    EXPECT_INVALID(imex_l0_interop_kernel_execute(nullptr, stream.get(), 0, nullptr, &range, 0,
                                                  nullptr, nullptr),
                   "kernel");
    EXPECT_INVALID(imex_l0_interop_kernel_execute(empty.get(), nullptr, 0, nullptr, &range, 0,
                                                  nullptr, nullptr),
                   "stream");
    EXPECT_INVALID(imex_l0_interop_kernel_execute(
                       reinterpret_cast<imex_l0_kernel_t>(stream.get()), stream.get(), 0, nullptr,
                       &range, 0, nullptr, nullptr),
                   "kernel");
    EXPECT_INVALID(imex_l0_interop_kernel_execute(empty.get(), stream.get(), 0, nullptr, &range, 1,
                                                  nullptr, nullptr),
                   "deps");
    ze_event_handle_t nullDep = nullptr;
    EXPECT_INVALID(imex_l0_interop_kernel_execute(empty.get(), stream.get(), 0, nullptr, &range, 1,
                                                  &nullDep, nullptr),
                   "deps[0]");

    // A stream of another engine.
    Engine other;
    ASSERT_IMEX(imex_l0_interop_engine_create(other.out(), driver, device, context.get()));
    Stream otherStream;
    ASSERT_IMEX(imex_l0_stream_create(otherStream.out(), other.get()));
    EXPECT_INVALID(imex_l0_interop_kernel_execute(empty.get(), otherStream.get(), 0, nullptr,
                                                  &range, 0, nullptr, nullptr),
                   "engine");
}

TEST_F(ExecuteTest, RefusedLaunchesLeaveTheStreamUsable) {
    // A burst of refused launches, then a good one: nothing half-appended.
    Kernel scale = fromSource("scale");
    UsmBuffer in = allocShared(32 * sizeof(float)), out = allocShared(32 * sizeof(float));
    for (int i = 0; i < 32; ++i)
        in.as<float>()[i] = float(i);
    float alpha = 3.0f;
    double wrong = 3.0; // 8 bytes where the kernel takes a 4-byte float
    imex_l0_exec_arg_t bad[] = {usmArg(in.get()), usmArg(out.get()), valueArg(wrong)};
    imex_l0_exec_arg_t good[] = {usmArg(in.get()), usmArg(out.get()), valueArg(alpha)};
    imex_l0_range_t range = range1d(32, 8);
    for (int i = 0; i < 10; ++i) {
        ze_event_handle_t e = nullptr;
        EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                           imex_l0_interop_kernel_execute(scale.get(), stream.get(), 3, bad,
                                                          &range, 0, nullptr, &e));
    }
    ze_event_handle_t done = nullptr;
    ASSERT_IMEX(imex_l0_interop_kernel_execute(scale.get(), stream.get(), 3, good, &range, 0,
                                               nullptr, &done));
    ASSERT_ZE(zeEventHostSynchronize(done, UINT64_MAX));
    for (int i = 0; i < 32; ++i)
        ASSERT_EQ(out.as<float>()[i], 3.0f * float(i));
    ASSERT_IMEX(imex_l0_event_release(engine.get(), done));
}

// ---------------------------------------------------------------- threads

TEST_F(ExecuteTest, TwoThreadsLaunchOneKernelOnTwoStreams) {
    // The kernel's argument state is per launch: two threads setting
    // different arguments on one kernel object must never mix them.
    Kernel scale = fromSource("scale");
    constexpr int kThreads = 2, kLaunches = 200;
    constexpr size_t n = 256;
    UsmBuffer in = allocShared(n * sizeof(float));
    for (size_t i = 0; i < n; ++i)
        in.as<float>()[i] = float(i + 1);
    ZeList lists[kThreads] = {newImmediateList(), newImmediateList()};
    Stream streams[kThreads];
    UsmBuffer outs[kThreads];
    for (int t = 0; t < kThreads; ++t) {
        ASSERT_IMEX(imex_l0_interop_stream_create(streams[t].out(), engine.get(), lists[t].get()));
        outs[t] = allocShared(kLaunches * n * sizeof(float));
        std::memset(outs[t].get(), 0, outs[t].size());
    }
    imex_l0_status_t failures[kThreads] = {imex_l0_success, imex_l0_success};
    std::string messages[kThreads];
    std::vector<ze_event_handle_t> events[kThreads];
    auto worker = [&](int t) {
        for (int l = 0; l < kLaunches; ++l) {
            float alpha = float(t * 1000 + l);
            imex_l0_exec_arg_t args[] = {usmArg(in.get()),
                                         usmArg(outs[t].as<float>() + size_t(l) * n),
                                         valueArg(alpha)};
            imex_l0_range_t range = range1d(n, 32);
            // Some launches return events: the engine's pool is shared by both threads.
            ze_event_handle_t e = nullptr;
            imex_l0_status_t s = imex_l0_interop_kernel_execute(
                scale.get(), streams[t].get(), 3, args, &range, 0, nullptr, l % 10 ? nullptr : &e);
            if (s != imex_l0_success) {
                failures[t] = s;
                messages[t] = imex_l0_last_error_message();
                return;
            }
            if (e)
                events[t].push_back(e);
        }
        failures[t] = imex_l0_stream_wait(streams[t].get());
        for (size_t i = 0; i < events[t].size() && failures[t] == imex_l0_success; ++i)
            failures[t] = imex_l0_event_release(engine.get(), events[t][i]);
        if (failures[t] != imex_l0_success)
            messages[t] = imex_l0_last_error_message();
    };
    std::thread threads[kThreads] = {std::thread(worker, 0), std::thread(worker, 1)};
    for (auto &th : threads)
        th.join();
    for (int t = 0; t < kThreads; ++t) {
        ASSERT_EQ(failures[t], imex_l0_success)
            << "thread " << t << ": " << imex_l0_status_str(failures[t]) << ": " << messages[t];
        for (int l = 0; l < kLaunches; ++l)
            for (size_t i = 0; i < n; ++i)
                ASSERT_EQ(outs[t].as<float>()[size_t(l) * n + i],
                          float(i + 1) * float(t * 1000 + l))
                    << "thread " << t << " launch " << l << " item " << i;
    }
}

} // namespace

namespace {

// Writes every work-item's global id (offset included) at its place
// counted from the offset: the whole launch shows in `out`.
const char *kGlobalIds = R"(
kernel void global_ids(global uint *out, uint n) {
    size_t i = get_global_id(0) - get_global_offset(0);
    if (i < n)
        out[i] = (uint)get_global_id(0);
}
kernel void mark(global uint *out) { out[get_global_id(0)] = 7u; }
)";

class LaunchOptionsTest : public WithKernels {
protected:
    Kernel inlineKernel(const char *name) {
        Kernel k;
        EXPECT_IMEX(imex_l0_kernel_create_from_source(k.out(), engine.get(), kGlobalIds, name,
                                                      nullptr, 0, nullptr));
        return k;
    }
};

TEST_F(LaunchOptionsTest, GlobalOffsetShiftsTheIds) {
    Kernel k = inlineKernel("global_ids");
    UsmBuffer out = allocShared(64 * sizeof(uint32_t));
    const uint32_t n = 64;
    imex_l0_exec_arg_t args[] = {usmArg(out.get()), valueArg(n)};
    imex_l0_range_t range = range1d(64, 16);
    imex_l0_launch_options_t options = {};
    options.global_offset[0] = 100;
    ASSERT_IMEX(imex_l0_interop_kernel_execute_ex(k.get(), stream.get(), 2, args, &range,
                                                  &options, 0, nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (uint32_t i = 0; i < 64; ++i)
        ASSERT_EQ(out.as<uint32_t>()[i], 100 + i) << i;
    // The next launch without options has no offset again.
    ASSERT_IMEX(imex_l0_interop_kernel_execute(k.get(), stream.get(), 2, args, &range, 0,
                                               nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (uint32_t i = 0; i < 64; ++i)
        ASSERT_EQ(out.as<uint32_t>()[i], i) << i;
}

TEST_F(LaunchOptionsTest, GroupCountNeedsNoMultipleOfTheGroupSize) {
    Kernel k = inlineKernel("global_ids");
    const uint32_t n = 100; // not a multiple of 16: 7 groups cover it
    UsmBuffer out = allocShared(112 * sizeof(uint32_t));
    std::memset(out.get(), 0xff, out.size());
    imex_l0_exec_arg_t args[] = {usmArg(out.get()), valueArg(n)};
    imex_l0_range_t range = range1d(n, 16); // global is not read
    imex_l0_launch_options_t options = {};
    options.group_count[0] = 7;
    options.group_count[1] = options.group_count[2] = 1;
    ASSERT_IMEX(imex_l0_interop_kernel_execute_ex(k.get(), stream.get(), 2, args, &range,
                                                  &options, 0, nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (uint32_t i = 0; i < n; ++i)
        ASSERT_EQ(out.as<uint32_t>()[i], i) << i;
    EXPECT_EQ(out.as<uint32_t>()[n], 0xffffffffu) << "the kernel's bound check kept it";
    // Group counts need the group size, and all three counts.
    imex_l0_range_t noLocal = range1d(n);
    EXPECT_INVALID(imex_l0_interop_kernel_execute_ex(k.get(), stream.get(), 2, args, &noLocal,
                                                     &options, 0, nullptr, nullptr),
                   "needs the group size");
    options.group_count[2] = 0;
    EXPECT_INVALID(imex_l0_interop_kernel_execute_ex(k.get(), stream.get(), 2, args, &range,
                                                     &options, 0, nullptr, nullptr),
                   "group_count[2] is 0");
}

// A device that runs fewer work-groups in a dimension than a launch asks
// (CUDA's GPUs: 2^31 - 1 in each) refuses it; the message says so and gives
// the maxima, and the stream takes the next launch. Devices that take any
// 32-bit count (the CPU driver) cannot be asked for more.
TEST_F(LaunchOptionsTest, MoreGroupsThanTheDeviceRunsAreRefusedWithItsMaxima) {
    ze_device_compute_properties_t compute = {ZE_STRUCTURE_TYPE_DEVICE_COMPUTE_PROPERTIES};
    ASSERT_ZE(zeDeviceGetComputeProperties(device, &compute));
    const uint32_t maxima[3] = {compute.maxGroupCountX, compute.maxGroupCountY,
                                compute.maxGroupCountZ};
    const uint32_t *limited =
        std::find_if(maxima, maxima + 3, [](uint32_t m) { return m < UINT32_MAX; });
    if (limited == maxima + 3)
        GTEST_SKIP() << "skipped: the device runs any number of work-groups in every dimension";
    const size_t d = size_t(limited - maxima);
    Kernel k = inlineKernel("mark");
    UsmBuffer out = allocShared(16 * sizeof(uint32_t));
    std::memset(out.get(), 0, out.size());
    imex_l0_exec_arg_t args[] = {usmArg(out.get())};
    imex_l0_range_t range = {{16, 1, 1}, {16, 1, 1}};
    imex_l0_launch_options_t options = {};
    options.group_count[0] = options.group_count[1] = options.group_count[2] = 1;
    options.group_count[d] = *limited + 1;
    EXPECT_INVALID(imex_l0_interop_kernel_execute_ex(k.get(), stream.get(), 1, args, &range,
                                                     &options, 0, nullptr, nullptr),
                   "work-groups in dimension " + std::to_string(d) +
                       ", more than the device's maximum of " + std::to_string(*limited));
    options.group_count[d] = 1;
    ASSERT_IMEX(imex_l0_interop_kernel_execute_ex(k.get(), stream.get(), 1, args, &range, &options,
                                                  0, nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (uint32_t i = 0; i < 16; ++i)
        ASSERT_EQ(out.as<uint32_t>()[i], 7u) << i;
}

TEST_F(LaunchOptionsTest, TheCallersOwnEventIsSignaled) {
    Kernel k = inlineKernel("mark");
    UsmBuffer out = allocShared(32 * sizeof(uint32_t));
    std::memset(out.get(), 0, out.size());
    UserEvents own = newEvents(2);
    imex_l0_exec_arg_t args[] = {usmArg(out.get())};
    imex_l0_range_t range = range1d(32);
    imex_l0_launch_options_t options = {};
    options.signal_event = own[0];
    ASSERT_IMEX(imex_l0_interop_kernel_execute_ex(k.get(), stream.get(), 1, args, &range,
                                                  &options, 0, nullptr, nullptr));
    ASSERT_ZE(zeEventHostSynchronize(own[0], UINT64_MAX));
    EXPECT_EQ(out.as<uint32_t>()[31], 7u);
    // A copy signals the caller's event too.
    UsmBuffer copy = allocShared(32 * sizeof(uint32_t));
    ASSERT_IMEX(imex_l0_interop_memcpy_signal(stream.get(), copy.get(), out.get(), out.size(), 0,
                                              nullptr, own[1]));
    ASSERT_ZE(zeEventHostSynchronize(own[1], UINT64_MAX));
    EXPECT_EQ(copy.as<uint32_t>()[31], 7u);
    // Not together with a returned event, and not an event of the library's.
    ze_event_handle_t returned = nullptr;
    EXPECT_INVALID(imex_l0_interop_kernel_execute_ex(k.get(), stream.get(), 1, args, &range,
                                                     &options, 0, nullptr, &returned),
                   "both given");
    ASSERT_IMEX(imex_l0_interop_kernel_execute(k.get(), stream.get(), 1, args, &range, 0, nullptr,
                                               &returned));
    ASSERT_ZE(zeEventHostSynchronize(returned, UINT64_MAX));
    options.signal_event = returned;
    EXPECT_INVALID(imex_l0_interop_kernel_execute_ex(k.get(), stream.get(), 1, args, &range,
                                                     &options, 0, nullptr, nullptr),
                   "an event the library handed out");
    EXPECT_INVALID(imex_l0_interop_memcpy_signal(stream.get(), copy.get(), out.get(), 4, 0,
                                                 nullptr, nullptr),
                   "signal_event is NULL");
    ASSERT_IMEX(imex_l0_event_release(engine.get(), returned));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
}

TEST_F(LaunchOptionsTest, MemoryArgumentPicksItsBuffer) {
    Kernel k = inlineKernel("mark");
    Memory two;
    size_t sizes[] = {16 * sizeof(uint32_t), 16 * sizeof(uint32_t)};
    void *handles[] = {IMEX_L0_MEMORY_ALLOCATE, IMEX_L0_MEMORY_ALLOCATE};
    ASSERT_IMEX(imex_l0_interop_memory_create_v2(two.out(), engine.get(),
                                                 imex_l0_memory_kind_shared, 2, sizes, handles));
    auto *first = static_cast<uint32_t *>(ptrOf(two.get(), 0));
    auto *second = static_cast<uint32_t *>(ptrOf(two.get(), 1));
    std::memset(first, 0, sizes[0]);
    std::memset(second, 0, sizes[1]);
    imex_l0_exec_arg_t args[] = {{imex_l0_arg_memory, two.get(), nullptr, 1}};
    imex_l0_range_t range = range1d(16);
    ASSERT_IMEX(imex_l0_interop_kernel_execute(k.get(), stream.get(), 1, args, &range, 0, nullptr,
                                               nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    EXPECT_EQ(second[15], 7u);
    EXPECT_EQ(first[15], 0u) << "buffer 0 was written instead of buffer 1";
    args[0].size = 2;
    EXPECT_INVALID(imex_l0_interop_kernel_execute(k.get(), stream.get(), 1, args, &range, 0,
                                                  nullptr, nullptr),
                   "names buffer 2 of a memory object of 2");
}

} // namespace
