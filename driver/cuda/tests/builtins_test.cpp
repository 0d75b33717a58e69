// OpenCL builtins the CUDA backend defines itself, libclc-15's NVPTX library
// lacking them or defining them as what LLVM 15's NVPTX backend cannot
// compile: the work-group functions on every type, the native_* and half_*
// math builtins on the GPU's approximate instructions, each checked against
// the host within what OpenCL allows, the image builtins' packed layouts,
// what libclc-15 lacks (mad_hi, ctz, 64-bit atomics, the address space
// queries, builtins writing through generic pointers, wait_group_events)
// and what it makes slowly (half stores, shuffles, rotate, saturating
// conversions, clamp and smoothstep, sign). Without an NVIDIA GPU
// every test says it skipped.
#include "cuda_test.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <utility>

namespace zetest {
namespace {

class CudaBuiltins : public WithCudaModules {
protected:
    // precise_<type> of precise_math.cl: every result within OpenCL's limit.
    template <class T> void checkPrecise(const char *kernelName);
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
            // The identities OpenCL gives the exclusive scans' first result:
            // -INFINITY for a floating-point max, the lowest value otherwise.
            T scanSum = 0, scanMin = std::numeric_limits<T>::max(),
              scanMax = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                             : std::numeric_limits<T>::lowest();
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

// Where a work-item's sub-group is: warps of 32 in local order, the last
// one of a group of `group` work-items holding the rest.
struct SubGroupOf {
    uint32_t first; // global index of the sub-group's lane 0
    uint32_t size, id, lane, count;
    SubGroupOf(uint32_t i, uint32_t group) {
        const uint32_t local = i % group;
        id = local / 32;
        lane = local % 32;
        size = std::min(32u, group - id * 32);
        count = (group + 31) / 32;
        first = i - lane;
    }
};

// cl_khr_subgroups on warps, with work-groups whose last sub-group is
// smaller (80, 40) and whole ones (96, 1024): every result against the host's.
TEST_F(CudaBuiltins, SubGroupsAreWarps) {
    ze_module_handle_t m = cudaModule("sub_groups");
    for (uint32_t group : {96u, 80u, 40u, 1024u}) {
        SCOPED_TRACE("groups of " + std::to_string(group));
        const uint32_t n = 4 * group;
        std::vector<int> in(n);
        for (uint32_t i = 0; i < n; ++i)
            in[i] = testValue(i, 5);
        constexpr uint32_t kResults = 13;
        int *din = deviceWith(in);
        int *dout = device<int>(size_t(n) * kResults);
        void *a = din, *b = dout;
        ze_kernel_handle_t k = kernel(m, "sub_group_int", group);
        ASSERT_ZE_SUCCESS(setArgs(k, {pointer(a), pointer(b), byValue(n)}));
        ASSERT_ZE_SUCCESS(launch(list_, k, {n / group, 1, 1}));
        std::vector<int> out = read(dout, size_t(n) * kResults);
        for (uint32_t i = 0; i < n; ++i) {
            const SubGroupOf sg(i, group);
            const int *v = in.data() + sg.first;
            int sum = 0, lo = v[0], hi = v[0], upTo = 0, before = INT32_MIN;
            bool any = false, all = true;
            for (uint32_t l = 0; l < sg.size; ++l) {
                sum += v[l];
                lo = std::min(lo, v[l]);
                hi = std::max(hi, v[l]);
                if (l <= sg.lane)
                    upTo += v[l];
                if (l < sg.lane)
                    before = std::max(before, v[l]);
                any = any || v[l] > 990;
                all = all && v[l] > -990;
            }
            const int expected[kResults] = {
                int(sg.size), 32,   int(sg.count), int(sg.id), int(sg.lane), sum, lo,
                hi,           upTo, before,        v[1],       any,          all};
            for (uint32_t r = 0; r < kResults; ++r) {
                if (r >= 11) // any/all: nonzero for true
                    ASSERT_EQ(out[size_t(r) * n + i] != 0, expected[r] != 0) << r << " at " << i;
                else
                    ASSERT_EQ(out[size_t(r) * n + i], expected[r]) << r << " at " << i;
            }
        }
    }
}

// 64-bit integers and doubles move as two words, floats by their bits.
TEST_F(CudaBuiltins, SubGroupsOfWideAndFloatingPointValues) {
    constexpr uint32_t group = 80, n = 4 * group;
    std::vector<int64_t> in(n);
    for (uint32_t i = 0; i < n; ++i)
        in[i] = testValue(i, 9);
    int64_t *din = deviceWith(in);
    int64_t *sums = device<int64_t>(n);
    double *scans = device<double>(n);
    float *mins = device<float>(n);
    void *a = din, *b = sums, *c = scans, *d = mins;
    ze_kernel_handle_t k = kernel(cudaModule("sub_groups"), "sub_group_wide", group);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(a), pointer(b), pointer(c), pointer(d)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / group, 1, 1}));
    std::vector<int64_t> s = read(sums, n);
    std::vector<double> e = read(scans, n);
    std::vector<float> lo = read(mins, n);
    for (uint32_t i = 0; i < n; ++i) {
        const SubGroupOf sg(i, group);
        int64_t sum = 0;
        double before = 0;
        float least = INFINITY;
        for (uint32_t l = 0; l < sg.size; ++l) {
            sum += in[sg.first + l] * 4000000000LL;
            if (l < sg.lane)
                before += double(in[sg.first + l]);
            least = std::min(least, float(in[sg.first + l]) * 0.5f);
        }
        ASSERT_EQ(s[i], sum) << i;
        ASSERT_EQ(e[i], before) << i;
        ASSERT_EQ(lo[i], least) << i;
    }
}

// cl_intel_subgroups' shuffles and block reads on warps, whole and partial.
TEST_F(CudaBuiltins, IntelShufflesOnWarps) {
    ze_module_handle_t m = cudaModule("sub_groups");
    for (uint32_t group : {96u, 80u}) {
        SCOPED_TRACE("groups of " + std::to_string(group));
        const uint32_t n = 4 * group;
        std::vector<uint32_t> in(n);
        for (uint32_t i = 0; i < n; ++i)
            in[i] = uint32_t(testValue(i, 11) + 1000);
        constexpr uint32_t kResults = 5;
        uint32_t *din = deviceWith(in);
        uint32_t *dout = device<uint32_t>(size_t(n) * kResults);
        void *a = din, *b = dout;
        ze_kernel_handle_t k = kernel(m, "intel_shuffles", group);
        ASSERT_ZE_SUCCESS(setArgs(k, {pointer(a), pointer(b), byValue(n)}));
        ASSERT_ZE_SUCCESS(launch(list_, k, {n / group, 1, 1}));
        std::vector<uint32_t> out = read(dout, size_t(n) * kResults);
        for (uint32_t i = 0; i < n; ++i) {
            const SubGroupOf sg(i, group);
            const uint32_t *v = in.data() + sg.first;
            const uint32_t down = sg.lane + 5, up = sg.lane + sg.size - 5;
            const uint32_t expected[kResults] = {
                v[(sg.lane + 3) % sg.size], v[sg.lane ^ 1],
                down < sg.size ? v[down] : v[down - sg.size] + 1000,
                up >= sg.size ? v[up - sg.size] : v[up] + 2000, v[sg.lane]};
            for (uint32_t r = 0; r < kResults; ++r)
                ASSERT_EQ(out[size_t(r) * n + i], expected[r]) << r << " at " << i;
        }
    }
}

// One float ulp at `v`.
double ulp(double v) {
    return std::ldexp(1.0, std::max(std::ilogb(static_cast<float>(v)), -126) - 23);
}

// Every native_* and half_* builtin of native_and_half, on the GPU's
// approximate instructions, against the exact value of its float arguments.
// half_*: OpenCL's 8192 ulp. native_* (OpenCL leaves their accuracy to the
// implementation; NVIDIA's OpenCL uses the same instructions): 2^-21
// relative for roots and quotients; 2^-20 absolute for the logarithms and
// 2^-19 for sin and cos (their results cross zero; the instructions' error
// grows with |x|: 1.07 x 2^-20 measured at |x| = 8.2 on an H100), scaled by
// tan's derivative for tan; 2^-18 relative for the exponentials, which are
// ex2 of a rounded product (up to 30 here: 2^-24 of it in the exponent), and
// 2^-17 for powr, whose product also carries lg2's error times |y|.
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
    const Bound power = [](double v) {
        return std::max(std::fabs(v), 0x1p-126) * std::ldexp(1.0, -17);
    };
    const Bound absolute = [](double) { return std::ldexp(1.0, -20); };
    const Bound trigonometric = [](double) { return std::ldexp(1.0, -19); };
    const Bound relative = [](double v) {
        return std::max(std::fabs(v), 0x1p-126) * std::ldexp(1.0, -21);
    };
    const Bound tangent = [](double v) { return std::ldexp(1.0, -19) * (1 + v * v); };
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
        {"native_sin", [](double a, double) { return std::sin(a); }, trigonometric},
        {"native_cos", [](double a, double) { return std::cos(a); }, trigonometric},
        {"native_tan", [](double a, double) { return std::tan(a); }, tangent},
        {"native_powr", [](double a, double b) { return std::pow(b, a); }, power},
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

// OpenCL's precise math builtins (from libdevice where it is installed,
// else libclc: driver/cuda/libdevice_math.hpp) within the ulp OpenCL allows
// each, float and double, against the host computing in long double.
// The exact values of sinpi and cospi: the argument reduced exactly (fmod
// of a float by 2 is exact), so that integers and half-integers give exact
// zeros, as OpenCL's functions must.
long double sinpiExact(long double x) {
    const long double r = std::fmod(x, 2.0L);
    if (r == std::floor(r))
        return 0;
    return std::sin(3.14159265358979323846264338327950288L * r);
}
long double cospiExact(long double x) {
    const long double r = std::fmod(std::fabs(x), 2.0L);
    if (r == 0.5L || r == 1.5L)
        return 0;
    return std::cos(3.14159265358979323846264338327950288L * r);
}

