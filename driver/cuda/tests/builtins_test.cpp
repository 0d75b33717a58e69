// OpenCL builtins the CUDA backend defines itself, libclc-15's NVPTX library
// lacking them or defining them as what LLVM 15's NVPTX backend cannot
// compile: the work-group functions on every type, and the native_* and
// half_* math builtins on the GPU's approximate instructions, each checked
// against the host within what OpenCL allows. Without an NVIDIA GPU every
// test says it skipped.
#include "cuda_test.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

namespace zetest {
namespace {

class CudaBuiltins : public WithCudaModules {
protected:
    // group_<T> of collectives.cl for one type, with groups of `group`
    // work-items: every result of every work-item against the host's.
    template <class T> void checkCollectives(ze_kernel_handle_t k, uint32_t group) {
        constexpr uint32_t kResults = 8;
        const uint32_t n = 4 * group;
        std::vector<T> in(n);
        for (uint32_t i = 0; i < n; ++i)
            in[i] =
                static_cast<T>(std::is_signed<T>::value ? testValue(i, 3) : testValue(i, 3) + 1000);
        T *din = deviceWith(in);
        T *dout = device<T>(size_t(n) * kResults);
        void *a = din, *b = dout;
        ASSERT_ZE_SUCCESS(zeKernelSetGroupSize(k, group, 1, 1));
        ASSERT_ZE_SUCCESS(setArgs(k, {pointer(a), pointer(b), byValue(n)}));
        ASSERT_ZE_SUCCESS(launch(list_, k, {n / group, 1, 1}));
        std::vector<T> out = read(dout, size_t(n) * kResults);
        for (uint32_t g = 0; g < n / group; ++g) {
            const T *v = in.data() + size_t(g) * group;
            T sum = 0, lo = v[0], hi = v[0];
            for (uint32_t j = 0; j < group; ++j) {
                sum += v[j];
                lo = std::min(lo, v[j]);
                hi = std::max(hi, v[j]);
            }
            T scanSum = 0, scanMin = std::numeric_limits<T>::max(),
              scanMax = std::numeric_limits<T>::lowest();
            for (uint32_t j = 0; j < group; ++j) {
                const size_t i = size_t(g) * group + j;
                const T exclusiveMax = scanMax;
                const T exclusiveSum = scanSum;
                scanSum += v[j];
                scanMin = std::min(scanMin, v[j]);
                scanMax = std::max(scanMax, v[j]);
                const T expected[kResults] = {sum,          lo,      hi,           scanSum,
                                              exclusiveSum, scanMin, exclusiveMax, v[3]};
                for (uint32_t r = 0; r < kResults; ++r)
                    ASSERT_EQ(out[size_t(r) * n + i], expected[r])
                        << "result " << r << " of work-item " << j << " of group " << g;
            }
        }
    }
};

// Values are small integers, so the floating-point sums are exact in any order.
TEST_F(CudaBuiltins, WorkGroupFunctionsOnEveryType) {
    ze_module_handle_t m = cudaModule("collectives");
    for (uint32_t group : {64u, 256u, 1024u}) {
        SCOPED_TRACE("groups of " + std::to_string(group));
        checkCollectives<int32_t>(kernel(m, "group_int", group), group);
        checkCollectives<uint32_t>(kernel(m, "group_uint", group), group);
        checkCollectives<int64_t>(kernel(m, "group_long", group), group);
        checkCollectives<uint64_t>(kernel(m, "group_ulong", group), group);
        checkCollectives<float>(kernel(m, "group_float", group), group);
        checkCollectives<double>(kernel(m, "group_double", group), group);
    }
}

// work_group_any/all and a 2D broadcast, on groups of 8 x 4.
TEST_F(CudaBuiltins, WorkGroupVotesAndTwoDimensionalBroadcast) {
    constexpr uint32_t gx = 8, gy = 4, groups = 6, n = gx * gy * groups;
    std::vector<int> in(n, 0);
    // Group 0: nobody above 10; group 1: one work-item; the others: all.
    in[gx * gy + 5] = 11;
    for (uint32_t i = 2 * gx * gy; i < n; ++i)
        in[i] = 20 + int(i);
    int *din = deviceWith(in);
    int *any = device<int>(n), *all = device<int>(n), *bcast = device<int>(n);
    void *a = din, *b = any, *c = all, *d = bcast;
    ze_kernel_handle_t k = kernel(cudaModule("collectives"), "group_votes", gx, gy);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(a), pointer(b), pointer(c), byValue(10), pointer(d)}));
    // One row of groups: the linear ids of a group are consecutive.
    ASSERT_ZE_SUCCESS(zeKernelSetGroupSize(k, gx, gy, 1));
    ASSERT_ZE_SUCCESS(launch(list_, k, {1, groups, 1}));
    std::vector<int> anyOut = read(any, n), allOut = read(all, n), bOut = read(bcast, n);
    for (uint32_t g = 0; g < groups; ++g)
        for (uint32_t j = 0; j < gx * gy; ++j) {
            const size_t i = size_t(g) * gx * gy + j;
            EXPECT_EQ(anyOut[i] != 0, g >= 1) << i;
            EXPECT_EQ(allOut[i] != 0, g >= 2) << i;
            // The work-item at local (1, 2): linear 2 * gx + 1 of its group.
            EXPECT_EQ(bOut[i], in[size_t(g) * gx * gy + 2 * gx + 1]) << i;
        }
}

// One float ulp at `v`.
double ulp(double v) {
    return std::ldexp(1.0, std::max(std::ilogb(static_cast<float>(v)), -126) - 23);
}

