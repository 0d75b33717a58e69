// OpenCL C -> SPIR-V through the compiler's C boundary: language features,
// headers, defines, diagnostics and unusual sources. Every module is also
// checked by the spirv-val executable.
#include "compiler_test_util.hpp"

#include <cstring>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace imex_l0_test;

namespace {

constexpr uint32_t kSpirvMagic = 0x07230203;

void expectValid(const Build &b) {
    ASSERT_EQ(b.status, imex_l0_success) << b.log;
    ASSERT_GE(b.spirv.size(), 20u);
    uint32_t magic;
    std::memcpy(&magic, b.spirv.data(), 4);
    EXPECT_EQ(magic, kSpirvMagic);
    EXPECT_EQ(spirvVal(b.spirv), "");
}

const char *kVectorAdd = R"(
kernel void vadd(global const float *a, global const float *b, global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
)";

} // namespace

TEST(Compile, Identity) {
    std::string id = api().identity();
    EXPECT_NE(id.find("clang 15"), std::string::npos) << id;
    EXPECT_NE(id.find("LLVMSPIRVLib"), std::string::npos) << id;
    EXPECT_EQ(imex_l0_compiler_api(IMEX_L0_COMPILER_API_VERSION + 1), nullptr);
}

TEST(Compile, VectorAdd) { expectValid(compile(kVectorAdd)); }

TEST(Compile, EachClStd) {
    const char *cl12 = "kernel void k(global int *o) { o[get_global_id(0)] = 12; }";
    expectValid(compile(cl12, "-cl-std=CL1.2"));
    // Generic address space and program-scope variables are 2.0 features.
    const char *cl20 = R"(
        global int counter = 0;
        int load(int *p) { return *p; }
        kernel void k(global int *o, local int *l) {
            l[get_local_id(0)] = 1;
            o[get_global_id(0)] = load(&o[0]) + load(l) + counter;
        })";
    expectValid(compile(cl20, "-cl-std=CL2.0"));
    const char *cl30 = R"(
        #if !defined(__opencl_c_generic_address_space) || !defined(__opencl_c_program_scope_global_variables)
        #error optional OpenCL 3.0 features are expected on this target
        #endif
        global int counter = 0;
        int load(int *p) { return *p; }
        kernel void k(global int *o) { o[get_global_id(0)] = load(&o[0]) + counter; })";
    expectValid(compile(cl30, "-cl-std=CL3.0"));
    Build bad = compile(cl12, "-cl-std=CL9.9");
    EXPECT_EQ(bad.status, imex_l0_compile_error);
    EXPECT_NE(bad.log.find("CL9.9"), std::string::npos) << bad.log;
}

TEST(Compile, DefinesAndOptions) {
    const char *src = R"(
        #if !defined(FLAG) || N != 4
        #error defines missing
        #endif
        kernel void k(global TYPE *o) { o[get_global_id(0)] = (TYPE)N; })";
    expectValid(compile(src, "-DN=4 -cl-mad-enable -cl-fast-relaxed-math",
                        {{"TYPE", "float"}, {"FLAG", nullptr}}));
    // Without the defines the #error fires.
    Build b = compile(src);
    EXPECT_EQ(b.status, imex_l0_compile_error);
    EXPECT_NE(b.log.find("defines missing"), std::string::npos) << b.log;
    // -cl-opt-disable and -O levels.
    expectValid(compile(kVectorAdd, "-cl-opt-disable"));
    expectValid(compile(kVectorAdd, "-O0"));
    expectValid(compile(kVectorAdd, "-O3"));
    // -g cannot be honoured with translator 15 (its debug info does not
    // validate): the build succeeds without it and the log says so.
    Build g = compile(kVectorAdd, "-g");
    expectValid(g);
    EXPECT_NE(g.log.find("warning: -g ignored"), std::string::npos) << g.log;
    // Options that would change the target or LLVM's global state are refused.
    for (const char *opt : {"-mllvm -debug", "-o /tmp/x", "-triple x86_64", "-Xclang -load"}) {
        Build r = compile(kVectorAdd, opt);
        EXPECT_EQ(r.status, imex_l0_compile_error) << opt;
        EXPECT_NE(r.log.find("unsupported build option"), std::string::npos) << r.log;
    }
    Build unknown = compile(kVectorAdd, "-cl-no-such-option");
    EXPECT_EQ(unknown.status, imex_l0_compile_error);
    EXPECT_NE(unknown.log.find("-cl-no-such-option"), std::string::npos) << unknown.log;
}

TEST(Compile, VectorTypes) {
    const char *src = R"(
        kernel void k(global const float4 *a, global float *b, global int3 *c, float2 s) {
            size_t i = get_global_id(0);
            float4 v = a[i] * s.x + (float4)(s.y);
            vstore4(v, i, b);
            c[i] = convert_int3(v.xyz) + (int3)(1, 2, 3);
        })";
    expectValid(compile(src));
}

TEST(Compile, LocalMemoryAndBarriers) {
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
        }
        kernel void fixed(global int *out) {
            local int tile[64];
            tile[get_local_id(0)] = (int)get_global_id(0);
            barrier(CLK_LOCAL_MEM_FENCE);
            out[get_global_id(0)] = tile[63 - get_local_id(0)];
        })";
    expectValid(compile(src));
}

TEST(Compile, Atomics) {
    const char *cl12 = R"(
        kernel void histogram(global const uint *in, volatile global uint *bins, volatile local uint *l) {
            atomic_inc(&l[in[get_global_id(0)] % 16]);
            barrier(CLK_LOCAL_MEM_FENCE);
            if (get_local_id(0) < 16)
                atomic_add(&bins[get_local_id(0)], l[get_local_id(0)]);
            atomic_max(&bins[16], in[get_global_id(0)]);
        })";
    expectValid(compile(cl12));
    const char *cl20 = R"(
        kernel void count(global atomic_int *counter) {
            atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);
        })";
    expectValid(compile(cl20, "-cl-std=CL2.0"));
}

TEST(Compile, StructByValueAndConstant) {
    const char *src = R"(
        typedef struct { float scale; int offset; char tag; } params_t;
        kernel void k(global float *o, constant float *table, params_t p) {
            size_t i = get_global_id(0);
            o[i] = table[i % 4] * p.scale + p.offset + p.tag;
        })";
    expectValid(compile(src));
}