// Each function of precise_math.cl, its exact value (`round` rounds a value
// to the kernel's type, as the kernel's own arithmetic on its arguments
// does) and the ulp OpenCL allows it (single and double precision alike
// here).
using Round = long double (*)(long double);
struct PreciseCheck {
    const char *name;
    long double (*exact)(long double a, long double b, long double c, Round round);
    double ulps;
};
const PreciseCheck kPrecise[] = {
    {"exp", [](long double a, long double, long double, Round) { return std::exp(a); }, 3},
    {"exp2", [](long double a, long double, long double, Round) { return std::exp2(a); }, 3},
    {"exp10", [](long double a, long double, long double, Round) { return std::pow(10.0L, a); }, 3},
    {"expm1", [](long double a, long double, long double, Round) { return std::expm1(a); }, 3},
    {"log", [](long double, long double b, long double, Round) { return std::log(b); }, 3},
    {"log2", [](long double, long double b, long double, Round) { return std::log2(b); }, 3},
    {"log10", [](long double, long double b, long double, Round) { return std::log10(b); }, 3},
    {"log1p", [](long double, long double b, long double, Round) { return std::log1p(b); }, 2},
    {"sin", [](long double a, long double, long double, Round) { return std::sin(a); }, 4},
    {"cos", [](long double a, long double, long double, Round) { return std::cos(a); }, 4},
    {"tan", [](long double a, long double, long double, Round) { return std::tan(a); }, 5},
    {"asin", [](long double, long double, long double c, Round) { return std::asin(c); }, 4},
    {"acos", [](long double, long double, long double c, Round) { return std::acos(c); }, 4},
    {"atan", [](long double a, long double, long double, Round) { return std::atan(a); }, 5},
    {"atan2", [](long double a, long double b, long double, Round) { return std::atan2(a, b); }, 6},
    {"sinh", [](long double, long double, long double c, Round) { return std::sinh(c); }, 4},
    {"cosh", [](long double, long double, long double c, Round) { return std::cosh(c); }, 4},
    {"tanh", [](long double a, long double, long double, Round) { return std::tanh(a); }, 5},
    {"asinh", [](long double a, long double, long double, Round) { return std::asinh(a); }, 4},
    {"acosh",
     [](long double, long double b, long double, Round round) { return std::acosh(round(b + 1)); },
     4},
    {"atanh", [](long double, long double, long double c, Round) { return std::atanh(c); }, 5},
    {"pow", [](long double, long double b, long double c, Round) { return std::pow(b, c); }, 16},
    {"cbrt", [](long double a, long double, long double, Round) { return std::cbrt(a); }, 2},
    {"erf", [](long double a, long double, long double, Round) { return std::erf(a); }, 16},
    {"erfc", [](long double a, long double, long double, Round) { return std::erfc(a); }, 16},
    {"tgamma",
     [](long double, long double, long double c, Round round) { return std::tgamma(round(c + 2)); },
     16},
    {"hypot", [](long double a, long double b, long double, Round) { return std::hypot(a, b); }, 4},
    {"sinpi", [](long double a, long double, long double, Round) { return sinpiExact(a); }, 4},
    {"cospi", [](long double a, long double, long double, Round) { return cospiExact(a); }, 4},
    {"rsqrt", [](long double, long double b, long double, Round) { return 1 / std::sqrt(b); }, 2},
    {"sincos (sine)",
     [](long double, long double b, long double, Round round) { return std::sin(round(b * 1000)); },
     4},
    {"sincos (cosine)",
     [](long double, long double b, long double, Round round) { return std::cos(round(b * 1000)); },
     4},
    {"division", [](long double a, long double b, long double, Round) { return a / b; }, 2.5},
    {"reciprocal", [](long double, long double b, long double, Round) { return 1 / b; }, 2.5},
    // OpenCL's float limit; double's is 0 (correctly rounded), within it.
    {"sqrt", [](long double, long double b, long double, Round) { return std::sqrt(b); }, 3},
};

// One unit in the last place of a T at `v`.
template <class T> long double ulpOf(long double v) {
    constexpr int digits = std::numeric_limits<T>::digits - 1;
    const int exponent =
        std::max(std::ilogb(static_cast<T>(v)), std::numeric_limits<T>::min_exponent - 1);
    return std::ldexp(1.0L, exponent - digits);
}

template <class T> void CudaBuiltins::checkPrecise(const char *kernelName) {
    constexpr uint32_t n = 2048;
    std::vector<T> x(n), y(n), z(n);
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = T(-9) + T(18) * T(i) / T(n);
        y[i] = T(0.01) + T(50) * T(i) / T(n);
        z[i] = T(-0.999) + T(1.998) * T(i) / T(n);
    }
    constexpr uint32_t kResults = sizeof(kPrecise) / sizeof(kPrecise[0]);
    T *dx = deviceWith(x), *dy = deviceWith(y), *dz = deviceWith(z);
    T *dout = device<T>(size_t(n) * kResults);
    void *a = dx, *b = dy, *c = dz, *d = dout;
    ze_kernel_handle_t k = kernel(cudaModule("precise_math"), kernelName, 256);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(a), pointer(b), pointer(c), pointer(d), byValue(n)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 256, 1, 1}));
    std::vector<T> out = read(dout, size_t(n) * kResults);
    for (uint32_t r = 0; r < kResults; ++r) {
        const PreciseCheck &check = kPrecise[r];
        double worst = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const Round round = [](long double v) -> long double { return static_cast<T>(v); };
            const long double want = check.exact(x[i], y[i], z[i], round);
            const T got = out[size_t(r) * n + i];
            const double error = double(std::fabs(got - want) / ulpOf<T>(want));
            worst = std::max(worst, std::isnan(error) ? INFINITY : error);
            if (!(error <= check.ulps)) {
                ADD_FAILURE() << kernelName << ": " << check.name << "(" << x[i] << ", " << y[i]
                              << ", " << z[i] << ") = " << got << ", exact " << double(want) << ": "
                              << error << " ulp, OpenCL allows " << check.ulps;
                break;
            }
        }
        std::printf("%s %-7s worst %.2f ulp (OpenCL: %g)\n", kernelName, check.name, worst,
                    check.ulps);
    }
}

// half_log*, half_sin/cos/tan and half_powr: within OpenCL's 8192 ulp as
// built by default (the precise builtins), over their whole domain; with
// -cl-fast-relaxed-math (the approximate instructions, as NVIDIA's OpenCL
// makes them then) within those instructions' errors on [-9, 9).
TEST_F(CudaBuiltins, HalfMathPreciseByDefaultApproximateWhenFast) {
    constexpr uint32_t n = 4096, kResults = 9;
    std::vector<float> x(n), y(n);
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = -9.0f + 18.0f * float(i) / n;
        y[i] = 0.01f + 50.0f * float(i) / n;
    }
    float *dx = deviceWith(x), *dy = deviceWith(y);
    float *dout = device<float>(size_t(n) * kResults);
    void *a = dx, *b = dy, *c = dout;
    using Exact = double (*)(double, double);
    const Exact exact[kResults] = {
        [](double, double v) { return std::log(v); },
        [](double, double v) { return std::log2(v); },
        [](double, double v) { return std::log10(v); },
        [](double u, double) { return std::sin(u); },
        [](double u, double) { return std::cos(u); },
        [](double u, double) { return std::tan(u); },
        [](double u, double v) { return std::pow(v, u); },
        [](double u, double) { return std::sin(double(float(u * 7000.0f))); },
        [](double u, double) { return std::cos(double(float(u * 7000.0f))); },
    };
    for (const char *flags : {"", "-cl-fast-relaxed-math"}) {
        SCOPED_TRACE(std::string("build flags: ") + flags);
        const bool fast = *flags != '\0';
        modules_.emplace_back();
        ASSERT_ZE_SUCCESS(createModule(
            context_, device_, readFile(std::string(ZE_CUDA_TEST_SPIRV_DIR) + "/native_math.spv"),
            ZE_MODULE_FORMAT_IL_SPIRV, modules_.back(), flags));
        ze_kernel_handle_t k = kernel(modules_.back(), "half_precise", 256);
        ASSERT_ZE_SUCCESS(setArgs(k, {pointer(a), pointer(b), pointer(c), byValue(n)}));
        ASSERT_ZE_SUCCESS(launch(list_, k, {n / 256, 1, 1}));
        const std::vector<float> out = read(dout, size_t(n) * kResults);
        // Fast: the bounds of NativeAndHalfMathOnTheApproximateInstructions;
        // the wide arguments are past sin.approx's range, unchecked.
        for (uint32_t r = 0; r < (fast ? 7u : kResults); ++r)
            for (uint32_t i = 0; i < n; ++i) {
                const double want = exact[r](x[i], y[i]);
                const double bound =
                    !fast    ? 8192 * ulp(want)
                    : r < 3  ? std::ldexp(1.0, -20)
                    : r < 5  ? std::ldexp(1.0, -19)
                    : r == 5 ? std::ldexp(1.0, -19) * (1 + want * want)
                             : std::max(std::fabs(want), 0x1p-126) * std::ldexp(1.0, -17);
                const float got = out[size_t(r) * n + i];
                ASSERT_LE(std::fabs(got - want), bound)
                    << "result " << r << " of (" << x[i] << ", " << y[i] << "): " << got
                    << ", exact " << want;
            }
    }
}

TEST_F(CudaBuiltins, PreciseMathWithinOpenClsLimits) {
    checkPrecise<float>("precise_float");
    checkPrecise<double>("precise_double");
}

// ---- builtins libclc-15 lacks (missing_builtins.cl, OpenCL C 2.0)

int32_t highInt(int32_t x, int32_t y) {
    return int32_t((int64_t(x) * y) >> 32);
}
uint32_t highUint(uint32_t x, uint32_t y) {
    return uint32_t((uint64_t(x) * y) >> 32);
}
template <class T> T trailingZeros(T x) {
    T n = 0;
    for (; n < T(8 * sizeof(T)) && !((x >> n) & 1); ++n) {
    }
    return n;
}