// Every native_* and half_* builtin of native_and_half, on the GPU's
// approximate instructions, against the exact value of its float arguments.
// half_*: OpenCL's 8192 ulp. native_* (OpenCL leaves their accuracy to the
// implementation): the instructions' documented error, as NVIDIA's OpenCL
// gives them: 2^-21 relative for roots and quotients; 2^-20 absolute for
// sin, cos and the logarithms (their results cross zero), scaled by tan's
// derivative for tan; 2^-18 relative for the exponentials, which are ex2 of
// a rounded product (up to 30 here: 2^-24 of it in the exponent).
TEST_F(CudaBuiltins, NativeAndHalfMathOnTheApproximateInstructions) {
    constexpr uint32_t n = 4096;
    std::vector<float> x(n), y(n);
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = -9.0f + 18.0f * float(i) / n; // exponentials, trigonometry: [-9, 9)
        y[i] = 0.01f + 50.0f * float(i) / n; // logarithms, roots, divisors: [0.01, 50)
    }
    float *dx = deviceWith(x), *dy = deviceWith(y);
    constexpr uint32_t kResults = 21;
    float *dout = device<float>(size_t(n) * kResults);
    void *a = dx, *b = dy, *c = dout;
    ze_kernel_handle_t k = kernel(cudaModule("native_math"), "native_and_half", 256);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(a), pointer(b), pointer(c), byValue(n)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 256, 1, 1}));
    std::vector<float> out = read(dout, size_t(n) * kResults);

    using Exact = double (*)(double, double);
    using Bound = double (*)(double); // the error allowed at the exact value
    // Relative bounds stop at the smallest normal float (a zero result).
    const Bound exponential = [](double v) {
        return std::max(std::fabs(v), 0x1p-126) * std::ldexp(1.0, -18);
    };
    const Bound absolute = [](double) { return std::ldexp(1.0, -20); };
    const Bound relative = [](double v) {
        return std::max(std::fabs(v), 0x1p-126) * std::ldexp(1.0, -21);
    };
    const Bound tangent = [](double v) { return std::ldexp(1.0, -20) * (1 + v * v); };
    const Bound half = [](double v) { return 8192 * ulp(v); };
    struct Check {
        const char *name;
        Exact exact;
        Bound bound;
    };
    const Check checks[kResults] = {
        {"native_exp", [](double a, double) { return std::exp(a); }, exponential},
        {"native_exp2", [](double a, double) { return std::exp2(a); }, exponential},
        {"native_exp10", [](double a, double) { return std::pow(10.0, a); }, exponential},
        {"native_log", [](double, double b) { return std::log(b); }, absolute},
        {"native_log2", [](double, double b) { return std::log2(b); }, absolute},
        {"native_log10", [](double, double b) { return std::log10(b); }, absolute},
        {"native_sin", [](double a, double) { return std::sin(a); }, absolute},
        {"native_cos", [](double a, double) { return std::cos(a); }, absolute},
        {"native_tan", [](double a, double) { return std::tan(a); }, tangent},
        {"native_powr", [](double a, double b) { return std::pow(b, a); }, exponential},
        {"native_sqrt", [](double, double b) { return std::sqrt(b); }, relative},
        {"native_rsqrt", [](double, double b) { return 1 / std::sqrt(b); }, relative},
        {"native_recip", [](double, double b) { return 1 / b; }, relative},
        {"native_divide", [](double a, double b) { return a / b; }, relative},
        {"half_exp", [](double a, double) { return std::exp(a); }, half},
        {"half_exp2", [](double a, double) { return std::exp2(a); }, half},
        {"half_exp10", [](double a, double) { return std::pow(10.0, a); }, half},
        {"half_sqrt", [](double, double b) { return std::sqrt(b); }, half},
        {"half_rsqrt", [](double, double b) { return 1 / std::sqrt(b); }, half},
        {"half_recip", [](double, double b) { return 1 / b; }, half},
        {"half_divide", [](double a, double b) { return a / b; }, half},
    };
    for (uint32_t r = 0; r < kResults; ++r) {
        const Check &c = checks[r];
        double worst = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const double want = c.exact(x[i], y[i]);
            const float got = out[size_t(r) * n + i];
            const double error = std::fabs(got - want) / c.bound(want);
            worst = std::max(worst, std::isnan(error) ? INFINITY : error);
            if (!(error <= 1)) {
                ADD_FAILURE() << c.name << "(" << x[i] << ", " << y[i] << ") = " << got
                              << ", exact " << want;
                break;
            }
        }
        std::printf("%-14s worst error: %.3f of its bound\n", c.name, worst);
    }
}

// The float4 forms, built lane by lane.
TEST_F(CudaBuiltins, NativeMathOnVectors) {
    constexpr uint32_t n = 256;
    std::vector<float> x(4 * n);
    for (uint32_t i = 0; i < 4 * n; ++i)
        x[i] = 0.1f + 0.02f * float(i);
    float *dx = deviceWith(x);
    float *exps = device<float>(4 * n), *rsqrts = device<float>(4 * n), *q = device<float>(4 * n);
    void *a = dx, *b = exps, *c = rsqrts, *d = q;
    ze_kernel_handle_t k = kernel(cudaModule("native_math"), "unary_float4", 64);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(a), pointer(b), pointer(c), pointer(d)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    std::vector<float> e = read(exps, 4 * n), r = read(rsqrts, 4 * n), dq = read(q, 4 * n);
    for (uint32_t i = 0; i < 4 * n; ++i) {
        const double v = x[i];
        EXPECT_NEAR(e[i], std::exp(v), std::exp(v) * 1e-5) << i;
        EXPECT_NEAR(r[i], 1 / std::sqrt(v), 1e-6 / std::sqrt(v)) << i;
        EXPECT_NEAR(dq[i], v / (v + 1), 1e-6) << i;
    }
}

} // namespace
} // namespace zetest