TEST(Compile, LibraryHeadersFromTheRegistry) {
    const char *src = R"(
        #include "imex_l0/indexing.h"
        kernel void k(global int32_t *o, uint n) {
            IMEX_L0_FOR_EACH_GLOBAL(i, n)
                o[i] = (int32_t)imex_l0_global_linear_id() + IMEX_L0_DIV_UP(n, 4u);
        }
        kernel void sum(global const float *in, global float *out, local float *scratch) {
            scratch[get_local_id(0)] = in[get_global_id(0)];
            IMEX_L0_GROUP_REDUCE(scratch, IMEX_L0_ADD);
            if (get_local_id(0) == 0) out[get_group_id(0)] = scratch[0];
        })";
    std::string withOp = std::string("#define IMEX_L0_ADD(a, b) ((a) + (b))\n") + src;
    expectValid(compile(withOp));
    // Angle brackets find them too.
    expectValid(compile("#include <imex_l0/types.h>\nkernel void k(global uint8_t *o) { o[0] = 1; }"));
}

TEST(Compile, RegisteredHeaders) {
    std::string name = unique("user") + "/params.h";
    char *error = nullptr;
    ASSERT_EQ(api().register_header(name.c_str(), "#define SCALE 2\n", &error), imex_l0_success);
    std::string src = "#include \"" + name + "\"\nkernel void k(global int *o) { o[0] = SCALE; }";
    Build first = compile(src);
    expectValid(first);
    // Replacing the header changes the result (the cache key includes it).
    imex_l0_cache_stats_t before = stats();
    ASSERT_EQ(api().register_header(name.c_str(), "#define SCALE 3\n", &error), imex_l0_success);
    Build second = compile(src);
    expectValid(second);
    EXPECT_EQ(stats().memory_misses, before.memory_misses + 1);
    // Invalid names are refused with a reason.
    for (const char *bad : {"", "/abs.h", "../up.h", "a/./b.h"}) {
        EXPECT_EQ(api().register_header(bad, "x", &error), imex_l0_invalid_arguments) << bad;
        ASSERT_NE(error, nullptr);
        std::free(error);
        error = nullptr;
    }
    EXPECT_EQ(api().register_header(nullptr, "x", &error), imex_l0_invalid_arguments);
    std::free(error);
    error = nullptr;
    // The library's own headers cannot be replaced under the kernels that use them.
    EXPECT_EQ(api().register_header("imex_l0/indexing.h", "#define X 1\n", &error),
              imex_l0_invalid_arguments);
    ASSERT_NE(error, nullptr);
    EXPECT_NE(std::string(error).find("library's own headers"), std::string::npos) << error;
    std::free(error);
}

// A registration touches only the builds that include the header: another
// source's cached build stays a hit, and a header a source names but the
// registry lacked counts as absent, so registering it later is a miss.
TEST(Compile, UnrelatedRegistrationKeepsCachedBuilds) {
    std::string name = unique("related") + ".h";
    std::string src = "#include \"" + name + "\"\nkernel void k(global int *o) { o[0] = V; }";
    std::string other = "kernel void " + unique("unrelated") + "(global int *o) { o[0] = 1; }";
    char *error = nullptr;
    ASSERT_EQ(api().register_header(name.c_str(), "#define V 1\n", &error), imex_l0_success);
    expectValid(compile(src));
    expectValid(compile(other));
    imex_l0_cache_stats_t before = stats();
    std::string unrelated = unique("unrelated_header") + ".h";
    ASSERT_EQ(api().register_header(unrelated.c_str(), "#define W 2\n", &error), imex_l0_success);
    expectValid(compile(src));
    expectValid(compile(other));
    EXPECT_EQ(stats().memory_hits, before.memory_hits + 2) << "an unrelated registration "
                                                              "invalidated cached builds";
    // Through a header that includes another: a change of the inner one is seen.
    std::string inner = unique("inner") + ".h", outer = unique("outer") + ".h";
    ASSERT_EQ(api().register_header(inner.c_str(), "#define DEPTH 1\n", &error), imex_l0_success);
    ASSERT_EQ(api().register_header(outer.c_str(), ("#include \"" + inner + "\"\n").c_str(),
                                    &error),
              imex_l0_success);
    std::string nested =
        "#include \"" + outer + "\"\nkernel void k(global int *o) { o[0] = DEPTH; }";
    Build one = compile(nested);
    expectValid(one);
    ASSERT_EQ(api().register_header(inner.c_str(), "#define DEPTH 2\n", &error), imex_l0_success);
    imex_l0_cache_stats_t beforeChange = stats();
    expectValid(compile(nested));
    EXPECT_EQ(stats().memory_misses, beforeChange.memory_misses + 1);
    // A header including a sibling by its own directory's name ("value.h"
    // from dir/outer.h reads dir/value.h): a change of the sibling is seen.
    std::string dir = unique("siblings");
    ASSERT_EQ(api().register_header((dir + "/value.h").c_str(), "#define SIBLING 2\n", &error),
              imex_l0_success);
    ASSERT_EQ(api().register_header((dir + "/outer.h").c_str(), "#include \"value.h\"\n", &error),
              imex_l0_success);
    std::string sibling = "#include \"" + dir +
                          "/outer.h\"\n#if SIBLING == 1\n#error built with the old sibling\n#endif\n"
                          "kernel void k(global int *o) { o[0] = SIBLING; }";
    expectValid(compile(sibling));
    ASSERT_EQ(api().register_header((dir + "/value.h").c_str(), "#define SIBLING 1\n", &error),
              imex_l0_success);
    Build stale = compile(sibling);
    EXPECT_EQ(stale.status, imex_l0_compile_error) << "a cached build of the old sibling was reused";
    EXPECT_NE(stale.log.find("built with the old sibling"), std::string::npos) << stale.log;
}

TEST(Compile, ErrorHasLineColumnSourceLineAndCaret) {
    const char *src = "kernel void k(global int *o) {\n"
                      "    int x = 1;\n"
                      "    o[0] = x +* ;\n"
                      "}\n";
    Build b = compile(src);
    EXPECT_EQ(b.status, imex_l0_compile_error);
    EXPECT_TRUE(b.spirv.empty());
    EXPECT_NE(b.log.find("kernel.cl:3:17: error: expected expression"), std::string::npos) << b.log;
    EXPECT_NE(b.log.find("    o[0] = x +* ;\n                ^"), std::string::npos) << b.log;
}

