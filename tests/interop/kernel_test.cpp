// Kernels: creation from OpenCL C (defines, build options, headers, errors
// with a line:column log, the per-engine cache) and from SPIR-V (garbage
// rejected, not crashed on), argument introspection, the native handle, the
// compile-only entry point and the cache controls.
#include "interop_fixtures.hpp"

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <thread>

using namespace interop_test;

namespace {

class KernelTest : public WithKernels {
protected:
    // Runs a kernel whose only argument is an output of T (float unless
    // said), over n work-items, and returns what it wrote.
    template <typename T = float> std::vector<T> runOutOnly(imex_l0_kernel_t kernel, size_t n) {
        UsmBuffer out = allocShared(n * sizeof(T));
        imex_l0_exec_arg_t args[] = {usmArg(out.get())};
        imex_l0_range_t range = range1d(n);
        EXPECT_IMEX(imex_l0_interop_kernel_execute(kernel, stream.get(), 1, args, &range, 0,
                                                   nullptr, nullptr));
        EXPECT_IMEX(imex_l0_stream_wait(stream.get()));
        return std::vector<T>(out.as<T>(), out.as<T>() + n);
    }
};

imex_l0_kernel_t sentinelKernel() { return reinterpret_cast<imex_l0_kernel_t>(uintptr_t(0x5e5e)); }

// A "file:line:column" diagnostic position, as compilers print them.
const std::regex kLineColumn(R"(:\d+:\d+)");

const char *kDefinesSource = R"CL(
kernel void defined(global float *out) {
    size_t i = get_global_id(0);
#ifdef NEGATE
    out[i] = -(SCALE * (float)i + OFFSET);
#else
    out[i] = SCALE * (float)i + OFFSET;
#endif
}
)CL";