TEST_F(CudaBuiltins, MadHiAndCtzOnEveryWidth) {
    constexpr uint32_t n = 256;
    std::vector<int32_t> a(n);
    std::vector<int64_t> la(n);
    for (uint32_t i = 0; i < n; ++i) {
        a[i] = int32_t(i * 2654435761u);
        la[i] = int64_t(i * 0x9E3779B97F4A7C15ull);
    }
    a[5] = INT32_MIN;
    a[6] = -1;
    la[7] = INT64_MIN;
    la[8] = int64_t(1) << 40;
    int32_t *out = device<int32_t>(8 * n);
    int64_t *lout = device<int64_t>(4 * n);
    void *pa = deviceWith(a), *pla = deviceWith(la), *pout = out, *plout = lout;
    ze_kernel_handle_t k = kernel(cudaModule("missing_builtins"), "integer_extras", 64);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pa), pointer(pla), pointer(pout), pointer(plout)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    std::vector<int32_t> got = read(out, 8 * n);
    std::vector<int64_t> lgot = read(lout, 4 * n);
    for (uint32_t i = 0; i < n; ++i) {
        const int32_t x = a[i], y = a[i ^ 1];
        const uint32_t ux = uint32_t(x), uy = uint32_t(y);
        const int32_t vector =
            int32_t(uint32_t(highInt(x, y)) + 1) ^ int32_t(uint32_t(highInt(y, x)) + 2) ^
            int32_t(uint32_t(highInt(x, 3)) + 3) ^ int32_t(uint32_t(highInt(y, -3)) + 4);
        const int32_t want[6] = {
            int32_t(uint32_t(highInt(x, y)) + 7u),
            int32_t(highUint(ux, uy) + 7u),
            int32_t(trailingZeros(ux)),
            int32_t(trailingZeros(uint16_t(uy))),
            vector,
            int32_t(trailingZeros(ux) * 100 + trailingZeros(ux & 0xffff0000u))};
        for (int r = 0; r < 6; ++r)
            ASSERT_EQ(got[8 * i + r], want[r]) << "result " << r << " of " << x << ", " << y;
        const uint64_t u = uint64_t(la[i]), w = uint64_t(la[i ^ 1]);
        const __int128 product = __int128(la[i]) * la[i ^ 1];
        const unsigned __int128 uproduct = (unsigned __int128)u * w;
        const int64_t lwant[4] = {int64_t(uint64_t(product >> 64) + 5),
                                  int64_t(uint64_t(uproduct >> 64) + 5), int64_t(trailingZeros(u)),
                                  int64_t(trailingZeros(u & 0xffffffff00000000ull))};
        for (int r = 0; r < 4; ++r)
            ASSERT_EQ(lgot[4 * i + r], lwant[r])
                << "64-bit result " << r << " of " << la[i] << ", " << la[i ^ 1];
    }
}

// Every work-item's value into six global totals and its group's local sum;
// atomic loads of floats and doubles, a -0.0 among them, leave memory and
// the sign as they were.
TEST_F(CudaBuiltins, SixtyFourBitAtomicsAndAtomicLoadsOfFloats) {
    constexpr uint32_t n = 1024, group = 64;
    std::vector<int64_t> values(n);
    std::vector<float> f(n);
    std::vector<double> d(n);
    for (uint32_t i = 0; i < n; ++i) {
        values[i] = int64_t(i * 0x9E3779B97F4A7C15ull) >> 3;
        f[i] = float(i) * 0.25f - 7.0f;
        d[i] = double(i) * 1e10 - 3e12;
    }
    f[3] = -0.0f;
    d[5] = -0.0;
    const std::vector<int64_t> initial = {0, INT64_MAX, INT64_MIN, 0, 0, 0};
    int64_t *totals = deviceWith(initial);
    int64_t *groups = device<int64_t>(n / group);
    float *df = deviceWith(f), *fout = device<float>(n);
    double *dd = deviceWith(d), *dout = device<double>(n);
    void *pv = deviceWith(values), *pt = totals, *pg = groups, *pf = df, *pd = dd, *pfo = fout,
         *pdo = dout;
    ze_kernel_handle_t k = kernel(cudaModule("missing_builtins"), "long_atomics", group);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pv), pointer(pt), pointer(pg), pointer(pf), pointer(pd),
                                  pointer(pfo), pointer(pdo)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / group, 1, 1}));
    uint64_t sum = 0, bits = 0;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    std::vector<uint64_t> groupSums(n / group, 0);
    for (uint32_t i = 0; i < n; ++i) {
        sum += uint64_t(values[i]);
        bits ^= uint64_t(values[i]);
        lo = std::min(lo, values[i]);
        hi = std::max(hi, values[i]);
        groupSums[i / group] += uint64_t(values[i]);
    }
    const std::vector<int64_t> want = {int64_t(sum),  lo,         hi,
                                       int64_t(bits), int64_t(n), int64_t(sum)};
    EXPECT_EQ(read(totals, want.size()), want);
    std::vector<int64_t> gotGroups = read(groups, n / group);
    for (uint32_t g = 0; g < n / group; ++g)
        EXPECT_EQ(uint64_t(gotGroups[g]), groupSums[g]) << "group " << g;
    const std::vector<float> loadedF = read(fout, n), keptF = read(df, n);
    const std::vector<double> loadedD = read(dout, n), keptD = read(dd, n);
    for (uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(std::memcmp(&loadedF[i], &f[i], sizeof(float)), 0)
            << "float " << i << ": " << loadedF[i];
        ASSERT_EQ(std::memcmp(&keptF[i], &f[i], sizeof(float)), 0) << "float " << i << " in memory";
        ASSERT_EQ(std::memcmp(&loadedD[i], &d[i], sizeof(double)), 0)
            << "double " << i << ": " << loadedD[i];
        ASSERT_EQ(std::memcmp(&keptD[i], &d[i], sizeof(double)), 0)
            << "double " << i << " in memory";
    }
}

// Generic pointers to global, local and private memory by turns: what
// to_global, to_local, to_private and get_fence make of each.
TEST_F(CudaBuiltins, AddressSpaceQueriesOnGenericPointers) {
    constexpr uint32_t n = 192;
    std::vector<int32_t> spaces(n);
    for (uint32_t i = 0; i < n; ++i)
        spaces[i] = int32_t(i % 3);
    int32_t *g = deviceWith(std::vector<int32_t>(n, -1));
    int32_t *out = device<int32_t>(4 * n);
    void *ps = deviceWith(spaces), *pg = g, *pout = out;
    ze_kernel_handle_t k = kernel(cudaModule("missing_builtins"), "address_spaces", 64);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(ps), pointer(pg), pointer(pout)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    std::vector<int32_t> got = read(out, 4 * n), written = read(g, n);
    constexpr int kLocalFence = 1, kGlobalFence = 2;
    for (uint32_t i = 0; i < n; ++i) {
        const int32_t space = spaces[i]; // global, local, private
        const int32_t want[4] = {space == 0, space == 1, space == 2,
                                 space == 0   ? kGlobalFence
                                 : space == 1 ? kLocalFence
                                              : 1};
        for (int r = 0; r < 4; ++r)
            ASSERT_EQ(got[4 * i + r], want[r]) << "result " << r << " of work-item " << i;
        EXPECT_EQ(written[i], space == 0 ? int32_t(i) + 1000 : -1) << i;
    }
}

// fract, frexp, modf, remquo, lgamma_r and sincos with their second result
// in local or private memory, and vstore_half: each against the host's.
TEST_F(CudaBuiltins, MathBuiltinsWritingThroughGenericPointers) {
    constexpr uint32_t n = 320;
    std::vector<float> x(n);
    for (uint32_t i = 0; i < n; ++i)
        x[i] = float(2 * i + 1) / 16.0f - 10.0f; // exact in half precision
    float *out = device<float>(8 * n);
    int32_t *iout = device<int32_t>(4 * n);
    uint16_t *h = device<uint16_t>(n);
    void *px = deviceWith(x), *pout = out, *piout = iout, *ph = h;
    ze_kernel_handle_t k = kernel(cudaModule("missing_builtins"), "pointer_results", 64);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(px), pointer(pout), pointer(piout), pointer(ph)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    std::vector<float> got = read(out, 8 * n);
    std::vector<int32_t> igot = read(iout, 4 * n);
    for (uint32_t i = 0; i < n; ++i) {
        SCOPED_TRACE("x = " + std::to_string(x[i]));
        const float v = x[i];
        const float *r = &got[8 * i];
        const int32_t *ir = &igot[4 * i];
        EXPECT_EQ(r[0], v - std::floor(v));
        EXPECT_EQ(r[1], std::floor(v));
        int e = 0;
        EXPECT_EQ(r[2], std::frexp(v, &e));
        EXPECT_EQ(ir[0], e);
        float integral = 0;
        EXPECT_EQ(r[3], std::modf(v, &integral));
        EXPECT_EQ(r[4], integral);
        const float remainder = std::remainder(v, 0.75f);
        EXPECT_EQ(r[5], remainder);
        EXPECT_EQ(ir[1], int32_t(std::llround((double(v) - remainder) / 0.75)));
        EXPECT_NEAR(r[6], std::lgamma(double(v)), 1e-5 * (1 + std::fabs(std::lgamma(double(v)))));
        EXPECT_EQ(ir[2], std::tgamma(double(v)) < 0 ? -1 : 1);
        EXPECT_NEAR(r[7], std::sin(double(v)) + 4 * std::cos(double(v)), 1e-5);
        EXPECT_EQ(ir[3], 1) << "vstore_half then vload_half";
    }
}

// async_work_group_copy into local memory, then wait_group_events: every
// work-item reads what another one's copy brought.
TEST_F(CudaBuiltins, AsyncCopiesAreWaitedFor) {
    constexpr uint32_t n = 1024;
    std::vector<float> src(n);
    for (uint32_t i = 0; i < n; ++i)
        src[i] = float(i) * 0.5f + 1.0f;
    float *dst = device<float>(n);
    void *ps = deviceWith(src), *pd = dst;
    ze_kernel_handle_t k = kernel(cudaModule("missing_builtins"), "async_copy", 64);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(ps), pointer(pd)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    std::vector<float> got = read(dst, n);
    for (uint32_t i = 0; i < n; ++i)
        ASSERT_EQ(got[i], 2.0f * src[i / 64 * 64 + 63 - i % 64]) << i;
}

// ---- builtins defined for speed or exactness (faster_builtins.cl)

// A value's half-precision bits rounded to nearest even, from its exact
// double (a double is rounded once, not through float).
uint16_t halfBits(double v) {
    const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
    const double a = std::fabs(v);
    if (std::isnan(v))
        return sign | 0x7e00;
    if (a >= 65520.0) // halfway between 65504 and 65536 rounds to the even 65536: infinity
        return sign | 0x7c00;
    if (a < std::ldexp(1.0, -14)) // subnormal: multiples of 2^-24
        return sign | uint16_t(std::nearbyint(a * std::ldexp(1.0, 24)));
    int e = 0;
    std::frexp(a, &e);                                       // a in [2^(e-1), 2^e)
    double mantissa = std::nearbyint(std::ldexp(a, 11 - e)); // [1024, 2048]
    if (mantissa == 2048) {
        mantissa = 1024;
        ++e;
    }
    return sign | uint16_t((e - 1 + 15) << 10 | (uint16_t(mantissa) - 1024));
}

bool sameHalf(uint16_t got, uint16_t want) {
    const bool nan = (want & 0x7c00) == 0x7c00 && (want & 0x3ff);
    return nan ? (got & 0x7c00) == 0x7c00 && (got & 0x3ff) : got == want;
}