TEST(Compile, WarningsAreKeptOnSuccess) {
    Build b = compile("kernel void k(global int *o) {\n"
                      "#warning check this\n"
                      "    o[0] == 1;\n"
                      "}\n");
    expectValid(b);
    EXPECT_NE(b.log.find("kernel.cl:2:2: warning: check this [-W#warnings]"), std::string::npos)
        << b.log;
    EXPECT_NE(b.log.find("kernel.cl:3:10: warning: equality comparison result unused"),
              std::string::npos)
        << b.log;
}

TEST(Compile, MissingIncludeShowsTheChain) {
    std::string name = unique("chain") + ".h";
    char *error = nullptr;
    ASSERT_EQ(api().register_header(name.c_str(), "#include \"does_not_exist.h\"\n", &error),
              imex_l0_success);
    Build b = compile("#include \"" + name + "\"\nkernel void k() {}\n");
    EXPECT_EQ(b.status, imex_l0_compile_error);
    EXPECT_NE(b.log.find("In file included from kernel.cl:1:"), std::string::npos) << b.log;
    EXPECT_NE(b.log.find("'does_not_exist.h' file not found"), std::string::npos) << b.log;
}

TEST(Compile, NothingIsReadFromTheWorkingDirectory) {
    TempDir dir;
    writeFile(dir.path + "/on_disk.h", "#define ON_DISK 1\n");
    std::string src = "#include \"on_disk.h\"\nkernel void k(global int *o) { o[0] = ON_DISK; }";
    char cwd[4096];
    ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
    ASSERT_EQ(chdir(dir.path.c_str()), 0);
    Build fromCwd = compile(src);
    Build withI = compile(src, ("-I " + dir.path).c_str());
    ASSERT_EQ(chdir(cwd), 0);
    EXPECT_EQ(fromCwd.status, imex_l0_compile_error);
    EXPECT_NE(fromCwd.log.find("'on_disk.h' file not found"), std::string::npos) << fromCwd.log;
    expectValid(withI);
}

// -I directories with "." and ".." components name the directory they say.
TEST(Compile, IncludeDirectoriesWithDotsAreNormalised) {
    TempDir dir;
    ASSERT_EQ(mkdir((dir.path + "/sub").c_str(), 0700), 0);
    writeFile(dir.path + "/top.h", "#define TOP 1\n");
    writeFile(dir.path + "/sub/inner.h", "#define INNER 2\n");
    char cwd[4096];
    ASSERT_NE(getcwd(cwd, sizeof cwd), nullptr);
    ASSERT_EQ(chdir(dir.path.c_str()), 0);
    std::string top = "#include \"top.h\"\nkernel void k(global int *o) { o[0] = TOP; }";
    std::string inner = "#include \"inner.h\"\nkernel void k(global int *o) { o[0] = INNER; }";
    Build dot = compile(top, "-I .");
    Build dotSub = compile(inner, "-I ./sub");
    Build upAndBack = compile(inner, "-I sub/../sub");
    Build absoluteUp = compile(top, ("-I " + dir.path + "/sub/..").c_str());
    ASSERT_EQ(chdir(cwd), 0);
    expectValid(dot);
    expectValid(dotSub);
    expectValid(upAndBack);
    expectValid(absoluteUp);
}

// A quoted include is looked up relative to its including file first, as C
// does, also where that leaves the -I directory ("../cn/algorithm.cl" from a
// header under -I); in process, an absolute path outside every -I directory
// stays invisible, and so does the working directory.
TEST(Compile, QuotedIncludesRelativeToTheIncludingFile) {
    TempDir dir;
    ASSERT_EQ(mkdir((dir.path + "/kernels").c_str(), 0700), 0);
    ASSERT_EQ(mkdir((dir.path + "/cn").c_str(), 0700), 0);
    writeFile(dir.path + "/kernels/main.h", "#include \"../cn/algorithm.cl\"\n");
    writeFile(dir.path + "/cn/algorithm.cl", "#define ALGORITHM 7\n");
    writeFile(dir.path + "/secret.h", "#define SECRET 1\n");
    std::string includeDir = "-I " + dir.path + "/kernels";
    Build b = compile("#include \"main.h\"\nkernel void k(global int *o) { o[0] = ALGORITHM; }",
                      includeDir.c_str());
    expectValid(b);
    if (subprocessMode())
        return; // a plain clang-15 process, which sees the whole file system
    Build absolute = compile("#include \"" + dir.path +
                                 "/secret.h\"\nkernel void k(global int *o) { o[0] = SECRET; }",
                             includeDir.c_str());
    EXPECT_EQ(absolute.status, imex_l0_compile_error);
    EXPECT_NE(absolute.log.find("secret.h' file not found"), std::string::npos) << absolute.log;
}

// What an OpenCL implementation predefines: the version macros for every
// -cl-std, the byte order, fast-relaxed-math, and no extension whose
// builtins exist on no Level Zero device. Each is checked with #error, so
// a missing or wrong macro is a compile error naming it.
TEST(Compile, PredefinedMacros) {
    const std::string common = R"(
        #ifndef __OPENCL_VERSION__
        #error __OPENCL_VERSION__ is not defined
        #endif
        #if !defined(CL_VERSION_1_0) || !defined(CL_VERSION_1_1) || !defined(CL_VERSION_1_2)
        #error CL_VERSION_1_x are not defined
        #endif
        #if CL_VERSION_1_2 != 120 || CL_VERSION_2_0 != 200 || CL_VERSION_3_0 != 300
        #error CL_VERSION_x_y have wrong values
        #endif
        #if __ENDIAN_LITTLE__ != 1
        #error __ENDIAN_LITTLE__ is not 1
        #endif
        #if defined(cl_amd_media_ops) || defined(cl_amd_media_ops2) || defined(cl_khr_gl_msaa_sharing) || \
            defined(cl_arm_integer_dot_product_int8) || defined(cl_arm_integer_dot_product_accumulate_int8)
        #error an extension without builtins on Level Zero is defined
        #endif
        #ifdef __FAST_RELAXED_MATH__
        #error __FAST_RELAXED_MATH__ without -cl-fast-relaxed-math
        #endif
        // Host-only code hidden from OpenCL C, as real headers write it.
        #ifndef __OPENCL_VERSION__
        #include <host_only/defines.h>
        typedef unsigned long long u64;
        #else
        typedef ulong u64;
        #endif
        kernel void k(global u64 *o) { o[0] = as_ulong((double)o[1]) + __OPENCL_VERSION__; }
    )";
    for (auto [std, version] : {std::pair{"CL1.2", 120}, {"CL2.0", 200}, {"CL3.0", 300}}) {
        std::string src = "#if __OPENCL_VERSION__ != " + std::to_string(version) +
                          "\n#error __OPENCL_VERSION__ is not " + std::to_string(version) +
                          "\n#endif\n" + common;
        expectValid(compile(src, (std::string("-cl-std=") + std).c_str()));
    }
    expectValid(compile("#if __OPENCL_VERSION__ != 120\n#error default is not 1.2\n#endif\n" + common));
    expectValid(compile("#ifndef __FAST_RELAXED_MATH__\n#error missing\n#endif\n"
                        "kernel void k(global float *o) { o[0] = sqrt(o[1]); }",
                        "-cl-fast-relaxed-math"));
}