TEST_F(KernelTest, FromSourceRuns) {
    Kernel scale = fromSource("scale");
    ASSERT_NE(scale.get(), nullptr);
    UsmBuffer in = allocShared(256 * sizeof(float)), out = allocShared(256 * sizeof(float));
    for (int i = 0; i < 256; ++i)
        in.as<float>()[i] = float(i) - 100.0f;
    float alpha = -2.5f;
    imex_l0_exec_arg_t args[] = {usmArg(in.get()), usmArg(out.get()), valueArg(alpha)};
    imex_l0_range_t range = range1d(256, 32);
    ASSERT_IMEX(imex_l0_interop_kernel_execute(scale.get(), stream.get(), 3, args, &range, 0,
                                               nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (int i = 0; i < 256; ++i)
        ASSERT_EQ(out.as<float>()[i], (float(i) - 100.0f) * alpha) << i;
}

TEST_F(KernelTest, FromSpirvRuns) {
    Kernel add = fromSpirv("add");
    ASSERT_NE(add.get(), nullptr);
    UsmBuffer a = allocShared(100 * sizeof(float)), b = allocShared(100 * sizeof(float)),
              out = allocShared(100 * sizeof(float));
    for (int i = 0; i < 100; ++i) {
        a.as<float>()[i] = float(i);
        b.as<float>()[i] = float(1000 - 3 * i);
    }
    imex_l0_exec_arg_t args[] = {usmArg(a.get()), usmArg(b.get()), usmArg(out.get())};
    imex_l0_range_t range = range1d(100, 10);
    ASSERT_IMEX(imex_l0_interop_kernel_execute(add.get(), stream.get(), 3, args, &range, 0,
                                               nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (int i = 0; i < 100; ++i)
        ASSERT_EQ(out.as<float>()[i], float(i) + float(1000 - 3 * i)) << i;

    // The same module with build options is another build, and runs too.
    Kernel relaxed;
    ASSERT_IMEX(imex_l0_kernel_create_from_spirv(relaxed.out(), engine.get(),
                                                 kernelSpirv().data(), kernelSpirv().size(), "add",
                                                 "-cl-mad-enable"));
    std::memset(out.get(), 0, out.size());
    ASSERT_IMEX(imex_l0_interop_kernel_execute(relaxed.get(), stream.get(), 3, args, &range, 0,
                                               nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (int i = 0; i < 100; ++i)
        ASSERT_EQ(out.as<float>()[i], float(i) + float(1000 - 3 * i)) << i;
}

TEST_F(KernelTest, DefinesAndBuildOptionsReachTheSource) {
    // Defines with values, and one without (value NULL means -Dname).
    imex_l0_define_t defines[] = {{"SCALE", "3.0f"}, {"OFFSET", "0.5f"}, {"NEGATE", nullptr}};
    Kernel negated;
    ASSERT_IMEX(imex_l0_kernel_create_from_source(negated.out(), engine.get(), kDefinesSource,
                                                  "defined", nullptr, 3, defines));
    std::vector<float> out = runOutOnly(negated.get(), 64);
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(out[i], -(3.0f * float(i) + 0.5f)) << i;

    // The same source with the macros from build options: another build.
    Kernel viaOptions;
    ASSERT_IMEX(imex_l0_kernel_create_from_source(viaOptions.out(), engine.get(), kDefinesSource,
                                                  "defined", "-DSCALE=2.0f -D OFFSET=7.0f", 0,
                                                  nullptr));
    out = runOutOnly(viaOptions.get(), 64);
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(out[i], 2.0f * float(i) + 7.0f) << i;

    // Different define values are different kernels (part of the cache key).
    imex_l0_define_t other[] = {{"SCALE", "1.0f"}, {"OFFSET", "-1.0f"}};
    Kernel plain;
    ASSERT_IMEX(imex_l0_kernel_create_from_source(plain.out(), engine.get(), kDefinesSource,
                                                  "defined", nullptr, 2, other));
    out = runOutOnly(plain.get(), 64);
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(out[i], float(i) - 1.0f) << i;
}

// cl_khr_fp16 follows the device: the project's driver reports no FP16
// (PoCL's CPU device has no cl_khr_fp16), so half arithmetic is a compile
// error that names it, while half as a storage format still works.
TEST_F(KernelTest, HalfArithmeticFollowsTheDevice) {
    ze_device_module_properties_t props = {ZE_STRUCTURE_TYPE_DEVICE_MODULE_PROPERTIES};
    ASSERT_ZE(zeDeviceGetModuleProperties(device, &props));
    if (props.flags & ZE_DEVICE_MODULE_FLAG_FP16)
        GTEST_SKIP() << "the device computes with half";
    Kernel arithmetic;
    EXPECT_IMEX_STATUS(imex_l0_compile_error,
                       imex_l0_kernel_create_from_source(
                           arithmetic.out(), engine.get(),
                           "kernel void k(global half *o) { o[0] = o[1] * (half)2; }", "k",
                           nullptr, 0, nullptr));
    EXPECT_MESSAGE_HAS("half");

    Kernel storage;
    ASSERT_IMEX(imex_l0_kernel_create_from_source(
        storage.out(), engine.get(),
        "kernel void k(global float *out) {\n"
        "    size_t i = get_global_id(0);\n"
        "    global half *h = (global half *)out; // half 2i lies in out[i]\n"
        "    vstore_half((float)i * 0.5f, 2 * i, h);\n"
        "    out[i] = vload_half(2 * i, h) + 1.0f;\n"
        "}\n",
        "k", nullptr, 0, nullptr));
    std::vector<float> out = runOutOnly(storage.get(), 64);
    for (int i = 0; i < 64; ++i)
        ASSERT_EQ(out[i], float(i) * 0.5f + 1.0f) << i;
}

TEST_F(KernelTest, RegisteredHeaderAndLibraryHeadersAreIncludable) {
    ASSERT_IMEX(imex_l0_register_header("interop_test/triple.h",
                                        "inline float triple(float x) { return 3.0f * x; }\n"));
    const char *source = R"CL(
#include "interop_test/triple.h"
#include "imex_l0/indexing.h"
kernel void tripled(global float *out) {
    size_t i = imex_l0_global_linear_id();
    out[i] = triple((float)i);
}
)CL";
    Kernel kernel;
    ASSERT_IMEX(imex_l0_kernel_create_from_source(kernel.out(), engine.get(), source, "tripled",
                                                  nullptr, 0, nullptr));
    std::vector<float> out = runOutOnly(kernel.get(), 50);
    for (int i = 0; i < 50; ++i)
        ASSERT_EQ(out[i], 3.0f * float(i)) << i;

    EXPECT_INVALID(imex_l0_register_header(nullptr, "x"), "name");
    EXPECT_INVALID(imex_l0_register_header("", "x"), "name");
    EXPECT_INVALID(imex_l0_register_header("a.h", nullptr), "contents");
}

TEST_F(KernelTest, ReRegisteredHeaderReachesLaterCompiles) {
    // "every later compile": the same source, built again after its header
    // changed, must see the new contents (not a cached build of the old).
    const char *source = R"CL(
#include "interop_test/value.h"
kernel void header_value(global int *out) { out[get_global_id(0)] = HEADER_VALUE; }
)CL";
    for (int value : {1, 2}) {
        std::string contents = "#define HEADER_VALUE " + std::to_string(value) + "\n";
        ASSERT_IMEX(imex_l0_register_header("interop_test/value.h", contents.c_str()));
        Kernel kernel;
        ASSERT_IMEX(imex_l0_kernel_create_from_source(kernel.out(), engine.get(), source,
                                                      "header_value", nullptr, 0, nullptr));
        UsmBuffer out = allocShared(4 * sizeof(int));
        imex_l0_exec_arg_t args[] = {usmArg(out.get())};
        imex_l0_range_t range = range1d(4);
        ASSERT_IMEX(imex_l0_interop_kernel_execute(kernel.get(), stream.get(), 1, args, &range, 0,
                                                   nullptr, nullptr));
        ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
        for (int i = 0; i < 4; ++i)
            EXPECT_EQ(out.as<int>()[i], value) << "header registered with " << value;
        // The compile-only path sees it too.
        void *spirv = nullptr;
        size_t size = 0;
        ASSERT_IMEX(imex_l0_compile_opencl_c(source, nullptr, 0, nullptr, &spirv, &size, nullptr));
        imex_l0_free(spirv);
    }
}

// Headers of one compile: the source and the headers it includes see them,
// over a registered header of the same name, and nothing is registered;
// two compiles of one source with different headers build different
// kernels (the headers are part of the cache keys); the library's own
// headers and invalid names are refused.
TEST_F(KernelTest, HeadersOfOneCompile) {
    ASSERT_IMEX(imex_l0_register_header("interop_test/own/value.h", "#define OWN_VALUE 100\n"));
    const char *source = R"CL(
#include "interop_test/own/outer.h"
kernel void own_value(global int *out) { out[get_global_id(0)] = OWN_VALUE + OUTER; }
)CL";
    for (int value : {1, 2}) {
        std::string contents = "#define OWN_VALUE " + std::to_string(value) + "\n";
        imex_l0_header_t headers[] = {
            {"interop_test/own/outer.h", "#include \"value.h\"\n#define OUTER 10\n"},
            {"interop_test/own/value.h", contents.c_str()}};
        Kernel kernel;
        ASSERT_IMEX(imex_l0_kernel_create_from_source_with_headers(
            kernel.out(), engine.get(), source, "own_value", nullptr, 0, nullptr, 2, headers));
        std::vector<int> out = runOutOnly<int>(kernel.get(), 4);
        for (int i = 0; i < 4; ++i)
            EXPECT_EQ(out[i], value + 10) << "compile with OWN_VALUE " << value;
        void *spirv = nullptr;
        size_t size = 0;
        ASSERT_IMEX(imex_l0_compile_opencl_c_with_headers(source, nullptr, 0, nullptr, 2, headers,
                                                          &spirv, &size, nullptr));
        imex_l0_free(spirv);
    }
    // Nothing was registered: without its headers the source does not compile.
    Kernel none;
    EXPECT_EQ(imex_l0_kernel_create_from_source(none.out(), engine.get(), source, "own_value",
                                                nullptr, 0, nullptr),
              imex_l0_compile_error);
    EXPECT_NE(std::string(imex_l0_last_error_message()).find("outer.h"), std::string::npos)
        << imex_l0_last_error_message();

    imex_l0_header_t own[] = {{"imex_l0/indexing.h", "#define X 1\n"}};
    Kernel refused;
    EXPECT_INVALID(imex_l0_kernel_create_from_source_with_headers(
                       refused.out(), engine.get(), source, "own_value", nullptr, 0, nullptr, 1,
                       own),
                   "library's own headers");
    imex_l0_header_t dotted[] = {{"../escape.h", "#define X 1\n"}};
    EXPECT_INVALID(imex_l0_kernel_create_from_source_with_headers(
                       refused.out(), engine.get(), source, "own_value", nullptr, 0, nullptr, 1,
                       dotted),
                   "invalid header name");
    imex_l0_header_t null[] = {{"a.h", nullptr}};
    EXPECT_INVALID(imex_l0_kernel_create_from_source_with_headers(
                       refused.out(), engine.get(), source, "own_value", nullptr, 0, nullptr, 1,
                       null),
                   "headers[0]");
    EXPECT_INVALID(imex_l0_kernel_create_from_source_with_headers(
                       refused.out(), engine.get(), source, "own_value", nullptr, 0, nullptr, 1,
                       nullptr),
                   "headers is NULL");
}

// A framework's own module and kernels, imported: kept by the caller (the
// handle stays live after the library kernel is gone) or transferred (the
// library destroys kernel and module); launched with USM, value and local
// arguments against a host reference; the argument count, pointers and
// local memory checked as for the library's own kernels.
TEST_F(KernelTest, ImportedFrameworkKernels) {
    const std::string &spirv = kernelSpirv();
    auto createModule = [&] {
        ze_module_desc_t desc = {ZE_STRUCTURE_TYPE_MODULE_DESC};
        desc.format = ZE_MODULE_FORMAT_IL_SPIRV;
        desc.inputSize = spirv.size();
        desc.pInputModule = reinterpret_cast<const uint8_t *>(spirv.data());
        ze_module_handle_t m = nullptr;
        EXPECT_ZE(zeModuleCreate(context.get(), device, &desc, &m, nullptr));
        return m;
    };
    auto createKernel = [](ze_module_handle_t m, const char *name) {
        ze_kernel_desc_t desc = {ZE_STRUCTURE_TYPE_KERNEL_DESC, nullptr, 0, name};
        ze_kernel_handle_t k = nullptr;
        EXPECT_ZE(zeKernelCreate(m, &desc, &k));
        return k;
    };
    constexpr size_t n = 64;

    // Kept: "scale" (in, out, float alpha).
    ze_module_handle_t kept = createModule();
    ASSERT_NE(kept, nullptr);
    ze_kernel_handle_t scaleHandle = createKernel(kept, "scale");
    {
        Kernel scale;
        ASSERT_IMEX(imex_l0_interop_kernel_create_from_handle(scale.out(), engine.get(), kept,
                                                              scaleHandle, imex_l0_ownership_keep));
        size_t nargs = 0;
        ASSERT_IMEX(imex_l0_kernel_get_arg_count(scale.get(), &nargs));
        EXPECT_EQ(nargs, 3u);
        imex_l0_arg_kind_t kind = imex_l0_arg_kind_value;
        size_t size = 1;
        ASSERT_IMEX(imex_l0_kernel_get_arg_info(scale.get(), 2, &kind, &size));
        EXPECT_EQ(kind, imex_l0_arg_kind_unknown);
        UsmBuffer in = allocShared(n * sizeof(float)), out = allocShared(n * sizeof(float));
        for (size_t i = 0; i < n; ++i)
            in.as<float>()[i] = float(i);
        float alpha = 2.5f;
        imex_l0_exec_arg_t args[] = {usmArg(in.get()), usmArg(out.get()), valueArg(alpha)};
        imex_l0_range_t range = range1d(n, 16);
        ASSERT_IMEX(imex_l0_interop_kernel_execute(scale.get(), stream.get(), 3, args, &range, 0,
                                                   nullptr, nullptr));
        ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
        for (size_t i = 0; i < n; ++i)
            ASSERT_EQ(out.as<float>()[i], 2.5f * float(i)) << i;
        // A pointer that is no USM of the engine's context is refused by name.
        std::vector<float> host(n);
        imex_l0_exec_arg_t wrong[] = {usmArg(host.data()), usmArg(out.get()), valueArg(alpha)};
        EXPECT_INVALID(imex_l0_interop_kernel_execute(scale.get(), stream.get(), 3, wrong, &range,
                                                      0, nullptr, nullptr),
                       "argument 0 of kernel 'scale' is not USM");
        // The count is known: a missing argument is refused before the driver.
        EXPECT_INVALID(imex_l0_interop_kernel_execute(scale.get(), stream.get(), 2, args, &range,
                                                      0, nullptr, nullptr),
                       "takes 3 argument(s)");
    }
    // Still the caller's, and live; free to import again.
    ze_kernel_properties_t props = {ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    EXPECT_ZE(zeKernelGetProperties(scaleHandle, &props));
    {
        Kernel again, twice;
        ASSERT_IMEX(imex_l0_interop_kernel_create_from_handle(again.out(), engine.get(), kept,
                                                              scaleHandle, imex_l0_ownership_keep));
        // Two library kernels over one handle would each cache its argument
        // state: refused, as is a handle of the library's own kernels.
        EXPECT_INVALID(imex_l0_interop_kernel_create_from_handle(
                           twice.out(), engine.get(), kept, scaleHandle, imex_l0_ownership_keep),
                       "already a library kernel's");
        Kernel own = fromSource("add");
        ze_kernel_handle_t ownHandle = nullptr;
        ASSERT_IMEX(imex_l0_interop_kernel_get_handle(own.get(), &ownHandle));
        EXPECT_INVALID(imex_l0_interop_kernel_create_from_handle(
                           twice.out(), engine.get(), nullptr, ownHandle, imex_l0_ownership_keep),
                       "already a library kernel's");
    }
    EXPECT_ZE(zeKernelDestroy(scaleHandle));
    EXPECT_ZE(zeModuleDestroy(kept));

    // Transferred: "reduce_sum" (in, partial, local scratch), with its module.
    ze_module_handle_t given = createModule();
    ASSERT_NE(given, nullptr);
    ze_kernel_handle_t reduceHandle = createKernel(given, "reduce_sum");
    Kernel reduce;
    ASSERT_IMEX(imex_l0_interop_kernel_create_from_handle(reduce.out(), engine.get(), given,
                                                          reduceHandle,
                                                          imex_l0_ownership_transfer));
    constexpr size_t group = 16;
    UsmBuffer in = allocShared(n * sizeof(int)), partial = allocShared(n / group * sizeof(int));
    for (size_t i = 0; i < n; ++i)
        in.as<int>()[i] = int(i * 3 % 7);
    imex_l0_exec_arg_t args[] = {usmArg(in.get()), usmArg(partial.get()),
                                 localArg(group * sizeof(int))};
    imex_l0_range_t range = range1d(n, group);
    ASSERT_IMEX(imex_l0_interop_kernel_execute(reduce.get(), stream.get(), 3, args, &range, 0,
                                               nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (size_t g = 0; g < n / group; ++g) {
        int expected = 0;
        for (size_t i = g * group; i < (g + 1) * group; ++i)
            expected += in.as<int>()[i];
        EXPECT_EQ(partial.as<int>()[g], expected) << "group " << g;
    }
    // Local memory beyond the device's is refused before the driver.
    imex_l0_exec_arg_t huge[] = {usmArg(in.get()), usmArg(partial.get()),
                                 localArg(size_t(1) << 40)};
    EXPECT_INVALID(imex_l0_interop_kernel_execute(reduce.get(), stream.get(), 3, huge, &range, 0,
                                                  nullptr, nullptr),
                   "bytes of local memory");

    Kernel bad;
    EXPECT_INVALID(imex_l0_interop_kernel_create_from_handle(bad.out(), engine.get(), nullptr,
                                                             nullptr, imex_l0_ownership_keep),
                   "handle is NULL");
}

TEST_F(KernelTest, CompileErrorReturnsTheBuildLog) {
    const char *broken = "kernel void broken(global int *out) {\n"
                         "    out[0] = undeclared_name;\n"
                         "}\n";
    imex_l0_kernel_t kernel = sentinelKernel();
    EXPECT_IMEX_STATUS(imex_l0_compile_error,
                       imex_l0_kernel_create_from_source(&kernel, engine.get(), broken, "broken",
                                                         nullptr, 0, nullptr));
    std::string message = lastError();
    EXPECT_TRUE(std::regex_search(message, kLineColumn)) << "no line:column in: " << message;
    EXPECT_NE(message.find("undeclared_name"), std::string::npos) << message;
    EXPECT_NE(message.find(":2:"), std::string::npos) << "the error is on line 2: " << message;
    EXPECT_EQ(kernel, sentinelKernel());
    // The refused create left no child behind.
    stream.reset();
    EXPECT_IMEX(imex_l0_engine_destroy(engine.release()));
}

TEST_F(KernelTest, UnknownKernelNameListsTheAvailableOnes) {
    imex_l0_kernel_t kernel = sentinelKernel();
    EXPECT_IMEX_STATUS(imex_l0_not_found,
                       imex_l0_kernel_create_from_source(&kernel, engine.get(),
                                                         kernelSource().c_str(), "no_such_kernel",
                                                         nullptr, 0, nullptr));
    EXPECT_MESSAGE_HAS("no_such_kernel");
    EXPECT_MESSAGE_HAS("reduce_sum");
    EXPECT_MESSAGE_HAS("fill_index");
    EXPECT_IMEX_STATUS(imex_l0_not_found,
                       imex_l0_kernel_create_from_spirv(&kernel, engine.get(),
                                                        kernelSpirv().data(), kernelSpirv().size(),
                                                        "no_such_kernel", nullptr));
    EXPECT_MESSAGE_HAS("add");
    EXPECT_MESSAGE_HAS("scale");
    EXPECT_EQ(kernel, sentinelKernel());
}

TEST_F(KernelTest, GarbageSpirvIsAnErrorNotACrash) {
    imex_l0_kernel_t kernel = sentinelKernel();
    // Not SPIR-V at all, in several shapes.
    std::vector<uint32_t> zeros(64, 0);
    std::string text = "this is not a SPIR-V module, just some text!!";
    std::vector<uint32_t> random(256);
    uint32_t x = 12345;
    for (auto &w : random)
        w = x = x * 1103515245u + 12345u;
    // The right magic, then junk; an odd byte count.
    std::vector<uint32_t> magicThenJunk = random;
    magicThenJunk[0] = 0x07230203;
    struct Case {
        const char *what;
        const void *data;
        size_t size;
    } cases[] = {
        {"zeros", zeros.data(), zeros.size() * 4},
        {"text", text.data(), text.size()},
        {"random", random.data(), random.size() * 4},
        {"magic then junk", magicThenJunk.data(), magicThenJunk.size() * 4},
        {"odd size", kernelSpirv().data(), kernelSpirv().size() - 1},
    };
    for (const Case &c : cases) {
        imex_l0_status_t s =
            imex_l0_kernel_create_from_spirv(&kernel, engine.get(), c.data, c.size, "add", nullptr);
        EXPECT_NE(s, imex_l0_success) << c.what;
        EXPECT_NE(lastError(), "") << c.what;
        EXPECT_EQ(kernel, sentinelKernel()) << c.what;
    }
    EXPECT_INVALID(imex_l0_kernel_create_from_spirv(&kernel, engine.get(), nullptr, 100, "add",
                                                    nullptr),
                   "spirv");
    EXPECT_INVALID(imex_l0_kernel_create_from_spirv(&kernel, engine.get(), kernelSpirv().data(),
                                                    0, "add", nullptr),
                   "size");
    // The engine is unharmed: a good module still builds and no child leaked.
    Kernel good = fromSpirv("empty");
    EXPECT_NE(good.get(), nullptr);
}

TEST_F(KernelTest, SpirvTheDeviceRejectsIsACompileError) {
    // Well-formed words up to where it stops (the library's own reading of
    // the module accepts it), but no valid module: the device build fails,
    // and the driver's build log is the message.
    std::string truncated = kernelSpirv().substr(0, (kernelSpirv().size() / 2) & ~size_t(3));
    imex_l0_kernel_t kernel = sentinelKernel();
    EXPECT_IMEX_STATUS(imex_l0_compile_error,
                       imex_l0_kernel_create_from_spirv(&kernel, engine.get(), truncated.data(),
                                                        truncated.size(), "add", nullptr));
    EXPECT_NE(lastError(), "");
    // The driver's build log reaches the caller, except where the loader
    // cannot hand it out (it intercepts handles and leaves the log of a
    // failed build unwrapped).
    const char *intercept = std::getenv("ZE_ENABLE_LOADER_INTERCEPT");
    if (!intercept || std::string(intercept) != "1") {
        EXPECT_MESSAGE_HAS("SPIR-V");
    }
    // Only the 5-word header: no kernels, whoever notices first.
    EXPECT_NE(imex_l0_kernel_create_from_spirv(&kernel, engine.get(), kernelSpirv().data(), 20,
                                               "add", nullptr),
              imex_l0_success);
    EXPECT_NE(lastError(), "");
    EXPECT_EQ(kernel, sentinelKernel());
    Kernel good = fromSpirv("add");
    EXPECT_NE(good.get(), nullptr);
}

TEST_F(KernelTest, CreateRejectsNullArguments) {
    imex_l0_kernel_t kernel = sentinelKernel();
    const char *src = kernelSource().c_str();
    EXPECT_INVALID(imex_l0_kernel_create_from_source(nullptr, engine.get(), src, "add", nullptr,
                                                     0, nullptr),
                   "kernel");
    EXPECT_INVALID(
        imex_l0_kernel_create_from_source(&kernel, nullptr, src, "add", nullptr, 0, nullptr),
        "engine");
    EXPECT_INVALID(imex_l0_kernel_create_from_source(&kernel, engine.get(), nullptr, "add",
                                                     nullptr, 0, nullptr),
                   "source");
    EXPECT_INVALID(imex_l0_kernel_create_from_source(&kernel, engine.get(), src, nullptr, nullptr,
                                                     0, nullptr),
                   "kernel_name");
    EXPECT_INVALID(
        imex_l0_kernel_create_from_source(&kernel, engine.get(), src, "add", nullptr, 2, nullptr),
        "defines");
    imex_l0_define_t unnamed[] = {{nullptr, "1"}};
    EXPECT_INVALID(
        imex_l0_kernel_create_from_source(&kernel, engine.get(), src, "add", nullptr, 1, unnamed),
        "defines[0]");
    EXPECT_INVALID(imex_l0_kernel_create_from_spirv(nullptr, engine.get(), kernelSpirv().data(),
                                                    kernelSpirv().size(), "add", nullptr),
                   "kernel");
    EXPECT_INVALID(imex_l0_kernel_create_from_spirv(&kernel, nullptr, kernelSpirv().data(),
                                                    kernelSpirv().size(), "add", nullptr),
                   "engine");
    EXPECT_INVALID(imex_l0_kernel_create_from_spirv(&kernel, engine.get(), kernelSpirv().data(),
                                                    kernelSpirv().size(), nullptr, nullptr),
                   "kernel_name");
    EXPECT_EQ(kernel, sentinelKernel());
}

TEST_F(KernelTest, SecondCreateOfTheSameSourceIsACacheHit) {
    const char *source = "kernel void cached_twice(global float *out) {\n"
                         "    out[get_global_id(0)] = 42.0f;\n"
                         "}\n";
    Kernel first;
    ASSERT_IMEX(imex_l0_kernel_create_from_source(first.out(), engine.get(), source,
                                                  "cached_twice", "-cl-mad-enable", 0, nullptr));
    imex_l0_cache_stats_t before;
    ASSERT_IMEX(imex_l0_get_cache_stats(&before));
    Kernel second;
    ASSERT_IMEX(imex_l0_kernel_create_from_source(second.out(), engine.get(), source,
                                                  "cached_twice", "-cl-mad-enable", 0, nullptr));
    imex_l0_cache_stats_t after;
    ASSERT_IMEX(imex_l0_get_cache_stats(&after));
    // Found in the engine's cache: nothing was compiled again.
    EXPECT_EQ(after.memory_misses, before.memory_misses);
    EXPECT_EQ(after.disk_misses, before.disk_misses);
    // Two kernel objects, each independently usable and destroyable.
    EXPECT_NE(first.get(), second.get());
    first.reset();
    std::vector<float> out = runOutOnly(second.get(), 16);
    for (float v : out)
        ASSERT_EQ(v, 42.0f);
}

TEST_F(KernelTest, VerboseInfoLinesNameTheCacheAndTheLaunch) {
    // Registered a second time with IMEX_L0_VERBOSE=info (read once per
    // process, so it cannot be switched on from here).
    const char *verbose = std::getenv("IMEX_L0_VERBOSE");
    if (!verbose || std::string(verbose) != "info")
        GTEST_SKIP() << "runs with IMEX_L0_VERBOSE=info";
    const char *source = "kernel void logged_kernel(global int *o) { o[get_global_id(0)] = 5; }";
    ::testing::internal::CaptureStderr();
    Kernel first, second;
    imex_l0_status_t s1 = imex_l0_kernel_create_from_source(first.out(), engine.get(), source,
                                                            "logged_kernel", nullptr, 0, nullptr);
    imex_l0_status_t s2 = imex_l0_kernel_create_from_source(second.out(), engine.get(), source,
                                                            "logged_kernel", nullptr, 0, nullptr);
    UsmBuffer out = allocShared(7 * sizeof(int));
    imex_l0_exec_arg_t args[] = {usmArg(out.get())};
    imex_l0_range_t range = range1d(7);
    imex_l0_status_t s3 = imex_l0_interop_kernel_execute(second.get(), stream.get(), 1, args,
                                                         &range, 0, nullptr, nullptr);
    imex_l0_status_t s4 = imex_l0_stream_wait(stream.get());
    imex_l0_status_t s5 = imex_l0_kernel_destroy(nullptr);
    std::string log = ::testing::internal::GetCapturedStderr();
    ASSERT_EQ(s1, imex_l0_success);
    ASSERT_EQ(s2, imex_l0_success);
    ASSERT_EQ(s3, imex_l0_success);
    ASSERT_EQ(s4, imex_l0_success);
    for (int i = 0; i < 7; ++i)
        ASSERT_EQ(out.as<int>()[i], 5);
    std::regex miss(R"(info,kernel_create,[^\n]*logged_kernel[^\n]*cache=miss)");
    std::regex hit(R"(info,kernel_create,[^\n]*logged_kernel[^\n]*cache=hit)");
    std::regex launch(R"(info,kernel_execute,[^\n]*logged_kernel[^\n]*7x1x1)");
    EXPECT_TRUE(std::regex_search(log, miss)) << log;
    EXPECT_TRUE(std::regex_search(log, hit)) << log;
    EXPECT_TRUE(std::regex_search(log, launch)) << log;
    // Failures are logged with their reason.
    EXPECT_EQ(s5, imex_l0_invalid_arguments);
    std::regex failure(R"(error,imex_l0_kernel_destroy,imex_l0_invalid_arguments,[^\n]*kernel)");
    EXPECT_TRUE(std::regex_search(log, failure)) << log;
}

TEST_F(KernelTest, VerboseNoneKeepsStderrQuietButTheMessage) {
    // Registered a second time with IMEX_L0_VERBOSE=none.
    const char *verbose = std::getenv("IMEX_L0_VERBOSE");
    if (!verbose || std::string(verbose) != "none")
        GTEST_SKIP() << "runs with IMEX_L0_VERBOSE=none";
    ::testing::internal::CaptureStderr();
    imex_l0_status_t status = imex_l0_kernel_destroy(nullptr);
    std::string log = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(status, imex_l0_invalid_arguments);
    EXPECT_EQ(log, "");
    // The caller still gets the reason.
    EXPECT_NE(std::string(imex_l0_last_error_message()).find("kernel"), std::string::npos)
        << imex_l0_last_error_message();
}

TEST_F(KernelTest, ConcurrentCreatesOnOneEngine) {
    // The engine's kernel cache is shared by threads: creating the same and
    // different kernels at once must give working kernels and no errors.
    constexpr int kThreads = 4;
    const char *names[] = {"add", "scale", "increment", "fill_index"};
    imex_l0_status_t status[kThreads][2] = {};
    std::string messages[kThreads];
    Kernel kernels[kThreads][2];
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            // The shared test source, and one source per thread.
            std::string own = "kernel void own_" + std::to_string(t) +
                              "(global int *o) { o[get_global_id(0)] = " + std::to_string(t) +
                              "; }";
            std::string ownName = "own_" + std::to_string(t);
            status[t][0] = imex_l0_kernel_create_from_source(kernels[t][0].out(), engine.get(),
                                                             kernelSource().c_str(), names[t],
                                                             nullptr, 0, nullptr);
            if (status[t][0] == imex_l0_success)
                status[t][1] = imex_l0_kernel_create_from_source(kernels[t][1].out(),
                                                                 engine.get(), own.c_str(),
                                                                 ownName.c_str(), nullptr, 0,
                                                                 nullptr);
            messages[t] = imex_l0_last_error_message();
        });
    for (auto &th : threads)
        th.join();
    for (int t = 0; t < kThreads; ++t) {
        ASSERT_EQ(status[t][0], imex_l0_success) << t << ": " << messages[t];
        ASSERT_EQ(status[t][1], imex_l0_success) << t << ": " << messages[t];
        UsmBuffer out = allocShared(16 * sizeof(int));
        imex_l0_exec_arg_t args[] = {usmArg(out.get())};
        imex_l0_range_t range = range1d(16);
        ASSERT_IMEX(imex_l0_interop_kernel_execute(kernels[t][1].get(), stream.get(), 1, args,
                                                   &range, 0, nullptr, nullptr));
        ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
        for (int i = 0; i < 16; ++i)
            ASSERT_EQ(out.as<int>()[i], t) << "thread " << t;
    }
}

TEST_F(KernelTest, ArgumentIntrospection) {
    for (bool spirv : {false, true}) {
        SCOPED_TRACE(spirv ? "from SPIR-V" : "from source");
        Kernel kernel = spirv ? fromSpirv("arg_kinds") : fromSource("arg_kinds");
        ASSERT_NE(kernel.get(), nullptr);
        size_t nargs = 0;
        ASSERT_IMEX(imex_l0_kernel_get_arg_count(kernel.get(), &nargs));
        ASSERT_EQ(nargs, 8u);
        // global int *, constant int *, local int *, int, float4, affine_t, char, long
        const imex_l0_arg_kind_t kinds[] = {imex_l0_arg_kind_global, imex_l0_arg_kind_constant,
                                            imex_l0_arg_kind_local,  imex_l0_arg_kind_value,
                                            imex_l0_arg_kind_value,  imex_l0_arg_kind_value,
                                            imex_l0_arg_kind_value,  imex_l0_arg_kind_value};
        const size_t sizes[] = {sizeof(void *), sizeof(void *), 0, 4, 16, 12, 1, 8};
        for (size_t i = 0; i < nargs; ++i) {
            imex_l0_arg_kind_t kind;
            size_t size = 0;
            ASSERT_IMEX(imex_l0_kernel_get_arg_info(kernel.get(), i, &kind, &size));
            EXPECT_EQ(kind, kinds[i]) << "argument " << i;
            // A local argument's size is chosen per launch, so only values
            // and pointers have a fixed size.
            if (kinds[i] != imex_l0_arg_kind_local) {
                EXPECT_EQ(size, sizes[i]) << "argument " << i;
            }
        }
        imex_l0_arg_kind_t kind = imex_l0_arg_kind_local;
        size_t size = 99;
        EXPECT_INVALID(imex_l0_kernel_get_arg_info(kernel.get(), 8, &kind, &size), "index");
        EXPECT_EQ(kind, imex_l0_arg_kind_local);
        EXPECT_EQ(size, 99u);
        EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                           imex_l0_kernel_get_arg_info(kernel.get(), 0, nullptr, &size));
        EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                           imex_l0_kernel_get_arg_info(kernel.get(), 0, &kind, nullptr));
        EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                           imex_l0_kernel_get_arg_count(kernel.get(), nullptr));
    }
    Kernel empty = fromSource("empty");
    size_t nargs = 99;
    ASSERT_IMEX(imex_l0_kernel_get_arg_count(empty.get(), &nargs));
    EXPECT_EQ(nargs, 0u);
}

TEST_F(KernelTest, NativeHandleIsALiveLevelZeroKernel) {
    Kernel kernel = fromSource("affine");
    ze_kernel_handle_t handle = nullptr;
    ASSERT_IMEX(imex_l0_interop_kernel_get_handle(kernel.get(), &handle));
    ASSERT_NE(handle, nullptr);
    ze_kernel_properties_t props = {ZE_STRUCTURE_TYPE_KERNEL_PROPERTIES};
    ASSERT_ZE(zeKernelGetProperties(handle, &props));
    EXPECT_EQ(props.numKernelArgs, 3u);
    size_t nameSize = 0;
    ASSERT_ZE(zeKernelGetName(handle, &nameSize, nullptr));
    std::string name(nameSize, '\0');
    ASSERT_ZE(zeKernelGetName(handle, &nameSize, name.data()));
    EXPECT_STREQ(name.c_str(), "affine");
    EXPECT_IMEX_STATUS(imex_l0_invalid_arguments,
                       imex_l0_interop_kernel_get_handle(kernel.get(), nullptr));
}

TEST_F(KernelTest, CallsRejectNullAndWrongHandles) {
    auto notAKernel = reinterpret_cast<imex_l0_kernel_t>(stream.get());
    size_t nargs = 5;
    ze_kernel_handle_t handle = nullptr;
    imex_l0_arg_kind_t kind;
    size_t size;
    EXPECT_INVALID(imex_l0_kernel_get_arg_count(nullptr, &nargs), "kernel");
    EXPECT_INVALID(imex_l0_kernel_get_arg_count(notAKernel, &nargs), "kernel");
    EXPECT_EQ(nargs, 5u);
    EXPECT_INVALID(imex_l0_kernel_get_arg_info(notAKernel, 0, &kind, &size), "kernel");
    EXPECT_INVALID(imex_l0_interop_kernel_get_handle(nullptr, &handle), "kernel");
    EXPECT_INVALID(imex_l0_interop_kernel_get_handle(notAKernel, &handle), "kernel");
    EXPECT_EQ(handle, nullptr);
    EXPECT_INVALID(imex_l0_kernel_destroy(nullptr), "kernel");
    EXPECT_INVALID(imex_l0_kernel_destroy(notAKernel), "kernel");
    // The stream survived being mistaken for a kernel.
    EXPECT_IMEX(imex_l0_stream_wait(stream.get()));
}

TEST_F(KernelTest, KernelOutlivesAnotherOfTheSameModule) {
    // Kernels of one module share the engine's cached module: destroying one
    // kernel object must not disturb the other.
    Kernel add = fromSource("add");
    Kernel scale = fromSource("scale");
    add.reset();
    UsmBuffer in = allocShared(8 * sizeof(float)), out = allocShared(8 * sizeof(float));
    for (int i = 0; i < 8; ++i)
        in.as<float>()[i] = float(i);
    float two = 2.0f;
    imex_l0_exec_arg_t args[] = {usmArg(in.get()), usmArg(out.get()), valueArg(two)};
    imex_l0_range_t range = range1d(8);
    ASSERT_IMEX(imex_l0_interop_kernel_execute(scale.get(), stream.get(), 3, args, &range, 0,
                                               nullptr, nullptr));
    ASSERT_IMEX(imex_l0_stream_wait(stream.get()));
    for (int i = 0; i < 8; ++i)
        ASSERT_EQ(out.as<float>()[i], 2.0f * float(i));
}

// ---------------------------------------------------------------- compile only

TEST(CompileTest, CompileOpenClCReturnsSpirvAndALog) {
    imex_l0_define_t defines[] = {{"VALUE", "5"}};
    void *spirv = nullptr;
    size_t size = 0;
    char *log = nullptr;
    // A #warning, so the successful build has something in its log.
    ASSERT_IMEX(imex_l0_compile_opencl_c("#warning interop_test_warning\n"
                                         "kernel void k(global int *o) {\n"
                                         "    o[get_global_id(0)] = VALUE;\n"
                                         "}\n",
                                         "-cl-std=CL1.2", 1, defines, &spirv, &size, &log));
    ASSERT_NE(spirv, nullptr);
    ASSERT_GE(size, 20u);
    EXPECT_EQ(size % 4, 0u);
    uint32_t magic = 0;
    std::memcpy(&magic, spirv, 4);
    EXPECT_EQ(magic, 0x07230203u);
    ASSERT_NE(log, nullptr);
    EXPECT_NE(std::string(log).find("interop_test_warning"), std::string::npos) << log;
    EXPECT_TRUE(std::regex_search(std::string(log), kLineColumn)) << log;
    imex_l0_free(spirv);
    imex_l0_free(log);

    // The log is optional.
    spirv = nullptr;
    ASSERT_IMEX(imex_l0_compile_opencl_c("kernel void k(void) {}", nullptr, 0, nullptr, &spirv,
                                         &size, nullptr));
    imex_l0_free(spirv);
    imex_l0_free(nullptr);
}

// Without an engine the compile assumes no fp16 arithmetic, so code guarded
// by cl_khr_fp16 takes its other path (here: a build error only the fp16
// path has); -cl-ext=+cl_khr_fp16 asks for it.
TEST(CompileTest, WithoutAnEngineFp16IsAssumedAbsentUnlessAskedFor) {
    const char *guarded = "#ifdef cl_khr_fp16\n"
                          "#error fp16_path\n"
                          "#endif\n"
                          "kernel void k(global half *o) { vstore_half(1.0f, 0, o); }\n";
    void *spirv = nullptr;
    size_t size = 0;
    ASSERT_IMEX(imex_l0_compile_opencl_c(guarded, nullptr, 0, nullptr, &spirv, &size, nullptr));
    imex_l0_free(spirv);
    char *log = nullptr;
    EXPECT_IMEX_STATUS(imex_l0_compile_error,
                       imex_l0_compile_opencl_c(guarded, "-cl-ext=+cl_khr_fp16", 0, nullptr, &spirv,
                                                &size, &log));
    ASSERT_NE(log, nullptr);
    EXPECT_NE(std::string(log).find("fp16_path"), std::string::npos) << log;
    imex_l0_free(log);
}

TEST(CompileTest, CompileErrorStillFillsTheLog) {
    void *spirv = &spirv;
    size_t size = 1234;
    char *log = nullptr;
    EXPECT_IMEX_STATUS(imex_l0_compile_error,
                       imex_l0_compile_opencl_c("kernel void k(global int *o) {\n"
                                                "  o[0] = ;\n"
                                                "}\n",
                                                nullptr, 0, nullptr, &spirv, &size, &log));
    std::string message = lastError();
    EXPECT_TRUE(std::regex_search(message, kLineColumn)) << message;
    ASSERT_NE(log, nullptr);
    EXPECT_TRUE(std::regex_search(std::string(log), kLineColumn)) << log;
    EXPECT_NE(std::string(log).find(":2:"), std::string::npos) << log;
    imex_l0_free(log);
    EXPECT_EQ(spirv, &spirv);
    EXPECT_EQ(size, 1234u);
}

TEST(CompileTest, CompileRejectsNullArguments) {
    void *spirv = nullptr;
    size_t size = 0;
    EXPECT_INVALID(imex_l0_compile_opencl_c(nullptr, nullptr, 0, nullptr, &spirv, &size, nullptr),
                   "source");
    EXPECT_INVALID(imex_l0_compile_opencl_c("kernel void k(void) {}", nullptr, 0, nullptr,
                                            nullptr, &size, nullptr),
                   "spirv");
    EXPECT_INVALID(imex_l0_compile_opencl_c("kernel void k(void) {}", nullptr, 0, nullptr, &spirv,
                                            nullptr, nullptr),
                   "size");
    EXPECT_INVALID(imex_l0_compile_opencl_c("kernel void k(void) {}", nullptr, 3, nullptr, &spirv,
                                            &size, nullptr),
                   "defines");
}

TEST_F(KernelTest, CompiledSpirvFeedsFromSpirv) {
    void *spirv = nullptr;
    size_t size = 0;
    ASSERT_IMEX(imex_l0_compile_opencl_c(
        "kernel void sevens(global float *o) { o[get_global_id(0)] = 7.0f; }", nullptr, 0,
        nullptr, &spirv, &size, nullptr));
    Kernel kernel;
    imex_l0_status_t s =
        imex_l0_kernel_create_from_spirv(kernel.out(), engine.get(), spirv, size, "sevens", nullptr);
    imex_l0_free(spirv);
    ASSERT_IMEX(s);
    for (float v : runOutOnly(kernel.get(), 33))
        ASSERT_EQ(v, 7.0f);
}

TEST(CacheTest, CacheDirectoryAndStatistics) {
    imex_l0_cache_stats_t stats;
    ASSERT_IMEX(imex_l0_get_cache_stats(&stats));
    EXPECT_INVALID(imex_l0_get_cache_stats(nullptr), "stats");

    char dir[] = "/tmp/imex_l0_interop_cache_XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    std::string cacheDir = std::string(dir) + "/nested";
    ASSERT_IMEX(imex_l0_set_cache_dir(cacheDir.c_str()));
    // A source no other test compiles: a miss in memory and on disk.
    // mkdtemp's random name makes the text unique even across repeats.
    std::string source = std::string("// ") + dir + "\nkernel void k(global int *o) { o[0] = 1; }";
    void *spirv = nullptr;
    size_t size = 0;
    ASSERT_IMEX(imex_l0_get_cache_stats(&stats));
    imex_l0_cache_stats_t before = stats;
    ASSERT_IMEX(imex_l0_compile_opencl_c(source.c_str(), nullptr, 0, nullptr, &spirv, &size,
                                         nullptr));
    imex_l0_free(spirv);
    ASSERT_IMEX(imex_l0_get_cache_stats(&stats));
    EXPECT_EQ(stats.memory_misses, before.memory_misses + 1);
    EXPECT_EQ(stats.disk_misses, before.disk_misses + 1);
    // Compiling it again is a memory hit.
    ASSERT_IMEX(imex_l0_compile_opencl_c(source.c_str(), nullptr, 0, nullptr, &spirv, &size,
                                         nullptr));
    imex_l0_free(spirv);
    imex_l0_cache_stats_t again;
    ASSERT_IMEX(imex_l0_get_cache_stats(&again));
    EXPECT_EQ(again.memory_hits, stats.memory_hits + 1);
    ASSERT_IMEX(imex_l0_set_cache_dir(nullptr));
    std::filesystem::remove_all(dir);
}

} // namespace