TEST_F(CudaBuiltins, HalfStoresRoundToNearestEven) {
    constexpr uint32_t n = 1024;
    std::vector<float> x(4 * n);
    std::vector<double> d(n);
    for (uint32_t i = 0; i < 4 * n; ++i) // ties, values between, subnormals, overflow
        x[i] = std::ldexp(1.0f + float(i % 64) * 0x1p-12f, int(i % 48) - 30) * (i % 3 ? 1 : -1);
    const float special[] = {0.0f,      -0.0f, 65504.0f, 65519.99f,  65520.0f,        1e30f,
                             -INFINITY, NAN,   0x1p-25f, 0x1.8p-24f, 0x1p-24f * 2.5f, 6.1e-5f};
    std::copy(std::begin(special), std::end(special), x.begin());
    for (uint32_t i = 0; i < n;
         ++i) // just above a tie: once rounded through float, it would be one
        d[i] = (1.0 + 0x1p-11 + 0x1p-40 * (i % 3)) * std::ldexp(1.0, int(i % 40) - 25) *
               (i % 2 ? -1 : 1);
    uint16_t *fromFloat = device<uint16_t>(n), *fromDouble = device<uint16_t>(n),
             *fromFloat4 = device<uint16_t>(4 * n), *aligned3 = device<uint16_t>(4 * n);
    void *px = deviceWith(x), *pd = deviceWith(d), *a = fromFloat, *b = fromDouble, *c = fromFloat4,
         *e = aligned3;
    ze_kernel_handle_t k = kernel(cudaModule("faster_builtins"), "half_stores", 64);
    ASSERT_ZE_SUCCESS(
        setArgs(k, {pointer(px), pointer(pd), pointer(a), pointer(b), pointer(c), pointer(e)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    const std::vector<uint16_t> scalar = read(fromFloat, n), wide = read(fromDouble, n),
                                four = read(fromFloat4, 4 * n), three = read(aligned3, 4 * n);
    for (uint32_t i = 0; i < n; ++i) {
        ASSERT_TRUE(sameHalf(scalar[i], halfBits(x[i]))) << x[i] << ": " << std::hex << scalar[i];
        ASSERT_TRUE(sameHalf(wide[i], halfBits(d[i]))) << d[i] << ": " << std::hex << wide[i];
        for (uint32_t j = 0; j < 4; ++j)
            ASSERT_TRUE(sameHalf(four[4 * i + j], halfBits(x[4 * i + j]))) << x[4 * i + j];
        for (uint32_t j = 0; j < 3; ++j) // element 3 * i + j of x, at 4 * i + j
            ASSERT_TRUE(sameHalf(three[4 * i + j], halfBits(x[3 * i + j]))) << x[3 * i + j];
    }
}

TEST_F(CudaBuiltins, ShufflesWithMasksKnownAtRunTime) {
    constexpr uint32_t n = 256;
    std::vector<float> v(8 * n);
    std::vector<uint32_t> masks(8 * n);
    std::vector<uint8_t> bytes(16 * n), byteMasks(16 * n);
    for (uint32_t i = 0; i < 8 * n; ++i) {
        v[i] = float(i) + 0.5f;
        masks[i] = i * 2654435761u;
    }
    for (uint32_t i = 0; i < 16 * n; ++i) {
        bytes[i] = uint8_t(i * 7);
        byteMasks[i] = uint8_t(i * 40503u >> 3);
    }
    float *one = device<float>(8 * n), *two = device<float>(8 * n), *narrow = device<float>(2 * n);
    uint8_t *shuffled = device<uint8_t>(16 * n);
    void *pv = deviceWith(v), *pm = deviceWith(masks), *p1 = one, *p2 = two,
         *pb = deviceWith(bytes), *pbm = deviceWith(byteMasks), *ps = shuffled, *pn = narrow;
    ze_kernel_handle_t k = kernel(cudaModule("faster_builtins"), "shuffles", 64);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(pv), pointer(pm), pointer(p1), pointer(p2), pointer(pb),
                                  pointer(pbm), pointer(ps), pointer(pn)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    const std::vector<float> gotOne = read(one, 8 * n), gotTwo = read(two, 8 * n),
                             gotNarrow = read(narrow, 2 * n);
    const std::vector<uint8_t> gotBytes = read(shuffled, 16 * n);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t next = (i + 1) % n;
        for (uint32_t j = 0; j < 8; ++j) {
            const uint32_t m = masks[8 * i + j];
            ASSERT_EQ(gotOne[8 * i + j], v[8 * i + (m & 7)]) << i << ", " << j;
            const uint32_t pick = m & 15;
            ASSERT_EQ(gotTwo[8 * i + j], pick < 8 ? v[8 * i + pick] : v[8 * next + pick - 8])
                << i << ", " << j;
        }
        for (uint32_t j = 0; j < 16; ++j)
            ASSERT_EQ(gotBytes[16 * i + j], bytes[16 * i + (byteMasks[16 * i + j] & 15)])
                << i << ", " << j;
        for (uint32_t j = 0; j < 2; ++j)
            ASSERT_EQ(gotNarrow[2 * i + j], v[8 * i + (masks[8 * i + j] & 3)]) << i << ", " << j;
    }
}

template <class T> T rotateLeft(T x, unsigned amount) {
    constexpr unsigned bits = 8 * sizeof(T);
    amount %= bits;
    return amount == 0 ? x : T(x << amount | x >> (bits - amount));
}

TEST_F(CudaBuiltins, RotatesByAnyAmount) {
    constexpr uint32_t n = 512;
    std::vector<uint32_t> x(n);
    std::vector<int32_t> amount(n);
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = i * 2654435761u ^ 0x5bd1e995u;
        amount[i] = int32_t(i % 150) - 75; // negative, zero, past every width
    }
    uint32_t *u32 = device<uint32_t>(n);
    int32_t *s32 = device<int32_t>(n);
    uint8_t *u8 = device<uint8_t>(n);
    int64_t *s64 = device<int64_t>(n);
    void *px = deviceWith(x), *pa = deviceWith(amount), *p1 = u32, *p2 = s32, *p3 = u8, *p4 = s64;
    ze_kernel_handle_t k = kernel(cudaModule("faster_builtins"), "rotates", 64);
    ASSERT_ZE_SUCCESS(
        setArgs(k, {pointer(px), pointer(pa), pointer(p1), pointer(p2), pointer(p3), pointer(p4)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    const std::vector<uint32_t> got32 = read(u32, n);
    const std::vector<int32_t> gotSigned = read(s32, n);
    const std::vector<uint8_t> got8 = read(u8, n);
    const std::vector<int64_t> got64 = read(s64, n);
    for (uint32_t i = 0; i < n; ++i) {
        // The amount modulo the width: a negative one rotates right.
        const unsigned a = unsigned(amount[i]);
        ASSERT_EQ(got32[i], rotateLeft<uint32_t>(x[i], a)) << x[i] << " by " << amount[i];
        ASSERT_EQ(uint32_t(gotSigned[i]), rotateLeft<uint32_t>(x[i], a))
            << x[i] << " by " << amount[i];
        ASSERT_EQ(got8[i], rotateLeft<uint8_t>(uint8_t(x[i]), uint8_t(a)))
            << x[i] << " by " << amount[i];
        const uint64_t wide = uint64_t(int64_t(x[i]) << 24 ^ int64_t(x[i]));
        ASSERT_EQ(uint64_t(got64[i]), rotateLeft<uint64_t>(wide, unsigned(int64_t(amount[i]) & 63)))
            << x[i] << " by " << amount[i];
    }
}

// OpenCL's saturating conversion: NaN is 0, the value rounded as `round`
// does, clamped to T's range.
template <class T> T saturated(double v, double (*round)(double)) {
    if (std::isnan(v))
        return 0;
    const double r = round(v);
    if (r <= double(std::numeric_limits<T>::min()))
        return std::numeric_limits<T>::min();
    if (r >= double(std::numeric_limits<T>::max())) // 2^63 and 2^64 for the 64-bit ones
        return std::numeric_limits<T>::max();
    return T(r);
}

TEST_F(CudaBuiltins, SaturatingConversionsClampRoundAndZeroNaN) {
    constexpr uint32_t n = 1024;
    std::vector<float> x(n);
    std::vector<double> d(n);
    for (uint32_t i = 0; i < n; ++i) { // halves (ties), fractions, past every range
        x[i] = (float(i) - n / 2) * (i % 2 ? 0.5f : 163.75f);
        d[i] = (double(i) - n / 2) * (i % 2 ? 0.5 : 3.7e16);
    }
    const float special[] = {NAN,    INFINITY, -INFINITY, 2.5f,    3.5f,          -2.5f, 255.5f,
                             256.0f, -0.5f,    127.5f,    -128.5f, 2147483520.0f, 3e9f,  -3e9f};
    const double specialD[] = {NAN,
                               INFINITY,
                               -INFINITY,
                               0x1p63,
                               -0x1p63,
                               0x1p64,
                               4294967295.5,
                               -0.5,
                               1e30,
                               -1e30,
                               2.5,
                               3.5,
                               9.2233720368547748e18};
    std::copy(std::begin(special), std::end(special), x.begin());
    std::copy(std::begin(specialD), std::end(specialD), d.begin());
    uint8_t *u8 = device<uint8_t>(n);
    int8_t *s8 = device<int8_t>(n);
    int16_t *s16 = device<int16_t>(n);
    uint16_t *u16 = device<uint16_t>(n);
    int32_t *s32 = device<int32_t>(n);
    uint32_t *u32 = device<uint32_t>(n);
    int64_t *s64 = device<int64_t>(n);
    uint64_t *u64 = device<uint64_t>(n);
    uint32_t *u32f = device<uint32_t>(n);
    int64_t *s64f = device<int64_t>(n);
    void *px = deviceWith(x), *pd = deviceWith(d),
         *p[10] = {u8, s8, s16, u16, s32, u32, s64, u64, u32f, s64f};
    ze_kernel_handle_t k = kernel(cudaModule("faster_builtins"), "saturating_conversions", 64);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(px), pointer(pd), pointer(p[0]), pointer(p[1]),
                                  pointer(p[2]), pointer(p[3]), pointer(p[4]), pointer(p[5]),
                                  pointer(p[6]), pointer(p[7]), pointer(p[8]), pointer(p[9])}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    const auto gotU8 = read(u8, n);
    const auto gotS8 = read(s8, n);
    const auto gotS16 = read(s16, n);
    const auto gotU16 = read(u16, n);
    const auto gotS32 = read(s32, n);
    const auto gotU32 = read(u32, n);
    const auto gotS64 = read(s64, n);
    const auto gotU64 = read(u64, n);
    const auto gotU32f = read(u32f, n);
    const auto gotS64f = read(s64f, n);
    double (*even)(double) = std::nearbyint; // ties to even, the default mode
    double (*zero)(double) = std::trunc;
    double (*down)(double) = std::floor;
    double (*up)(double) = std::ceil;
    for (uint32_t i = 0; i < n; ++i) {
        SCOPED_TRACE("x = " + std::to_string(x[i]) + ", d = " + std::to_string(d[i]));
        ASSERT_EQ(gotU8[i], saturated<uint8_t>(x[i], even));
        ASSERT_EQ(gotS8[i], saturated<int8_t>(x[i], zero));
        ASSERT_EQ(gotS16[i], saturated<int16_t>(x[i], down));
        ASSERT_EQ(gotU16[i], saturated<uint16_t>(x[i], up));
        ASSERT_EQ(gotS32[i], saturated<int32_t>(x[i], even));
        ASSERT_EQ(gotU32[i], saturated<uint32_t>(d[i], zero));
        ASSERT_EQ(gotS64[i], saturated<int64_t>(d[i], down));
        ASSERT_EQ(gotU64[i], saturated<uint64_t>(d[i], even));
        ASSERT_EQ(gotU32f[i], saturated<uint32_t>(x[i], zero));
        ASSERT_EQ(gotS64f[i], saturated<int64_t>(x[i], zero));
    }
}

TEST_F(CudaBuiltins, ClampsAndSmoothstepsAgainstTheHost) {
    constexpr uint32_t n = 512;
    std::vector<float> x(n), low(n);
    std::vector<double> d(n);
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = -2.0f + 4.0f * float(i) / n;
        low[i] = -1.0f + float(i % 7) * 0.25f;
        d[i] = -2.0 + 6.0 * double(i) / n;
    }
    x[0] = NAN;
    x[1] = INFINITY;
    x[2] = -INFINITY;
    x[3] = -0.0f;
    d[0] = NAN;
    float *out = device<float>(8 * n);
    double *dout = device<double>(n);
    void *px = deviceWith(x), *pl = deviceWith(low), *pd = deviceWith(d), *po = out, *pdo = dout;
    ze_kernel_handle_t k = kernel(cudaModule("faster_builtins"), "clamps", 64);
    ASSERT_ZE_SUCCESS(
        setArgs(k, {pointer(px), pointer(pl), pointer(pd), pointer(po), pointer(pdo)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    const std::vector<float> got = read(out, 8 * n);
    const std::vector<double> gotD = read(dout, n);
    // OpenCL's definitions: fmin(fmax(x, lo), hi), and t * t * (3 - 2t) of
    // t = clamp((x - e0) / (e1 - e0), 0, 1), in double.
    auto clamp = [](double v, double lo, double hi) { return std::fmin(std::fmax(v, lo), hi); };
    auto smooth = [&](double e0, double e1, double v) {
        const double t = clamp((v - e0) / (e1 - e0), 0, 1);
        return t * t * (3 - 2 * t);
    };
    for (uint32_t i = 0; i < n; ++i) {
        const double v = x[i], lo = low[i], hi = double(low[i] + 1.5f);
        const double want[7] = {clamp(v, lo, hi),
                                clamp(v, 0, 1),
                                clamp(v, lo, hi) + 2 * clamp(-v, lo, hi) +
                                    4 * clamp(double(float(v * 3)), lo, hi) +
                                    8 * clamp(double(float(v - 0.5)), lo, hi),
                                smooth(lo, hi, v),
                                smooth(0, 1, v),
                                smooth(0, 1, v) + smooth(0, 1, -v) + smooth(0, 1, v * 0.25) +
                                    smooth(0, 1, double(float(v + 0.25))),
                                clamp(v, 0, 1) + clamp(-v, 0, 2)};
        for (int r = 0; r < 7; ++r) {
            const float g = got[8 * i + r];
            if (std::isnan(want[r])) { // smoothstep of NaN: NaN or a clamp of it
                continue;
            }
            ASSERT_NEAR(g, want[r], 4e-6 * (1 + std::fabs(want[r])))
                << "result " << r << " of x = " << x[i] << ", low = " << low[i];
        }
        const double wantD = clamp(d[i], 0, 1) + smooth(-1, 3, d[i]);
        if (!std::isnan(wantD))
            ASSERT_NEAR(gotD[i], wantD, 1e-14) << d[i];
    }
}

TEST_F(CudaBuiltins, SignOfEveryKindOfValue) {
    const std::vector<float> x = {0.0f,    -0.0f, 1.5f,    -2.0f, INFINITY, -INFINITY, NAN,  1e-40f,
                                  -1e-40f, 3e38f, -1e-30f, 0.25f, -7.0f,    42.0f,     -NAN, 1.0f};
    std::vector<double> d(x.begin(), x.end());
    d[7] = 1e-310; // subnormal doubles
    d[8] = -1e-310;
    const uint32_t n = uint32_t(x.size());
    float *s = device<float>(n);
    double *sd = device<double>(n);
    void *px = deviceWith(x), *pd = deviceWith(d), *ps = s, *psd = sd;
    ze_kernel_handle_t k = kernel(cudaModule("faster_builtins"), "signs", n);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(px), pointer(pd), pointer(ps), pointer(psd)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {1, 1, 1}));
    const std::vector<float> got = read(s, n);
    const std::vector<double> gotD = read(sd, n);
    auto expected = [](double v) { // OpenCL: +-1, the zero itself, 0 for NaN
        return std::isnan(v) ? 0.0 : v > 0 ? 1.0 : v < 0 ? -1.0 : v;
    };
    for (uint32_t i = 0; i < n; ++i) {
        const float wantF = float(expected(x[i]));
        const double wantD = expected(d[i]);
        EXPECT_EQ(std::memcmp(&got[i], &wantF, sizeof(float)), 0)
            << "sign(" << x[i] << ") = " << got[i];
        EXPECT_EQ(std::memcmp(&gotD[i], &wantD, sizeof(double)), 0)
            << "sign(" << d[i] << ") = " << gotD[i];
    }
}

// Pairs for fmod and remainder (exact_float_builtins.hpp's fast path and the
// general one): special values against each other, exact multiples and
// halfway points of small quotients (remainder's ties to even), then
// quotients of 2^-4 to 2^48 of divisors of 2^-30 to 2^30, both signs.
template <class T> std::pair<std::vector<T>, std::vector<T>> quotientPairs(uint32_t n) {
    const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
    const T specialX[] = {0,
                          -T(0),
                          inf,
                          -inf,
                          nan,
                          std::numeric_limits<T>::denorm_min() * 5,
                          std::numeric_limits<T>::max(),
                          T(-5.5),
                          T(7)};
    const T specialY[] = {0,
                          -T(0),
                          inf,
                          nan,
                          std::numeric_limits<T>::denorm_min() * 3,
                          std::ldexp(T(1.25), -110),
                          std::ldexp(T(1.5), 110),
                          T(1.7),
                          T(-5.1),
                          T(0.5)};
    std::vector<T> x, y;
    for (T a : specialX)
        for (T b : specialY)
            x.push_back(a), y.push_back(b);
    uint64_t state = 0x9e3779b97f4a7c15ull;
    auto next = [&] { // xorshift64
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        return state;
    };
    auto mantissa = [&] { return T(1) + T(next() % (1u << 20)) / T(1u << 20); };
    for (int k = -40; k <= 40; ++k) {
        const T divisor = mantissa() * std::ldexp(T(1), int(next() % 20) - 10);
        x.push_back(T(k) * divisor), y.push_back(divisor);
        x.push_back((T(k) + T(0.5)) * divisor), y.push_back(-divisor);
    }
    while (x.size() < n) {
        const T divisor = mantissa() * std::ldexp(T(1), int(next() % 61) - 30);
        const T quotient = mantissa() * std::ldexp(T(1), int(next() % 53) - 4);
        const T sx = next() & 1 ? -1 : 1, sy = next() & 1 ? -1 : 1;
        x.push_back(sx * quotient * divisor), y.push_back(sy * divisor);
    }
    x.resize(n), y.resize(n);
    return {x, y};
}

template <class T> bool sameValue(T a, T b) {
    return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof(T)) == 0;
}

// fmod, remainder and remquo are exact: every result equals the host's bit
// for bit (NaN for NaN), scalar and float4, float and double; copysign and
// fdim too; remquo's quotient has the sign of x / y and the host's three
// low bits (OpenCL's minimum). The host's remainder is remquo's: glibc
// 2.36's remainder of doubles rounds some ties of large quotients to the
// odd neighbour (remainder(0x1.6b4745f2f366bp+46, 0x1.f72a5bp+19), a
// quotient of 96903320.5, gives -0x1.f72a5bp+18).
TEST_F(CudaBuiltins, QuotientRemaindersAreExact) {
    constexpr uint32_t n = 8192;
    const auto [x, y] = quotientPairs<float>(n);
    const auto [dx, dy] = quotientPairs<double>(n);
    float *f = device<float>(8 * n);
    double *d = device<double>(5 * n);
    int *quo = device<int>(3 * n);
    void *px = deviceWith(x), *py = deviceWith(y), *pdx = deviceWith(dx), *pdy = deviceWith(dy),
         *pf = f, *pd = d, *pq = quo;
    ze_kernel_handle_t k = kernel(cudaModule("faster_builtins"), "quotient_remainders", 64);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(px), pointer(py), pointer(pdx), pointer(pdy), pointer(pf),
                                  pointer(pd), pointer(pq), byValue(n)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    const std::vector<float> got = read(f, 8 * n);
    const std::vector<double> gotD = read(d, 5 * n);
    const std::vector<int> gotQ = read(quo, 3 * n);
    const char *names[5] = {"fmod", "remainder", "copysign", "fdim", "remquo"};
    // remquo's quotient against the host's: the sign (where nonzero) and
    // the low three bits.
    auto sameQuotient = [](int got, int want) {
        return ((got < 0) == (want < 0) || got == 0 || want == 0) &&
               ((unsigned(std::abs(got)) ^ unsigned(std::abs(want))) & 7u) == 0;
    };
    size_t wrong = 0;
    for (uint32_t i = 0; i < n && wrong < 20; ++i) {
        int q = 0, dq = 0;
        const float want[5] = {std::fmod(x[i], y[i]), std::remquo(x[i], y[i], &q),
                               std::copysign(x[i], y[i]), std::fdim(x[i], y[i]),
                               std::remquo(x[i], y[i], &q)};
        const double wantD[5] = {std::fmod(dx[i], dy[i]), std::remquo(dx[i], dy[i], &dq),
                                 std::copysign(dx[i], dy[i]), std::fdim(dx[i], dy[i]),
                                 std::remquo(dx[i], dy[i], &dq)};
        for (int r = 0; r < 5; ++r) {
            if (!sameValue(got[5 * i + r], want[r]))
                ++wrong, ADD_FAILURE() << names[r] << "(" << x[i] << ", " << y[i]
                                       << ") = " << got[5 * i + r] << ", not " << want[r];
            if (!sameValue(gotD[5 * i + r], wantD[r]))
                ++wrong, ADD_FAILURE() << names[r] << "(" << dx[i] << ", " << dy[i]
                                       << ") = " << gotD[5 * i + r] << ", not " << wantD[r];
        }
        const bool finite = std::isfinite(want[4]), finiteD = std::isfinite(wantD[4]);
        if (finite && !sameQuotient(gotQ[2 * i], q))
            ++wrong, ADD_FAILURE() << "remquo(" << x[i] << ", " << y[i] << ") quotient "
                                   << gotQ[2 * i] << ", not " << q << " modulo 8";
        if (finiteD && !sameQuotient(gotQ[2 * i + 1], dq))
            ++wrong, ADD_FAILURE() << "remquo(" << dx[i] << ", " << dy[i] << ") quotient "
                                   << gotQ[2 * i + 1] << ", not " << dq << " modulo 8";
        // The float4 forms: every lane (n is a multiple of 4).
        for (int r = 0; r < 3; ++r)
            if (!sameValue(got[(5 + r) * n + i], want[r == 2 ? 4 : r]))
                ++wrong, ADD_FAILURE() << names[r == 2 ? 4 : r] << " of float4, lane " << i << ": "
                                       << got[(5 + r) * n + i] << ", not " << want[r == 2 ? 4 : r];
        if (finite && !sameQuotient(gotQ[2 * n + i], q))
            ++wrong, ADD_FAILURE() << "remquo of float4, lane " << i << ": quotient "
                                   << gotQ[2 * n + i] << ", not " << q << " modulo 8";
    }
}

// ldexp of floats, correctly rounded, subnormal arguments and results
// included (exact_float_builtins.hpp: libclc's flushed them): every result equals
// the host's bit for bit, scalar and float4 with a vector or a scalar
// exponent.
TEST_F(CudaBuiltins, LdexpKeepsSubnormals) {
    constexpr uint32_t n = 4096;
    const float specials[] = {0.0f,    -0.0f,     INFINITY, -INFINITY, NAN,   1e-45f,
                              -3e-42f, 1.17e-38f, 3.4e38f,  1.0f,      -1.5f, 0.75f};
    const int exponents[] = {0,
                             1,
                             -1,
                             127,
                             128,
                             -126,
                             -127,
                             -149,
                             -150,
                             254,
                             -277,
                             300,
                             -300,
                             400,
                             -401,
                             std::numeric_limits<int>::max(),
                             std::numeric_limits<int>::min()};
    std::vector<float> x;
    std::vector<int> e;
    for (float v : specials)
        for (int k : exponents)
            x.push_back(v), e.push_back(k);
    uint64_t state = 0x2545f4914f6cdd1dull;
    while (x.size() < n) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        uint32_t bits = uint32_t(state); // any float, subnormals and NaNs included
        float v;
        std::memcpy(&v, &bits, sizeof(v));
        x.push_back(v), e.push_back(int((state >> 32) % 601) - 300);
    }
    // The scalar-exponent float4 form takes each group's first exponent.
    float *out = device<float>(3 * n);
    void *px = deviceWith(x), *pe = deviceWith(e), *po = out;
    ze_kernel_handle_t k = kernel(cudaModule("faster_builtins"), "ldexps", 64);
    ASSERT_ZE_SUCCESS(setArgs(k, {pointer(px), pointer(pe), pointer(po), byValue(n)}));
    ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
    const std::vector<float> got = read(out, 3 * n);
    size_t wrong = 0;
    for (uint32_t i = 0; i < n && wrong < 20; ++i) {
        const float want[3] = {std::ldexp(x[i], e[i]), std::ldexp(x[i], e[i]),
                               std::ldexp(x[i], e[i - i % 4])};
        for (int form = 0; form < 3; ++form)
            if (!sameValue(got[form * n + i], want[form]))
                ++wrong, ADD_FAILURE() << "form " << form << ": ldexp(" << x[i] << ", "
                                       << (form == 2 ? e[i - i % 4] : e[i])
                                       << ") = " << got[form * n + i] << ", not " << want[form];
    }
}

// asin, acos, atan and atan2 within OpenCL's bounds (4, 4, 5 and 6 ulp) as
// built by default (libdevice's) and with -cl-fast-relaxed-math
// (relaxed_inverse_trig.hpp's polynomials, held to the same bounds), scalar and
// float4: x over [-1, 1] with its ends and 1/2, y of magnitudes 2^-20 to
// 2^20 and zeros of both signs.
TEST_F(CudaBuiltins, InverseTrigonometryWithinOpenClBounds) {
    constexpr uint32_t n = 8192;
    std::vector<float> x(n), y(n);
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = -1.0f + 2.0f * float(i) / float(n - 1);
        y[i] = (i % 2 ? -1.0f : 1.0f) * std::ldexp(1.0f + float(i % 97) / 97.0f, int(i % 41) - 20);
    }
    x[n / 4] = 0.5f, x[n / 4 + 1] = -0.5f, x[n / 2] = -0.0f, y[0] = 0.0f, y[1] = -0.0f;
    float *out = device<float>(8 * n);
    void *px = deviceWith(x), *py = deviceWith(y), *po = out;
    const double bounds[4] = {4, 4, 5, 6};
    const char *names[4] = {"asin", "acos", "atan", "atan2"};
    for (const char *flags : {"", "-cl-fast-relaxed-math"}) {
        SCOPED_TRACE(std::string("build flags: ") + flags);
        modules_.emplace_back();
        ASSERT_ZE_SUCCESS(
            createModule(context_, device_,
                         readFile(std::string(ZE_CUDA_TEST_SPIRV_DIR) + "/faster_builtins.spv"),
                         ZE_MODULE_FORMAT_IL_SPIRV, modules_.back(), flags));
        ze_kernel_handle_t k = kernel(modules_.back(), "inverse_trig", 64);
        ASSERT_ZE_SUCCESS(setArgs(k, {pointer(px), pointer(py), pointer(po), byValue(n)}));
        ASSERT_ZE_SUCCESS(launch(list_, k, {n / 64, 1, 1}));
        const std::vector<float> got = read(out, 8 * n);
        size_t wrong = 0;
        for (uint32_t i = 0; i < n && wrong < 20; ++i) {
            const double want[4] = {std::asin(double(x[i])), std::acos(double(x[i])),
                                    std::atan(double(y[i])),
                                    std::atan2(double(y[i]), double(x[i]))};
            for (int r = 0; r < 8; ++r) {
                const double error = std::fabs(got[r * n + i] - want[r % 4]);
                if (!(error <= bounds[r % 4] * ulp(want[r % 4])))
                    ++wrong, ADD_FAILURE() << names[r % 4] << (r < 4 ? "" : " of float4") << "("
                                           << (r % 4 == 2 ? y[i] : x[i])
                                           << (r % 4 == 3 ? ", " + std::to_string(y[i]) : "")
                                           << ") = " << got[r * n + i] << ", not " << want[r % 4]
                                           << ": " << error / ulp(want[r % 4]) << " ulp";
            }
        }
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

// A packed layout as the driver defines it (Intel's surface formats of the
// layout): each component's lowest bit and width in the pixel's word (r, g,
// b, a; width 0 where there is no such component).
struct PackedLayout {
    const char *name;
    ze_image_format_layout_t layout;
    ze_image_format_type_t type;
    uint32_t bytes;
    int shift[4], width[4];
};

// clang-format off
const PackedLayout kPackedLayouts[] = {
    {"10_10_10_2 UINT", ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_UINT, 4, {0, 10, 20, 30}, {10, 10, 10, 2}},
    {"10_10_10_2 SINT", ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_SINT, 4, {0, 10, 20, 30}, {10, 10, 10, 2}},
    {"10_10_10_2 UNORM", ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_UNORM, 4, {0, 10, 20, 30}, {10, 10, 10, 2}},
    {"10_10_10_2 SNORM", ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_SNORM, 4, {0, 10, 20, 30}, {10, 10, 10, 2}},
    {"10_10_10_2 FLOAT", ZE_IMAGE_FORMAT_LAYOUT_10_10_10_2, ZE_IMAGE_FORMAT_TYPE_FLOAT, 4, {0, 10, 20, 30}, {10, 10, 10, 2}},
    {"11_11_10 FLOAT", ZE_IMAGE_FORMAT_LAYOUT_11_11_10, ZE_IMAGE_FORMAT_TYPE_FLOAT, 4, {0, 11, 22, 0}, {11, 11, 10, 0}},
    {"5_6_5 UNORM", ZE_IMAGE_FORMAT_LAYOUT_5_6_5, ZE_IMAGE_FORMAT_TYPE_UNORM, 2, {11, 5, 0, 0}, {5, 6, 5, 0}},
    {"5_5_5_1 UNORM", ZE_IMAGE_FORMAT_LAYOUT_5_5_5_1, ZE_IMAGE_FORMAT_TYPE_UNORM, 2, {10, 5, 0, 15}, {5, 5, 5, 1}},
    {"4_4_4_4 UNORM", ZE_IMAGE_FORMAT_LAYOUT_4_4_4_4, ZE_IMAGE_FORMAT_TYPE_UNORM, 2, {8, 4, 0, 12}, {4, 4, 4, 4}},
};
// clang-format on

enum class Encoding { Unorm, Snorm, Uint, Sint, SmallFloat };

Encoding encodingOf(const PackedLayout &f, int k) {
    switch (f.type) {
    case ZE_IMAGE_FORMAT_TYPE_UINT:
        return Encoding::Uint;
    case ZE_IMAGE_FORMAT_TYPE_SINT:
        return Encoding::Sint;
    case ZE_IMAGE_FORMAT_TYPE_SNORM:
        return Encoding::Snorm;
    case ZE_IMAGE_FORMAT_TYPE_FLOAT:
        return k < 3 ? Encoding::SmallFloat : Encoding::Unorm; // 10_10_10_2's alpha
    default:
        return Encoding::Unorm;
    }
}

bool isIntegerLayout(const PackedLayout &f) {
    return f.type == ZE_IMAGE_FORMAT_TYPE_UINT || f.type == ZE_IMAGE_FORMAT_TYPE_SINT;
}

uint32_t fieldOf(const PackedLayout &f, uint32_t word, int k) {
    return (word >> f.shift[k]) & ((1u << f.width[k]) - 1);
}

int32_t signExtended(uint32_t bits, int width) {
    return int32_t(bits << (32 - width)) >> (32 - width);
}

uint32_t bitsOf(float v) {
    uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    return u;
}

// An unsigned float of 5 exponent bits (bias 15) and width - 5 mantissa
// bits; NaNs keep their payload in the mantissa's top bits.
float smallFloat(uint32_t bits, int width) {
    const int m = width - 5;
    const uint32_t e = bits >> m, f = bits & ((1u << m) - 1);
    if (e == 31) {
        const uint32_t u = 0x7f800000u | (f << (23 - m));
        float v;
        std::memcpy(&v, &u, sizeof v);
        return v;
    }
    if (e == 0)
        return std::ldexp(float(f), -14 - m);
    return std::ldexp(1.0f + float(f) / float(1u << m), int(e) - 15);
}

// The small float nearest to a finite `v`, ties to the even code, by
// search: negatives are 0, beyond the largest (by half its step) infinity.
uint32_t nearestSmallFloat(float v, int width) {
    const uint32_t infinity = 31u << (width - 5);
    if (!(v > 0.0f))
        return 0;
    const double largest = smallFloat(infinity - 1, width);
    const double step = largest - smallFloat(infinity - 2, width);
    if (v >= largest + step / 2)
        return infinity;
    uint32_t best = 0;
    double bestDistance = v;
    for (uint32_t code = 1; code < infinity; ++code) {
        const double d = std::fabs(double(smallFloat(code, width)) - v);
        if (d < bestDistance || (d == bestDistance && code % 2 == 0)) {
            best = code;
            bestDistance = d;
        }
    }
    return best;
}

// What read_imagef returns for component k of `word` (alpha 1 where the
// layout has none).
float readAsFloat(const PackedLayout &f, uint32_t word, int k) {
    const int w = f.width[k];
    if (w == 0)
        return k == 3 ? 1.0f : 0.0f;
    const uint32_t bits = fieldOf(f, word, k);
    switch (encodingOf(f, k)) {
    case Encoding::Uint:
        return float(bits);
    case Encoding::Sint:
        return float(signExtended(bits, w));
    case Encoding::Snorm:
        return std::max(float(signExtended(bits, w)) / float((1 << (w - 1)) - 1), -1.0f);
    case Encoding::SmallFloat:
        return smallFloat(bits, w);
    default:
        return float(bits) / float((1u << w) - 1);
    }
}

int32_t readAsInt(const PackedLayout &f, uint32_t word, int k) {
    const uint32_t bits = fieldOf(f, word, k);
    return encodingOf(f, k) == Encoding::Sint ? signExtended(bits, f.width[k]) : int32_t(bits);
}

// The bits write_imagef stores for component k of value `v`: rounded to
// nearest even, saturated; a NaN is 0 in normalized components, the quiet
// NaN (exponent and top mantissa bit set) in small floats unless the NaN
// came from one (the NaNs written here do not).
uint32_t writtenFromFloat(const PackedLayout &f, int k, float v) {
    const int w = f.width[k];
    if (std::isnan(v))
        return encodingOf(f, k) == Encoding::SmallFloat ? (31u << (w - 5)) | (1u << (w - 6)) : 0;
    switch (encodingOf(f, k)) {
    case Encoding::SmallFloat:
        return nearestSmallFloat(v, w);
    case Encoding::Snorm: {
        const int most = (1 << (w - 1)) - 1;
        const int r =
            std::clamp(int(std::nearbyint(std::clamp(v, -1.0f, 1.0f) * most)), -most, most);
        return uint32_t(r) & ((1u << w) - 1);
    }
    default: {
        const uint32_t most = (1u << w) - 1;
        return uint32_t(std::nearbyint(std::clamp(v, 0.0f, 1.0f) * float(most)));
    }
    }
}

// The bits write_imagei stores for component k of `v`: saturated to the
// component's range.
uint32_t writtenFromInt(const PackedLayout &f, int k, int32_t v) {
    const int w = f.width[k];
    if (encodingOf(f, k) == Encoding::Sint)
        return uint32_t(std::clamp(v, -(1 << (w - 1)), (1 << (w - 1)) - 1)) & ((1u << w) - 1);
    return std::min(uint32_t(v), (1u << w) - 1); // SPIR-V's write_imagei of write_imageui
}

// Every packed layout, as a 1D image: words of varied bits read as floats
// and integers against the host's decoding; those values written back give
// the same words (but a normalized signed component's most negative value,
// which reads as -1 and so writes back as its negation); and values out of
// range or between two codes are written saturated and rounded to nearest
// even.
TEST_F(CudaBuiltins, PackedImageLayoutsReadAndWriteTheirBits) {
    constexpr uint32_t n = 256;
    ze_module_handle_t m = cudaModule("packed_images");
    ze_kernel_handle_t readPixels = kernel(m, "read_pixels", 64);
    ze_kernel_handle_t writeFloats = kernel(m, "write_floats", 64);
    ze_kernel_handle_t writeInts = kernel(m, "write_ints", 64);
    using Float4 = std::array<float, 4>;
    using Int4 = std::array<int32_t, 4>;
    float *floats = device<float>(4 * n);
    int32_t *ints = device<int32_t>(4 * n);
    for (const PackedLayout &f : kPackedLayouts) {
        SCOPED_TRACE(f.name);
        const ze_image_desc_t desc = imageDesc(ZE_IMAGE_TYPE_1D, f.layout, f.type, n);
        ZeHandle<ze_image_handle_t, zeImageDestroy> image;
        ASSERT_ZE_SUCCESS(zeImageCreate(context_, device_, &desc, image.out()));
        ze_image_handle_t imageHandle = image;
        // Words of every pattern: all zeros, all ones, and mixed bits.
        std::vector<uint32_t> words(n);
        for (uint32_t i = 0; i < n; ++i)
            words[i] = i == 0 ? 0u : i == 1 ? ~0u : uint32_t(i * 2654435761u ^ (i << 7));
        if (f.bytes == 2)
            for (uint32_t &w : words)
                w &= 0xffffu;
        auto toBytes = [&](const std::vector<uint32_t> &w) {
            std::vector<uint8_t> bytes(size_t(n) * f.bytes);
            for (uint32_t i = 0; i < n; ++i)
                std::memcpy(&bytes[size_t(i) * f.bytes], &w[i], f.bytes); // little-endian
            return bytes;
        };
        auto imageWords = [&]() {
            std::vector<uint8_t> bytes(size_t(n) * f.bytes);
            EXPECT_ZE_SUCCESS(zeCommandListAppendImageCopyToMemory(list_, bytes.data(), imageHandle,
                                                                   nullptr, nullptr, 0, nullptr));
            sync(list_);
            std::vector<uint32_t> w(n, 0);
            for (uint32_t i = 0; i < n; ++i)
                std::memcpy(&w[i], &bytes[size_t(i) * f.bytes], f.bytes);
            return w;
        };
        const std::vector<uint8_t> in = toBytes(words);
        ASSERT_ZE_SUCCESS(zeCommandListAppendImageCopyFromMemory(list_, imageHandle, in.data(),
                                                                 nullptr, nullptr, 0, nullptr));
        void *a = floats, *b = ints;
        ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, nullptr, 0, nullptr));
        ASSERT_ZE_SUCCESS(setArgs(readPixels, {byValue(imageHandle), pointer(a), pointer(b)}));
        ASSERT_ZE_SUCCESS(launch(list_, readPixels, {n / 64, 1, 1}));
        const std::vector<float> readFloats = read(floats, 4 * n);
        const std::vector<int32_t> readInts = read(ints, 4 * n);
        for (uint32_t i = 0; i < n; ++i)
            for (int k = 0; k < 4; ++k) {
                const float got = readFloats[4 * i + k], want = readAsFloat(f, words[i], k);
                const Encoding e = encodingOf(f, k);
                if (f.width[k] > 0 && (e == Encoding::Unorm || e == Encoding::Snorm))
                    ASSERT_NEAR(got, want, 1e-6f)
                        << "word " << std::hex << words[i] << " component " << k;
                else
                    ASSERT_EQ(bitsOf(got), bitsOf(want))
                        << "word " << std::hex << words[i] << " component " << k << ": " << got
                        << ", not " << want;
                if (isIntegerLayout(f))
                    ASSERT_EQ(readInts[4 * i + k], readAsInt(f, words[i], k))
                        << "word " << std::hex << words[i] << " component " << k;
            }
        // What was read, written back.
        ze_kernel_handle_t write = isIntegerLayout(f) ? writeInts : writeFloats;
        void *values = isIntegerLayout(f) ? static_cast<void *>(ints) : floats;
        ASSERT_ZE_SUCCESS(setArgs(write, {byValue(imageHandle), pointer(values)}));
        ASSERT_ZE_SUCCESS(launch(list_, write, {n / 64, 1, 1}));
        std::vector<uint32_t> expected = words;
        if (f.type == ZE_IMAGE_FORMAT_TYPE_SNORM)
            for (uint32_t &w : expected)
                for (int k = 0; k < 4; ++k)
                    if (fieldOf(f, w, k) == 1u << (f.width[k] - 1))
                        w = (w & ~(((1u << f.width[k]) - 1) << f.shift[k])) |
                            (((1u << (f.width[k] - 1)) + 1) << f.shift[k]);
        std::vector<uint32_t> out = imageWords();
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(out[i], expected[i]) << "pixel " << i << " read " << std::hex << words[i];
        // Values out of range, between two codes and NaNs (the GPU's
        // canonical one, and one with a payload of low bits), the same in
        // every channel.
        uint32_t nanBits[2] = {0x7fffffffu, 0x7f800001u};
        float nans[2];
        std::memcpy(nans, nanBits, sizeof nans);
        const float floatCases[] = {
            2.0f,     -1.0f, 0.5f,    0.25f,  1e10f, -3.0f, 1.0f + 1.0f / 128, 1.0f + 3.0f / 128,
            0x1p-15f, 0.3f,  nans[0], nans[1]};
        const int32_t intCases[] = {5000, -600, 600, 7, -5, 5, 1, -1, 0, 1023, -512, 511};
        constexpr uint32_t kCases = 12;
        std::vector<Float4> floatValues(n);
        std::vector<Int4> intValues(n);
        for (uint32_t i = 0; i < n; ++i) {
            floatValues[i].fill(floatCases[i % kCases]);
            intValues[i].fill(intCases[i % kCases]);
        }
        ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(
            list_, values,
            isIntegerLayout(f) ? static_cast<void *>(intValues.data()) : floatValues.data(),
            n * sizeof(Float4), nullptr, 0, nullptr));
        ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, nullptr, 0, nullptr));
        ASSERT_ZE_SUCCESS(launch(list_, write, {n / 64, 1, 1}));
        out = imageWords();
        for (uint32_t i = 0; i < n; ++i) {
            uint32_t want = 0;
            for (int k = 0; k < 4; ++k)
                if (f.width[k] > 0)
                    want |= (isIntegerLayout(f) ? writtenFromInt(f, k, intCases[i % kCases])
                                                : writtenFromFloat(f, k, floatCases[i % kCases]))
                            << f.shift[k];
            ASSERT_EQ(out[i], want)
                << "pixel " << i << " written "
                << (isIntegerLayout(f) ? float(intCases[i % kCases]) : floatCases[i % kCases]);
        }
    }
}