TEST(Compile, EmptySource) {
    // An empty translation unit is valid OpenCL C: a module without kernels.
    Build b = compile("");
    expectValid(b);
    Build nullSource;
    void *spirv = nullptr;
    size_t size = 0;
    char *log = nullptr;
    EXPECT_EQ(api().compile(nullptr, 0, nullptr, 0, nullptr, 0, &spirv, &size, &log),
              imex_l0_success);
    std::free(spirv);
    std::free(log);
    EXPECT_EQ(api().compile(nullptr, 5, nullptr, 0, nullptr, 0, &spirv, &size, &log),
              imex_l0_invalid_arguments);
    std::free(log);
}

// A program of helper functions and no kernel (a library others include):
// a valid module at every optimisation level. Unoptimised, its unused helpers
// used to stay in a module without entry points or exports, which SPIR-V
// does not allow.
TEST(Compile, ProgramWithoutKernelsAtEveryLevel) {
    const char *helpers = R"(
        typedef ushort4 seed_t;
        uint mix_bits(uint x) { x ^= x >> 16; x *= 0x7feb352dU; return x ^ (x >> 15); }
        float unit_float(global const int *table, seed_t s, int x) {
            return (float)(mix_bits(table[x & 0xff] ^ s.x) & 0xffffffU) / 16777216.0f;
        }
    )";
    for (const char *options : {"", "-O0", "-cl-opt-disable", "-O3"}) {
        SCOPED_TRACE(options);
        expectValid(compile(helpers, options));
    }
}

// Runs `body` on a thread with a 1 MB stack, as a caller's worker thread may
// have: the compile must not use the caller's stack for its recursion.
template <typename Body> void onSmallStack(Body body) {
    struct Job {
        Body *body;
        static void *run(void *self) {
            (*static_cast<Job *>(self)->body)();
            return nullptr;
        }
    } job{&body};
    pthread_attr_t attr;
    ASSERT_EQ(pthread_attr_init(&attr), 0);
    ASSERT_EQ(pthread_attr_setstacksize(&attr, 1 << 20), 0);
    pthread_t thread;
    ASSERT_EQ(pthread_create(&thread, &attr, Job::run, &job), 0);
    pthread_attr_destroy(&attr);
    pthread_join(thread, nullptr);
}

// Expressions of tens of thousands of terms recurse that deep in clang's
// parser and code generation: they compile, whatever the caller's stack.
TEST(Compile, DeepExpressionsOnASmallCallerStack) {
    if (subprocessMode())
        GTEST_SKIP() << "the subprocess compiler's clang-15 runs on its own process's stack";
    std::string chain = "kernel void k(global int *o) { int a = o[0]; o[1] = a";
    for (int i = 0; i < 40000; ++i)
        chain += " + a";
    chain += "; }\n";
    // 32,768 terms from a short macro.
    std::string macro = "#define T2(x) x + x\n#define T4(x) T2(x) + T2(x)\n"
                        "#define T16(x) T4(T4(x))\n#define T256(x) T16(T16(x))\n"
                        "#define T32K(x) T256(T2(T2(T2(T2(T2(T2(T2(x))))))))\n"
                        "kernel void k(global int *o) { int a = o[0]; o[1] = T32K(a); }\n";
    Build chained, expanded;
    onSmallStack([&] {
        chained = compile(chain);
        expanded = compile(macro);
    });
    expectValid(chained);
    expectValid(expanded);
}

TEST(Compile, OneMegabyteSource) {
    // A realistic large source: a big constant table, helper functions and
    // comment blocks (generated code often looks like this).
    std::string src = "constant int table[20000] = {";
    for (int i = 0; i < 20000; ++i)
        src += std::to_string((i * 7919) % 100003) + (i % 16 == 15 ? ",\n" : ", ");
    src += "};\n";
    for (int i = 0; i < 200; ++i)
        src += "int helper" + std::to_string(i) + "(int x) { return x * " + std::to_string(i) +
               " + table[x % 20000]; }\n";
    src += kVectorAdd;
    src += "kernel void last(global int *o) { o[0] = helper7(o[1]) + helper199(o[2]); }\n";
    while (src.size() < (1u << 20))
        src += "// padding padding padding padding padding padding padding padding padding\n";
    ASSERT_GE(src.size(), 1u << 20);
    Build b = compile(src);
    expectValid(b);
}

TEST(Compile, NulByteInsideTheGivenLength) {
    // The size, not a NUL, ends the source: a NUL inside it is a character
    // clang ignores with a warning, and the code after it is compiled.
    std::string src = "kernel void k(global int *o) {";
    src += '\0';
    src += " o[0] = 7; }\nkernel void after_nul(global int *o) { o[1] = 8; }\n";
    Build b = compile(src);
    expectValid(b);
    EXPECT_NE(b.log.find("null character ignored"), std::string::npos) << b.log;
    EXPECT_NE(b.spirv.find("after_nul"), std::string::npos);
}