namespace {

// SPIR-V specialization constants: the module stores constant 7 (default 5);
// each set of constants is a module of its own in the cache.
TEST_F(KernelTest, SpecializationConstants) {
    std::string spirv = readFile(SPEC_CONSTANT_SPV, std::ios::binary);
    ASSERT_FALSE(spirv.empty());
    UsmBuffer out = allocShared(sizeof(uint32_t));
    auto run = [&](imex_l0_kernel_t k) {
        out.as<uint32_t>()[0] = 0;
        imex_l0_exec_arg_t args[] = {usmArg(out.get())};
        imex_l0_range_t range = range1d(1);
        EXPECT_IMEX(imex_l0_interop_kernel_execute(k, stream.get(), 1, args, &range, 0, nullptr,
                                                   nullptr));
        EXPECT_IMEX(imex_l0_stream_wait(stream.get()));
        return out.as<uint32_t>()[0];
    };
    Kernel plain, specialized, again;
    ASSERT_IMEX(imex_l0_kernel_create_from_spirv(plain.out(), engine.get(), spirv.data(),
                                                 spirv.size(), "write_spec", nullptr));
    imex_l0_spec_constant_t seven = {7, 42};
    ASSERT_IMEX(imex_l0_kernel_create_from_spirv_specialized(
        specialized.out(), engine.get(), spirv.data(), spirv.size(), "write_spec", nullptr, 1,
        &seven));
    imex_l0_spec_constant_t other = {7, 99};
    ASSERT_IMEX(imex_l0_kernel_create_from_spirv_specialized(
        again.out(), engine.get(), spirv.data(), spirv.size(), "write_spec", nullptr, 1, &other));
    EXPECT_EQ(run(plain.get()), 5u) << "the default value";
    EXPECT_EQ(run(specialized.get()), 42u);
    EXPECT_EQ(run(again.get()), 99u) << "a module of its own, not the cached 42";
    Kernel missing;
    EXPECT_INVALID(imex_l0_kernel_create_from_spirv_specialized(missing.out(), engine.get(),
                                                                spirv.data(), spirv.size(),
                                                                "write_spec", nullptr, 1, nullptr),
                   "constants is NULL");
}

} // namespace