// One-component 32-bit normalized images (R32_UNORM, R32_SNORM): words
// read as floats within a float's precision, and floats written rounded and
// saturated (the most negative word reads as -1).
TEST_F(CudaBuiltins, ThirtyTwoBitNormalizedImages) {
    constexpr uint32_t n = 64;
    ze_module_handle_t m = cudaModule("packed_images");
    ze_kernel_handle_t readPixels = kernel(m, "read_pixels", 64);
    ze_kernel_handle_t writeFloats = kernel(m, "write_floats", 64);
    float *floats = device<float>(4 * n);
    int32_t *ints = device<int32_t>(4 * n);
    for (ze_image_format_type_t type : {ZE_IMAGE_FORMAT_TYPE_UNORM, ZE_IMAGE_FORMAT_TYPE_SNORM}) {
        const bool snorm = type == ZE_IMAGE_FORMAT_TYPE_SNORM;
        SCOPED_TRACE(snorm ? "SNORM" : "UNORM");
        const ze_image_desc_t desc =
            imageDesc(ZE_IMAGE_TYPE_1D, ZE_IMAGE_FORMAT_LAYOUT_32, type, n);
        ZeHandle<ze_image_handle_t, zeImageDestroy> image;
        ASSERT_ZE_SUCCESS(zeImageCreate(context_, device_, &desc, image.out()));
        ze_image_handle_t imageHandle = image;
        std::vector<uint32_t> words(n);
        for (uint32_t i = 0; i < n; ++i)
            words[i] = i == 0 ? 0u : i == 1 ? ~0u : i == 2 ? 0x80000000u : i * 2654435761u;
        ASSERT_ZE_SUCCESS(zeCommandListAppendImageCopyFromMemory(list_, imageHandle, words.data(),
                                                                 nullptr, nullptr, 0, nullptr));
        ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, nullptr, 0, nullptr));
        void *a = floats, *b = ints;
        ASSERT_ZE_SUCCESS(setArgs(readPixels, {byValue(imageHandle), pointer(a), pointer(b)}));
        ASSERT_ZE_SUCCESS(launch(list_, readPixels, {1, 1, 1}));
        const std::vector<float> got = read(floats, 4 * n);
        for (uint32_t i = 0; i < n; ++i) {
            const double want = snorm ? std::max(double(int32_t(words[i])) / 2147483647.0, -1.0)
                                      : double(words[i]) / 4294967295.0;
            ASSERT_NEAR(got[4 * i], want, 3e-7) << "word " << std::hex << words[i];
            ASSERT_EQ(got[4 * i + 3], 1.0f) << "alpha of a format without one";
        }
        const float cases[] = {2.0f, -2.0f, 0.5f, 0.25f, -0.25f, 0x1p-20f};
        std::vector<float> values(4 * n);
        for (uint32_t i = 0; i < n; ++i)
            values[4 * i] = cases[i % 6];
        ASSERT_ZE_SUCCESS(zeCommandListAppendMemoryCopy(
            list_, floats, values.data(), values.size() * sizeof(float), nullptr, 0, nullptr));
        ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, nullptr, 0, nullptr));
        ASSERT_ZE_SUCCESS(setArgs(writeFloats, {byValue(imageHandle), pointer(a)}));
        ASSERT_ZE_SUCCESS(launch(list_, writeFloats, {1, 1, 1}));
        std::vector<uint32_t> out(n);
        ASSERT_ZE_SUCCESS(zeCommandListAppendImageCopyToMemory(list_, out.data(), imageHandle,
                                                               nullptr, nullptr, 0, nullptr));
        sync(list_);
        for (uint32_t i = 0; i < n; ++i) {
            // As a float the scales are 2^31 and 2^32; the saturation keeps
            // the ends in range.
            const double v = std::clamp(double(cases[i % 6]), snorm ? -1.0 : 0.0, 1.0);
            const uint32_t want =
                snorm ? uint32_t(int32_t(std::clamp(std::nearbyint(v * 2147483648.0), -2147483647.0,
                                                    2147483647.0)))
                      : uint32_t(std::min(std::nearbyint(v * 4294967296.0), 4294967295.0));
            ASSERT_EQ(out[i], want) << "written " << cases[i % 6];
        }
    }
}