TEST(Compile, SourceWithoutTerminatingNul) {
    // The caller's buffer ends exactly at source_size.
    std::string text = "kernel void k(global int *o) { o[0] = 1; }";
    std::vector<char> exact(text.begin(), text.end());
    void *spirv = nullptr;
    size_t size = 0;
    char *log = nullptr;
    EXPECT_EQ(api().compile(exact.data(), exact.size(), "", 0, nullptr, 0, &spirv, &size, &log),
              imex_l0_success)
        << (log ? log : "");
    std::free(spirv);
    std::free(log);
}

TEST(Compile, SpirvVersions) {
    for (uint32_t v : {0x00010000u, 0x00010100u, 0x00010200u, 0x00010300u, 0x00010400u}) {
        Build b = compile(kVectorAdd, "", {}, v);
        ASSERT_EQ(b.status, imex_l0_success) << std::hex << v << b.log;
        uint32_t version;
        std::memcpy(&version, b.spirv.data() + 4, 4);
        EXPECT_LE(version, v);
        const char *env = v == 0x00010000 ? "spv1.0" : v == 0x00010100 ? "spv1.1" :
                          v == 0x00010200 ? "spv1.2" : v == 0x00010300 ? "spv1.3" : "spv1.4";
        EXPECT_EQ(spirvVal(b.spirv, env), "");
    }
    EXPECT_EQ(compile(kVectorAdd, "", {}, 0x00020000).status, imex_l0_invalid_arguments);
}

TEST(Compile, TranslatorDefectsAreLegalised) {
    if (subprocessMode())
        GTEST_SKIP() << "the subprocess oracle is the naive pipeline without legalisation";
    // clang -O2 emits freeze here, which translator 15 cannot translate.
    expectValid(compile("kernel void k(global int *o, int w) {"
                        " int i = get_global_id(0); o[i] = (i % w) * 100 + i / w; }"));
    // Private arrays with initialisers at -O0 (the SPIR-V 1.4 interface rule).
    expectValid(compile("kernel void k(global int *o) { int t[4] = {1, 2, 3, 4};"
                        " o[get_global_id(0)] = t[get_global_id(0) % 4]; }",
                        "-cl-opt-disable"));
}

// ---- Inputs that used to end the host process inside the SPIR-V translator.

TEST(CompileHostile, InlineAssemblyIsACompileErrorAtItsLocation) {
    const char *source = "kernel void k(global int *p) {\n"
                         "    int x = p[0];\n"
                         "    __asm__(\"add %0, %0, 1\" : \"+r\"(x));\n"
                         "    p[0] = x;\n"
                         "}\n";
    Build b = compile(source);
    EXPECT_EQ(b.status, imex_l0_compile_error) << b.log;
    if (!subprocessMode())
        EXPECT_NE(b.log.find("kernel.cl:3:13: error: inline assembly is not supported"),
                  std::string::npos)
            << b.log;
    // The process lives on and the next compile works.
    expectValid(compile(kVectorAdd));
}

// A module that calls a function defined nowhere would only fail when the
// device compiler links it; the compiler says so itself.
TEST(CompileHostile, CallToAnUndefinedFunctionIsACompileError) {
    const char *source = "int scale(int v);\n"
                         "kernel void k(global int *p) {\n"
                         "    p[get_global_id(0)] = scale(p[get_global_id(0)]);\n"
                         "}\n";
    for (const char *options : {"", "-cl-opt-disable"}) {
        SCOPED_TRACE(options);
        Build b = compile(source, options);
        if (subprocessMode())
            continue; // the naive pipeline leaves the call to the device compiler
        EXPECT_EQ(b.status, imex_l0_compile_error) << b.log;
        EXPECT_NE(b.log.find("function 'scale' is called (from 'k') but defined nowhere"),
                  std::string::npos)
            << b.log;
    }
    // A declaration nothing calls, or a call the optimiser removes, is fine.
    expectValid(compile("int unused(int v);\n"
                        "kernel void k(global int *p) { if (0) p[0] = unused(1); p[0] = 2; }"));
    expectValid(compile(kVectorAdd));
}

// Vendor builtins that only clang's full opencl-c.h declares, used the way
// real sources do (behind the extension macro the spir target defines): the
// compile falls back to the full header, and the translator is allowed the
// extensions these builtins translate to, instead of exit()ing on them.
TEST(CompileHostile, VendorBuiltinsCompileWithTheFullHeader) {
    const char *source = "#ifndef cl_intel_subgroups\n"
                         "#error no cl_intel_subgroups\n"
                         "#endif\n"
                         "kernel void k(global uint *p) {\n"
                         "    uint i = get_global_id(0);\n"
                         "    uint x = intel_sub_group_shuffle(p[i], 0u);\n"
                         "    p[i] = x + intel_sub_group_block_read(p);\n"
                         "}\n";
    Build b = compile(source);
    if (subprocessMode()) {
        EXPECT_EQ(b.status, imex_l0_compile_error) << "the naive pipeline declares fewer";
    } else {
        EXPECT_EQ(b.status, imex_l0_success) << b.log;
        expectValid(b);
    }
    // AMD's media ops have no builtins on any Level Zero device: neither their
    // macro nor their declarations are there, so real code takes its portable path.
    Build amd = compile("kernel void k(global uint *p) { p[0] = amd_bfe(p[0], 1u, 3u); }");
    EXPECT_EQ(amd.status, imex_l0_compile_error);
    EXPECT_NE(amd.log.find("amd_bfe"), std::string::npos) << amd.log;
    // A name nothing declares is still an error, with the full header's diagnostics.
    Build typo = compile("kernel void k(global int *p) { p[0] = get_globl_id(0); }");
    EXPECT_EQ(typo.status, imex_l0_compile_error);
    EXPECT_NE(typo.log.find("get_globl_id"), std::string::npos) << typo.log;
    expectValid(compile(kVectorAdd));
}