namespace {

// The warnings of a successful compile reach the caller, as pyopencl's
// Program.build reports them.
TEST_F(KernelTest, BuildLogOfASuccessfulCompileHasItsWarnings) {
    const char *source = "kernel void warned(global int *o) { int unused; o[0] = 1; }\n";
    Kernel k;
    ASSERT_IMEX(imex_l0_kernel_create_from_source(k.out(), engine.get(), source, "warned",
                                                  "-Wunused-variable", 0, nullptr));
    const char *log = nullptr;
    ASSERT_IMEX(imex_l0_kernel_get_build_log(k.get(), &log));
    ASSERT_NE(log, nullptr);
    EXPECT_NE(std::string(log).find("unused variable 'unused'"), std::string::npos) << log;
    // The same build again is a cache hit with the same log.
    Kernel again;
    ASSERT_IMEX(imex_l0_kernel_create_from_source(again.out(), engine.get(), source, "warned",
                                                  "-Wunused-variable", 0, nullptr));
    const char *againLog = nullptr;
    ASSERT_IMEX(imex_l0_kernel_get_build_log(again.get(), &againLog));
    EXPECT_STREQ(againLog, log);
    // SPIR-V kernels have none.
    Kernel spirv = fromSpirv("add");
    ASSERT_IMEX(imex_l0_kernel_get_build_log(spirv.get(), &log));
    EXPECT_STREQ(log, "");
    EXPECT_INVALID(imex_l0_kernel_get_build_log(k.get(), nullptr), "log");
}

} // namespace