// Depth images: a 2D one of 32-bit floats written by a kernel (read back
// by a copy) and sampled nearest and linearly; an array of 16-bit
// normalized layers read pixel by pixel, with its size.
TEST_F(CudaBuiltins, DepthImagesReadWriteAndSample) {
    constexpr uint32_t w = 16, h = 4;
    ze_module_handle_t m = cudaModule("depth_images");
    ze_image_desc_t desc =
        imageDesc(ZE_IMAGE_TYPE_2D, ZE_IMAGE_FORMAT_LAYOUT_32, ZE_IMAGE_FORMAT_TYPE_FLOAT, w, h);
    ZeHandle<ze_image_handle_t, zeImageDestroy> image;
    ASSERT_ZE_SUCCESS(zeImageCreate(context_, device_, &desc, image.out()));
    ze_image_handle_t imageHandle = image;
    std::vector<float> values(w * h);
    for (uint32_t i = 0; i < w * h; ++i)
        values[i] = 0.25f * float(i % w) + 10.0f * float(i / w);
    float *dvalues = deviceWith(values);
    void *pv = dvalues;
    ze_kernel_handle_t write = kernel(m, "write_depth", w, h);
    ASSERT_ZE_SUCCESS(setArgs(write, {byValue(imageHandle), pointer(pv)}));
    ASSERT_ZE_SUCCESS(launch(list_, write, {1, 1, 1}));
    std::vector<float> copied(w * h, -1.0f);
    ASSERT_ZE_SUCCESS(zeCommandListAppendImageCopyToMemory(list_, copied.data(), imageHandle,
                                                           nullptr, nullptr, 0, nullptr));
    sync(list_);
    for (uint32_t i = 0; i < w * h; ++i)
        ASSERT_EQ(copied[i], values[i]) << "pixel " << i;

    // Reads at pixel centers and halfway between two pixels of a row,
    // unnormalized coordinates, clamped to the edge.
    std::vector<std::pair<float, float>> at;
    std::vector<float> nearest, linear;
    for (uint32_t y = 0; y < h; ++y)
        for (uint32_t x = 0; x + 1 < w; x += 3) {
            at.push_back({float(x) + 0.5f, float(y) + 0.5f});
            nearest.push_back(values[y * w + x]);
            linear.push_back(values[y * w + x]);
            at.push_back({float(x) + 1.0f, float(y) + 0.5f});
            nearest.push_back(values[y * w + x + 1]); // floor(x + 1.0)
            linear.push_back(0.5f * (values[y * w + x] + values[y * w + x + 1]));
        }
    const uint32_t n = uint32_t(at.size());
    std::vector<float> flat;
    for (auto [x, y] : at) {
        flat.push_back(x);
        flat.push_back(y);
    }
    float *dat = deviceWith(flat);
    float *dout = device<float>(n);
    void *pa = dat, *po = dout;
    ze_kernel_handle_t sample = kernel(m, "sample_depth", 1);
    for (ze_sampler_filter_mode_t filter :
         {ZE_SAMPLER_FILTER_MODE_NEAREST, ZE_SAMPLER_FILTER_MODE_LINEAR}) {
        ze_sampler_desc_t sd = {ZE_STRUCTURE_TYPE_SAMPLER_DESC, nullptr,
                                ZE_SAMPLER_ADDRESS_MODE_CLAMP, filter, false};
        ZeHandle<ze_sampler_handle_t, zeSamplerDestroy> sampler;
        ASSERT_ZE_SUCCESS(zeSamplerCreate(context_, device_, &sd, sampler.out()));
        ze_sampler_handle_t samplerHandle = sampler;
        ASSERT_ZE_SUCCESS(setArgs(
            sample, {byValue(imageHandle), byValue(samplerHandle), pointer(pa), pointer(po)}));
        ASSERT_ZE_SUCCESS(launch(list_, sample, {n, 1, 1}));
        const std::vector<float> got = read(dout, n);
        const std::vector<float> &want =
            filter == ZE_SAMPLER_FILTER_MODE_NEAREST ? nearest : linear;
        for (uint32_t i = 0; i < n; ++i)
            ASSERT_NEAR(got[i], want[i], 1e-4f * std::fabs(want[i]) + 1e-6f)
                << (filter == ZE_SAMPLER_FILTER_MODE_NEAREST ? "nearest" : "linear") << " at ("
                << at[i].first << ", " << at[i].second << ")";
    }

    // An array of three layers of 16-bit normalized depths.
    constexpr uint32_t layers = 3;
    desc.type = ZE_IMAGE_TYPE_2DARRAY;
    desc.format.layout = ZE_IMAGE_FORMAT_LAYOUT_16;
    desc.format.type = ZE_IMAGE_FORMAT_TYPE_UNORM;
    desc.arraylevels = layers;
    ZeHandle<ze_image_handle_t, zeImageDestroy> array;
    ASSERT_ZE_SUCCESS(zeImageCreate(context_, device_, &desc, array.out()));
    ze_image_handle_t arrayHandle = array;
    std::vector<uint16_t> words(w * h * layers);
    for (uint32_t i = 0; i < words.size(); ++i)
        words[i] = uint16_t(i * 977u);
    ASSERT_ZE_SUCCESS(zeCommandListAppendImageCopyFromMemory(list_, arrayHandle, words.data(),
                                                             nullptr, nullptr, 0, nullptr));
    ASSERT_ZE_SUCCESS(zeCommandListAppendBarrier(list_, nullptr, 0, nullptr));
    float *dread = device<float>(words.size());
    int *dsize = device<int>(3);
    void *pr = dread, *ps = dsize;
    ze_kernel_handle_t readArray = kernel(m, "read_depth_array", w, h, 1);
    ASSERT_ZE_SUCCESS(setArgs(readArray, {byValue(arrayHandle), pointer(pr), pointer(ps)}));
    ASSERT_ZE_SUCCESS(launch(list_, readArray, {1, 1, layers}));
    const std::vector<float> got = read(dread, words.size());
    for (uint32_t i = 0; i < words.size(); ++i)
        ASSERT_NEAR(got[i], float(words[i]) / 65535.0f, 1e-6f) << "pixel " << i;
    EXPECT_EQ(read(dsize, 3), (std::vector<int>{int(w), int(h), int(layers)}));
}

} // namespace
} // namespace zetest