// The builtin header comes from a precompiled form (builtin_pch.cpp) unless a
// -D/-U names a macro the header's text contains. Either way the module is the
// one parsing the header gives: -Dcl_khr_fp64 (already defined as 1, so
// nothing changes) takes the parsing path, -DUNRELATED the precompiled one.
TEST(Compile, PrecompiledBuiltinHeaderChangesNothing) {
    const std::string fast = "typedef int " + unique("fast") + ";\n" + R"(
        kernel void k(global float4 *o, global atomic_int *c) {
            size_t i = get_global_id(0);
            o[i] = (float4)(M_PI_F, FLT_EPSILON, (float)CLK_LOCAL_MEM_FENCE, sin((float)i));
            atomic_fetch_add_explicit(c, 1, memory_order_relaxed, memory_scope_device);
        })";
    const std::string full = "typedef int " + unique("full") + ";\n" + R"(
        kernel void k(global uint *p) {
            uint i = get_global_id(0);
            p[i] = intel_sub_group_shuffle(p[i], 0u) + intel_sub_group_block_read(p);
        })";
    // The fast path's PCH is built on the second compile with its options.
    expectValid(compile("typedef int " + unique("first") + ";\n" + kVectorAdd,
                        "-cl-std=CL2.0 -DUNRELATED=1"));
    for (const std::string *source : {&fast, &full}) {
        Build precompiled = compile(*source, "-cl-std=CL2.0 -DUNRELATED=1");
        Build parsed = compile(*source, "-cl-std=CL2.0 -Dcl_khr_fp64");
        if (subprocessMode() && source == &full) {
            EXPECT_EQ(parsed.status, imex_l0_compile_error) << "the naive pipeline declares fewer";
            continue;
        }
        expectValid(precompiled);
        expectValid(parsed);
        EXPECT_EQ(precompiled.spirv, parsed.spirv);
    }
}

// A -U/-D of a macro the builtin header tests changes what it declares, as
// it does for clang parsing the header: memory_scope_sub_group exists only
// while one of the sub-group extension macros is defined.
TEST(Compile, DefinesReachTheBuiltinHeader) {
    const std::string source = "typedef int " + unique("scope") + ";\n" +
                               "kernel void k(global int *o) { o[0] = memory_scope_sub_group; }";
    expectValid(compile(source, "-cl-std=CL2.0"));
    Build without =
        compile(source, "-cl-std=CL2.0 -Ucl_intel_subgroups -Ucl_khr_subgroups");
    EXPECT_EQ(without.status, imex_l0_compile_error);
    EXPECT_NE(without.log.find("memory_scope_sub_group"), std::string::npos) << without.log;
}

// Zero-length arrays (a GNU extension clang accepts) made the translator
// exit() with "InvalidArraySize" (found by the compile_opencl_c fuzz target).
TEST(CompileHostile, ZeroLengthArrayIsACompileError) {
    const char *const sources[] = {
        // A local array whose initializer clang drops (the fuzzer's input).
        "kernel void k(global float *o) {\n"
        "    float f[0] = {1, 2, 3};\n"
        "    float3 v = vload3(0, f);\n"
        "    o[get_global_id(0)] = v.x;\n"
        "}\n",
        // A flexible struct member reached through a pointer.
        "typedef struct { int n; float data[0]; } s_t;\n"
        "kernel void k(global s_t *o) { o->data[get_global_id(0)] = 1.0f; }\n"};
    for (const char *source : sources) {
        SCOPED_TRACE(source);
        Build b = compile(source, "-cl-std=CL2.0");
        EXPECT_EQ(b.status, imex_l0_compile_error) << b.log;
        if (!subprocessMode())
            EXPECT_NE(b.log.find("zero-length array"), std::string::npos) << b.log;
    }
    // One the optimiser removes is no error; at -O0 it stays, and is one.
    const char *unused = "kernel void k(global int *o) { int a[0]; o[0] = 1; }";
    expectValid(compile(unused));
    EXPECT_EQ(compile(unused, "-cl-opt-disable").status, imex_l0_compile_error);
    expectValid(compile(kVectorAdd));
}

TEST(CompileHostile, IntegerDotProductIsACompileError) {
    const char *source = "kernel void k(global char4 *a, global char4 *b, global int *o) {\n"
                         "    size_t i = get_global_id(0);\n"
                         "    o[i] = dot(a[i], b[i]);\n"
                         "}\n";
    Build b = compile(source, "-cl-std=CL3.0 -cl-ext=+__opencl_c_integer_dot_product_input_4x8bit");
    EXPECT_EQ(b.status, imex_l0_compile_error) << b.log;
    // Undeclared once the implementation header has removed the extension's
    // macros (the table-generated declarations follow them); the screen is
    // the backstop where a header declared them anyway.
    if (!subprocessMode() && b.log.find("undeclared") == std::string::npos &&
        b.log.find("no matching function for call to 'dot'") == std::string::npos)
        EXPECT_NE(b.log.find("needs the SPV_KHR_integer_dot_product extension"), std::string::npos)
            << b.log;
    expectValid(compile(kVectorAdd));
}

// The cl_khr_subgroup_* extensions are SPIR-V 1.3 GroupNonUniform
// instructions (the translator aborts when the target is 1.2), and the
// rotates need SPV_KHR_subgroup_rotate (it exit()s): compile errors naming
// the builtin, with later compiles unaffected, and their macros are not
// defined where their builtins are refused.
TEST(CompileHostile, SubGroupExtensionBuiltinsNeedTheirSpirvVersion) {
    const char *calls[] = {"sub_group_elect()",
                           "sub_group_non_uniform_all(x)",
                           "sub_group_ballot_bit_count(sub_group_ballot(x))",
                           "sub_group_non_uniform_reduce_add(x)",
                           "sub_group_shuffle(x, 1u)",
                           "sub_group_shuffle_up(x, 1u)",
                           "sub_group_clustered_reduce_max(x, 2u)",
                           "get_sub_group_eq_mask().x",
                           "sub_group_rotate(x, 1)"};
    for (const char *call : calls) {
        std::string source = std::string("kernel void k(global int *o) {\n"
                                         "    int x = o[get_global_id(0)];\n"
                                         "    o[get_global_id(0)] = ") +
                             call + ";\n}\n";
        Build b = compile(source, "-cl-std=CL3.0");
        EXPECT_EQ(b.status, imex_l0_compile_error) << call << "\n" << b.log;
        std::string name(call, std::strchr(call, '('));
        EXPECT_NE(b.log.find("error:"), std::string::npos) << b.log;
        EXPECT_EQ(b.log.find("could not run"), std::string::npos) << b.log;
        if (!subprocessMode()) {
            EXPECT_NE(b.log.find("'" + name + "'"), std::string::npos) << b.log;
            EXPECT_NE(b.log.find(name == "sub_group_rotate" ? "SPV_KHR_subgroup_rotate"
                                                             : "needs SPIR-V 1.3"),
                      std::string::npos)
                << b.log;
        }
    }
    // Targeting SPIR-V 1.3 they translate, and spirv-val takes the module.
    Build elect = compile("kernel void k(global int *o) { o[0] = sub_group_elect(); }",
                          "-cl-std=CL3.0", {}, 0x00010300);
    ASSERT_EQ(elect.status, imex_l0_success) << elect.log;
    EXPECT_EQ(spirvVal(elect.spirv, "spv1.3"), "");
    expectValid(compile(kVectorAdd));
}

