// spirv_reflect (the library's LLVM-free kernel introspection) on modules the
// compiler produced, and on damaged or hostile input.
#include "compiler_test_util.hpp"

#include <cstring>
#include <random>

#include "compute/spirv_reflect.hpp"

using namespace imex_l0_test;
using imex_l0::reflectSpirv;
using imex_l0::SpirvKernel;

namespace {

std::vector<SpirvKernel> reflect(const std::string &spirv, std::string *problem = nullptr) {
    std::string p;
    auto k = reflectSpirv(spirv.data(), spirv.size(), p);
    if (problem)
        *problem = p;
    return k;
}

const SpirvKernel *find(const std::vector<SpirvKernel> &ks, const std::string &name) {
    for (const auto &k : ks)
        if (k.name == name)
            return &k;
    return nullptr;
}

} // namespace

TEST(SpirvReflect, CompiledKernels) {
    const char *src = R"(
        typedef struct { float scale; int offset; char tag; } params_t;   // 12 bytes
        typedef struct __attribute__((packed)) { char c; int i; } packed_t; // 5 bytes
        kernel void all_kinds(global float *g, constant int *c, local float *l, int i,
                              float4 v, params_t p, packed_t q, double d, char ch, float3 f3) {
            g[0] = c[0] + l[0] + i + v.x + p.scale + q.i + (float)d + ch + f3.z;
        }
        kernel void none() {}
    )";
    for (const char *opt : {"", "-cl-opt-disable"}) {
        Build b = compile(src, opt);
        ASSERT_EQ(b.status, imex_l0_success) << b.log;
        std::string problem;
        auto kernels = reflect(b.spirv, &problem);
        EXPECT_EQ(problem, "");
        ASSERT_EQ(kernels.size(), 2u);
        const SpirvKernel *k = find(kernels, "all_kinds");
        ASSERT_NE(k, nullptr);
        ASSERT_EQ(k->args.size(), 10u);
        struct Expect { imex_l0_arg_kind_t kind; size_t size; };
        const Expect expected[] = {
            {imex_l0_arg_kind_global, 8}, {imex_l0_arg_kind_constant, 8},
            {imex_l0_arg_kind_local, 0},  {imex_l0_arg_kind_value, 4},
            {imex_l0_arg_kind_value, 16}, {imex_l0_arg_kind_value, 12},
            {imex_l0_arg_kind_value, 5},  {imex_l0_arg_kind_value, 8},
            {imex_l0_arg_kind_value, 1},  {imex_l0_arg_kind_value, 16},
        };
        for (size_t i = 0; i < 10; ++i) {
            EXPECT_EQ(k->args[i].kind, expected[i].kind) << opt << " arg " << i;
            EXPECT_EQ(k->args[i].size, expected[i].size) << opt << " arg " << i;
        }
        const SpirvKernel *none = find(kernels, "none");
        ASSERT_NE(none, nullptr);
        EXPECT_TRUE(none->args.empty());
    }
}

TEST(SpirvReflect, GarbageNeverCrashes) {
    Build b = compile("kernel void k(global int *o, int x) { o[0] = x; }");
    ASSERT_EQ(b.status, imex_l0_success) << b.log;
    const std::string good = b.spirv;
    std::string problem;

    EXPECT_TRUE(reflect("", &problem).empty());
    EXPECT_FALSE(problem.empty());
    EXPECT_TRUE(reflect("abc", &problem).empty()); // not whole words
    EXPECT_FALSE(problem.empty());
    EXPECT_TRUE(reflect(std::string(64, '\0'), &problem).empty());
    EXPECT_FALSE(problem.empty());
    std::string nothing;
    EXPECT_TRUE(reflectSpirv(nullptr, 8, problem).empty());

    // Every truncation at a word boundary.
    for (size_t n = 0; n <= good.size(); n += 4)
        reflect(good.substr(0, n));
    // Random word flips, random words after a valid header, word-count 0/huge.
    std::mt19937 rng(1234);
    for (int round = 0; round < 3000; ++round) {
        std::string m = good;
        int flips = 1 + int(rng() % 8);
        for (int f = 0; f < flips; ++f) {
            size_t at = 20 + (rng() % ((m.size() - 20) / 4)) * 4;
            uint32_t w = rng();
            if (round % 3 == 0)
                w = (w & 0xffff) | ((rng() % 4) << 16); // small or zero word counts
            std::memcpy(&m[at], &w, 4);
        }
        reflect(m);
    }
    for (int round = 0; round < 500; ++round) {
        std::string m = good.substr(0, 20);
        for (int i = 0; i < 64; ++i) {
            uint32_t w = rng();
            m.append(reinterpret_cast<const char *>(&w), 4);
        }
        reflect(m);
    }
    SUCCEED();
}

TEST(SpirvReflect, HostileTypesTerminate) {
    // A by-value struct that contains itself twice (exponential without
    // memoization) and a struct of vectors of an undefined type (alignment 0).
    auto op = [](uint32_t words, uint32_t opcode) { return (words << 16) | opcode; };
    std::vector<uint32_t> m = {0x07230203, 0x00010200, 0, 100, 0};
    std::vector<uint32_t> body = {
        op(3, 14), 2, 2,                        // OpMemoryModel Physical64 OpenCL
        op(4, 15), 6, 10, 0x0000006b,           // OpEntryPoint Kernel %10 "k"
        op(4, 71), 20, 38, 2,                   // OpDecorate %20 FuncParamAttr ByVal
        op(4, 71), 21, 38, 2,                   // OpDecorate %21 FuncParamAttr ByVal
        op(4, 30), 5, 5, 5,                     // %5 = OpTypeStruct %5 %5
        op(4, 23), 6, 99, 4,                    // %6 = OpTypeVector %99(undefined) 4
        op(4, 30), 7, 6, 6,                     // %7 = OpTypeStruct %6 %6
        op(4, 32), 8, 7, 5,                     // %8 = OpTypePointer Function %5
        op(4, 32), 9, 7, 7,                     // %9 = OpTypePointer Function %7
        op(5, 54), 1, 10, 0, 2,                 // %10 = OpFunction
        op(3, 55), 8, 20,                       // OpFunctionParameter %8 -> %20
        op(3, 55), 9, 21,                       // OpFunctionParameter %9 -> %21
        op(1, 56),                              // OpFunctionEnd
    };
    m.insert(m.end(), body.begin(), body.end());
    std::string problem;
    auto kernels = reflectSpirv(m.data(), m.size() * 4, problem);
    ASSERT_EQ(kernels.size(), 1u) << problem;
    EXPECT_EQ(kernels[0].name, "k");
    ASSERT_EQ(kernels[0].args.size(), 2u);
    EXPECT_EQ(kernels[0].args[0].kind, imex_l0_arg_kind_value);
    EXPECT_EQ(kernels[0].args[1].kind, imex_l0_arg_kind_value);
}