// A memory order or scope outside OpenCL C's enumerations, given as a
// constant, made the SPIR-V translator assert, one known only at run time
// made it write a module spirv-val refuses, and fence flags known only at run
// time made it assert: compile errors naming the argument and the builtin.
// Helpers that take them as parameters are inlined, so a caller's constant
// (valid or not) reaches the builtin.
TEST(CompileHostile, InvalidOrRunTimeMemoryOrderOrScopeIsACompileError) {
    struct Case {
        const char *statement;
        const char *message;
    };
    const Case cases[] = {
        {"atomic_store_explicit(a, 1, (memory_order)9);",
         "the memory_order argument of 'atomic_store_explicit' (in function 'k') is 9, not a "
         "memory_order value"},
        {"atomic_store_explicit(a, 1, (memory_order)1);", "is 1, not a memory_order value"},
        {"o[0] = atomic_load_explicit(a, memory_order_acquire, (memory_scope)42);",
         "the memory_scope argument of 'atomic_load_explicit' (in function 'k') is 42"},
        {"atomic_compare_exchange_strong_explicit(a, o, 1, memory_order_seq_cst, "
         "(memory_order)77);",
         "argument of 'atomic_compare_exchange_strong_explicit' (in function 'k') is 77"},
        {"atomic_compare_exchange_weak_explicit(a, o, 1, memory_order_seq_cst, "
         "memory_order_relaxed, (memory_scope)-1);",
         "is -1, not a memory_scope value"},
        {"atomic_fetch_add_explicit(a, 1, memory_order_relaxed, (memory_scope)5);",
         "is 5, not a memory_scope value"},
        {"atomic_flag_clear_explicit(f, (memory_order)66);",
         "argument of 'atomic_flag_clear_explicit' (in function 'k') is 66"},
        {"atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, (memory_scope)99);",
         "argument of 'atomic_work_item_fence' (in function 'k') is 99"},
        {"work_group_barrier(CLK_GLOBAL_MEM_FENCE, (memory_scope)42);",
         "argument of 'work_group_barrier' (in function 'k') is 42"},
        {"atomic_fetch_add_explicit(a, 1, (memory_order)o[0], memory_scope_device);",
         "the memory_order argument of 'atomic_fetch_add_explicit' (in function 'k') is known "
         "only at run time"},
        {"barrier(o[0]);",
         "the cl_mem_fence_flags argument of 'barrier' (in function 'k') is known only at run "
         "time"},
        {"mem_fence(o[0]);", "the cl_mem_fence_flags argument of 'mem_fence'"},
        {"work_group_barrier(o[0], memory_scope_work_group);",
         "the cl_mem_fence_flags argument of 'work_group_barrier'"},
        {"atomic_work_item_fence(o[0], memory_order_release, memory_scope_device);",
         "the cl_mem_fence_flags argument of 'atomic_work_item_fence'"},
        {"sync(o[0]);", "the cl_mem_fence_flags argument of 'barrier' (in function 'k')"},
        {"store(a, (memory_order)8, memory_scope_device);",
         "(in function 'k') is 8, not a memory_order value"},
        {"store(a, memory_order_release, (memory_scope)o[1]);",
         "the memory_scope argument of 'atomic_store_explicit' (in function 'k') is known only "
         "at run time"},
    };
    const char *helper = "void store2(global atomic_int *a, memory_order o, memory_scope s) {\n"
                         "    atomic_store_explicit(a, 1, o, s);\n"
                         "}\n"
                         "void store(global atomic_int *a, memory_order o, memory_scope s) {\n"
                         "    store2(a, o, s);\n"
                         "}\n"
                         "void sync(cl_mem_fence_flags flags) { barrier(flags); }\n";
    for (const char *level : {"-O0", "-O2", "-O3"}) {
        std::string options = std::string("-cl-std=CL2.0 ") + level;
        for (const Case &c : cases) {
            std::string source = std::string(helper) +
                                 "kernel void k(global atomic_int *a, global int *o, "
                                 "global atomic_flag *f) {\n    " +
                                 c.statement + "\n}\n";
            Build b = compile(source, options.c_str());
            EXPECT_EQ(b.status, imex_l0_compile_error) << options << ": " << c.statement << "\n"
                                                       << b.log;
            if (!subprocessMode()) // the external llvm-spirv-15 still asserts (contained)
                EXPECT_NE(b.log.find(c.message), std::string::npos)
                    << options << ": " << c.statement << "\n"
                    << b.log;
        }
        expectValid(
            compile("kernel void k(global atomic_int *a) {\n"
                    "    atomic_fetch_add_explicit(a, 1, memory_order_acq_rel,\n"
                    "                              memory_scope_work_group);\n"
                    "    work_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);\n"
                    "    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release,\n"
                    "                           memory_scope_device);\n"
                    "}\n",
                    options.c_str()));
        if (!subprocessMode()) // its pipeline inlines nothing
            expectValid(compile(std::string(helper) +
                                    "kernel void k(global atomic_int *a) {\n"
                                    "    store(a, memory_order_release, memory_scope_device);\n"
                                    "    sync(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);\n"
                                    "}\n",
                                options.c_str()));
    }
    expectValid(compile(kVectorAdd));
}

// A sampler_t constant that is no sampler (no filter mode, an addressing
// value beyond OpenCL's, bits outside the fields) went into the SPIR-V and
// failed its validation with a raw operand: a compile error saying what is
// wrong and what a sampler is made of. Valid constants, at program scope and
// in a function, still compile.
TEST(CompileHostile, SamplerConstantsThatAreNoSamplerAreCompileErrors) {
    struct Case {
        const char *sampler;
        const char *why;
    };
    const Case cases[] = {
        {"0x3", "0x3 (in function 'k') is not a sampler: it names no filter mode"},
        {"CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST | CLK_FILTER_LINEAR", "names both filter modes"},
        {"0xc | CLK_FILTER_NEAREST", "its addressing bits 0xc are no addressing mode"},
        {"CLK_FILTER_LINEAR | 0x40", "bits 0x40 are no sampler field"},
    };
    for (const Case &c : cases)
        for (bool programScope : {false, true}) {
            const std::string source =
                programScope
                    ? std::string("__constant sampler_t s = ") + c.sampler +
                          ";\nkernel void k(read_only image2d_t im, global float4 *o) {\n"
                          "    o[0] = read_imagef(im, s, (int2)(0, 0));\n}\n"
                    : std::string("kernel void k(read_only image2d_t im, global float4 *o) {\n"
                                  "    const sampler_t s = ") +
                          c.sampler + ";\n    o[0] = read_imagef(im, s, (int2)(0, 0));\n}\n";
            Build b = compile(source);
            // The subprocess back end (clang, llvm-spirv) has no screening:
            // spirv-val's message, or SPIR-V without the bits it ignores.
            if (subprocessMode())
                continue;
            EXPECT_EQ(b.status, imex_l0_compile_error) << source << "\n" << b.log;
            EXPECT_NE(b.log.find(c.why), std::string::npos) << source << "\n" << b.log;
            EXPECT_NE(b.log.find("CLK_FILTER_NEAREST or CLK_FILTER_LINEAR"), std::string::npos)
                << b.log;
            EXPECT_EQ(b.log.find("SPIR-V validation failed"), std::string::npos) << b.log;
        }
    expectValid(compile("__constant sampler_t s = CLK_NORMALIZED_COORDS_TRUE | "
                        "CLK_ADDRESS_MIRRORED_REPEAT | CLK_FILTER_LINEAR;\n"
                        "kernel void k(read_only image2d_t im, global float4 *o) {\n"
                        "    const sampler_t t = CLK_ADDRESS_NONE | CLK_FILTER_NEAREST;\n"
                        "    o[0] = read_imagef(im, s, (float2)(0.5f, 0.5f)) +\n"
                        "           read_imagef(im, t, (int2)(0, 0));\n"
                        "}\n"));
}

// Device-side enqueue and pipes compiled, but no driver of the library runs
// them (their device libraries define none of the builtins), and comparing a
// queue with 0 made the translator assert: compile errors naming the
// builtin. Blocks called in place still compile.
TEST(CompileHostile, DeviceSideEnqueueAndPipesAreCompileErrors) {
    struct Case {
        const char *body;
        const char *builtin;
    };
    const Case cases[] = {
        {"queue_t q = get_default_queue(); p[0] = q == 0;", "'get_default_queue'"},
        {"enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),"
         " ^{ p[0] = 1; });",
         "'enqueue_kernel'"},
        {"p[0] = get_kernel_work_group_size(^{ p[1] = 1; });", "'get_kernel_work_group_size'"},
        {"clk_event_t e = create_user_event(); release_event(e);", "'create_user_event'"},
        {"ndrange_t r = ndrange_1D(4); p[0] = 1;", "'ndrange_1D'"},
    };
    for (const Case &c : cases) {
        Build b = compile(std::string("kernel void k(global int *p) { ") + c.body + " }",
                          "-cl-std=CL2.0");
        // The subprocess back end (clang, llvm-spirv) has no screening.
        if (!subprocessMode()) {
            EXPECT_EQ(b.status, imex_l0_compile_error) << c.body << "\n" << b.log;
            EXPECT_NE(b.log.find(std::string(c.builtin) + " (in function 'k') is device-side "
                                                          "enqueue"),
                      std::string::npos)
                << b.log;
            EXPECT_EQ(b.log.find("internal compiler error"), std::string::npos) << b.log;
        }
    }
    Build pipe = compile("kernel void k(read_only pipe int in, global int *o) {\n"
                         "    int v = 0;\n"
                         "    read_pipe(in, &v);\n"
                         "    o[0] = v;\n"
                         "}\n",
                         "-cl-std=CL2.0");
    if (!subprocessMode()) {
        EXPECT_EQ(pipe.status, imex_l0_compile_error) << pipe.log;
        EXPECT_NE(pipe.log.find("'read_pipe' (in function 'k') is a pipe builtin"),
                  std::string::npos)
            << pipe.log;
    }
    expectValid(compile("kernel void k(global int *p) {\n"
                        "    int (^twice)(int) = ^(int v) { return 2 * v; };\n"
                        "    p[0] = twice(p[1]);\n"
                        "}\n",
                        "-cl-std=CL2.0"));
}

TEST(Compile, ExtensionMacrosMatchWhatTranslates) {
    const char *probe = R"(
        #if defined(cl_khr_integer_dot_product) || defined(__opencl_c_integer_dot_product_input_4x8bit) || \
            defined(__opencl_c_integer_dot_product_input_4x8bit_packed)
        #error integer dot products are advertised
        #endif
        #if defined(cl_khr_subgroup_rotate)
        #error sub-group rotates are advertised
        #endif
        #if defined(__opencl_c_device_enqueue) || defined(__opencl_c_pipes)
        #error device-side enqueue or pipes are advertised
        #endif
        #if !defined(cl_khr_extended_bit_ops)
        #error cl_khr_extended_bit_ops is missing
        #endif
        #if !defined(cl_khr_subgroups)
        #error cl_khr_subgroups is missing
        #endif
        // Code written for either: the fallback is taken below SPIR-V 1.3.
        kernel void k(global int *o) {
        #ifdef cl_khr_subgroup_ballot
            o[0] = sub_group_elect() + 1000;
        #else
            o[0] = sub_group_broadcast(o[1], 0);
        #endif
        }
    )";
    for (const char *std : {"-cl-std=CL2.0", "-cl-std=CL3.0"}) {
        expectValid(compile(probe, std));
        Build v13 = compile(std::string("#ifndef cl_khr_subgroup_ballot\n#error missing at 1.3\n"
                                        "#endif\n") + probe,
                            std, {}, 0x00010300);
        ASSERT_EQ(v13.status, imex_l0_success) << v13.log;
        EXPECT_EQ(spirvVal(v13.spirv, "spv1.3"), "");
    }
}
