// OpenCL C's builtins family by family, each kernel a chain of n steps per
// work-item, every step depending on the last, so that the builtins'
// code, not memory, takes the time. A kernel the two compilers make
// differently shows which builtin family differs. The chains contract
// (each step's derivative is below one in magnitude) so that rounding
// differences between the sides do not grow along them.

// ---------------------------------------------------------------- integer

kernel void int_mul24(global const uint *in, global uint *out, uint n) {
    size_t i = get_global_id(0);
    uint a = in[i], b = a ^ 0x5bd1e995u;
    for (uint k = 0; k < n; ++k) {
        a = mad24(a & 0x7fffffu, b & 0x7fffu, k);
        b = mul24(b & 0xffffu, a & 0x7ffu) + a;
    }
    out[i] = a ^ b;
}

kernel void int_bits(global const uint *in, global uint *out, uint n) {
    size_t i = get_global_id(0);
    uint a = in[i], b = a * 0x9e3779b9u + 1u;
    for (uint k = 0; k < n; ++k) {
        a = rotate(a, b) ^ popcount(b);
        b = mul_hi(b, 0x85ebca6bu) + clz(a) + mad_hi(a, b, k);
    }
    out[i] = a ^ b;
}

kernel void int_saturate(global const int *in, global int *out, uint n) {
    size_t i = get_global_id(0);
    int a = in[i], b = a >> 3;
    for (uint k = 0; k < n; ++k) {
        a = add_sat(a, b) - sub_sat(b, a >> 1);
        b = hadd(a, b) ^ rhadd(b, (int)k);
        a = clamp(a + (int)(abs_diff(a, b) & 1023u), -1000000, 1000000);
        b = max(min(b, a), -a);
    }
    out[i] = a ^ b;
}

kernel void int_convert(global const float *in, global int *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i] * 300.0f;
    int acc = 0;
    for (uint k = 0; k < n; ++k) {
        uchar c = convert_uchar_sat_rte(x);
        short s = convert_short_sat(x * 200.0f);
        int r = convert_int_rtz(x * 0.75f);
        acc += c + s + r;
        x = convert_float(acc & 511) - 100.0f;
    }
    out[i] = acc;
}

// ---------------------------------------------------------------- float

kernel void float_round(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i];
    for (uint k = 0; k < n; ++k) {
        // Powers of two as factors: contracted or not, the sum rounds the
        // same, so that a discontinuity cannot tell the two sides apart.
        float y = x * 3.7f;
        x = 0.25f * (floor(y) - trunc(y)) + 0.5f * fract(y, &y) + 0.125f * (rint(y) - round(y)) +
            0.0078125f * ceil(y);
    }
    out[i] = x;
}

kernel void float_common(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i];
    for (uint k = 0; k < n; ++k) {
        float s = smoothstep(0.0f, 1.0f, x) * 0.9f;
        float m = mix(s, step(0.5f, x), 0.25f);
        x = fmax(fmin(m + 0.05f * sign(x - 0.5f), 1.0f), copysign(0.01f, x)) + fdim(x, 0.9f) * 0.5f;
        x = clamp(x, 0.0f, 1.0f);
    }
    out[i] = x;
}

kernel void float_remainder(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i] * 10.0f + 1.0f;
    for (uint k = 0; k < n; ++k) {
        float whole;
        float f = modf(x * 1.5f, &whole);
        x = 0.1f * fmod(x * 3.3f, 5.1f) + 0.2f * remainder(x, 1.7f) + 0.2f * f + 0.01f * whole + 1.0f;
    }
    out[i] = x;
}

kernel void float_geometric(global const float4 *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float4 p = in[i] + (float4)(0.5f);
    float3 q = p.yzw;
    float acc = 0.0f;
    for (uint k = 0; k < n; ++k) {
        float4 u = normalize(p);
        float3 c = cross(q, u.xyz);
        acc += length(p) * 0.01f + distance(p, u) * 0.01f + dot(u, p) * 0.001f;
        p = u + (float4)(c, 0.5f) * 0.5f + (float4)(0.25f);
        q = normalize(c + q);
    }
    out[i] = acc;
}

kernel void float_geometric_fast(global const float4 *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float4 p = in[i] + (float4)(0.5f);
    float acc = 0.0f;
    for (uint k = 0; k < n; ++k) {
        float4 u = fast_normalize(p);
        acc += fast_length(p) * 0.01f + fast_distance(p, u) * 0.01f;
        p = u * 0.5f + p.wxyz * 0.25f + (float4)(0.25f);
    }
    out[i] = acc;
}

kernel void float_pow(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i] + 1.0f;
    for (uint k = 0; k < n; ++k) {
        x = 0.1f * pow(x, 1.3f) + 0.01f * pown(x, 3) + 0.1f * powr(x, 0.7f) + 0.1f * rootn(x, 3) +
            0.1f * cbrt(x) + 0.1f * hypot(x, 1.0f) + 0.5f;
    }
    out[i] = x;
}

kernel void float_inverse_trig(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i] * 2.0f - 1.0f;
    for (uint k = 0; k < n; ++k) {
        x = 0.25f * (asin(x * 0.9f) + acos(x * 0.9f) - 1.5f) + 0.25f * atan(x) + 0.2f * atan2(x, 1.5f);
    }
    out[i] = x;
}

kernel void float_hyperbolic(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i];
    for (uint k = 0; k < n; ++k) {
        x = 0.2f * sinh(x) + 0.1f * cosh(x) + 0.2f * tanh(x) + 0.2f * asinh(x) +
            0.1f * acosh(x + 1.5f) + 0.1f * atanh(x * 0.5f);
    }
    out[i] = x;
}

kernel void float_special(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i] + 1.0f;
    for (uint k = 0; k < n; ++k) {
        x = 0.3f * erf(x) + 0.3f * erfc(x) + 0.1f * lgamma(x + 1.0f) + 0.1f * tgamma(x) + 0.6f;
    }
    out[i] = x;
}

kernel void float_exp_log(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i];
    for (uint k = 0; k < n; ++k) {
        x = 0.1f * exp2(x) + 0.05f * exp10(x * 0.5f) + 0.1f * expm1(x) + 0.1f * log2(x + 1.0f) +
            0.1f * log10(x + 1.0f) + 0.1f * log1p(x) + 0.2f;
    }
    out[i] = x;
}

kernel void float_trig(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i];
    for (uint k = 0; k < n; ++k) {
        float c;
        float s = sincos(x * 2.0f, &c);
        x = 0.2f * s + 0.2f * c + 0.1f * tan(x) + 0.1f * sinpi(x) + 0.1f * cospi(x) + 0.1f * tanpi(x * 0.25f) +
            0.3f;
    }
    out[i] = x;
}

kernel void float_exponent(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i] * 100.0f + 1.0f;
    for (uint k = 0; k < n; ++k) {
        int e;
        float m = frexp(x, &e);
        x = ldexp(m, (e & 7) + 1) + (float)ilogb(x) * 0.5f + logb(x) * 0.25f + nextafter(m, 2.0f);
    }
    out[i] = x;
}

kernel void float_native(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i] + 0.5f;
    for (uint k = 0; k < n; ++k) {
        x = 0.1f * native_exp(-x) + 0.1f * native_log(x + 1.0f) + 0.1f * native_sin(x) +
            0.1f * native_cos(x) + 0.1f * native_sqrt(x) + 0.1f * native_rsqrt(x + 1.0f) +
            0.1f * native_recip(x + 1.0f) + 0.1f * native_divide(x, x + 2.0f) +
            0.1f * native_powr(x, 0.7f) + 0.1f * native_exp2(-x) + 0.1f * native_log2(x + 1.0f) + 0.2f;
    }
    out[i] = x;
}

kernel void float_half(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i] + 0.5f;
    for (uint k = 0; k < n; ++k) {
        x = 0.1f * half_exp(-x) + 0.1f * half_log(x + 1.0f) + 0.1f * half_sin(x) + 0.1f * half_cos(x) +
            0.1f * half_sqrt(x) + 0.1f * half_rsqrt(x + 1.0f) + 0.1f * half_recip(x + 1.0f) +
            0.1f * half_divide(x, x + 2.0f) + 0.1f * half_powr(x, 0.7f) + 0.2f;
    }
    out[i] = x;
}

kernel void float_sqrt_divide(global const float *in, global float *out, uint n) {
    size_t i = get_global_id(0);
    float x = in[i] + 0.5f, y = in[i] + 1.0f;
    for (uint k = 0; k < n; ++k) {
        x = 0.3f * sqrt(x + y) + 0.3f * rsqrt(x + 1.0f) + 0.3f * (y / (x + 1.0f));
        y = 0.5f / (x + 0.5f) + 0.25f;
    }
    out[i] = x + y;
}

kernel void float_half_storage(global const half *in, global half *out, uint n) {
    size_t i = get_global_id(0);
    float4 v = vload_half4(i, in);
    for (uint k = 0; k < n; ++k) {
        v = v.yzwx * 0.5f + (float4)(0.25f) + v * 0.25f;
        vstore_half4_rte(v, i, out);
        v = vload_half4(i, out) + (float4)(0.001f);
    }
    vstore_half4(v, i, out);
}

kernel void float_vector_select(global const float4 *in, global float4 *out, uint n) {
    size_t i = get_global_id(0);
    float4 v = in[i];
    uint4 mask = (uint4)(0, 1, 2, 3);
    for (uint k = 0; k < n; ++k) {
        float4 w = shuffle(v, mask);
        float4 z = shuffle2(v, w, (uint4)(1, 4, 6, 3));
        v = select(w, z, isgreater(v, z)) * 0.5f + bitselect(v, w, (float4)(0.5f)) * 0.25f + (float4)(0.1f);
        mask = (mask + 1) & 3;
    }
    out[i] = v;
}

// ---------------------------------------------------------------- double

kernel void double_math(global const double *in, global double *out, uint n) {
    size_t i = get_global_id(0);
    double x = in[i] + 0.5;
    for (uint k = 0; k < n; ++k) {
        x = 0.1 * exp(-x) + 0.1 * log(x + 1.0) + 0.1 * sin(x) + 0.1 * cos(x) + 0.1 * pow(x, 0.7) +
            0.1 * sqrt(x) + 0.1 / (x + 1.0) + 0.2;
    }
    out[i] = x;
}

kernel void double_special(global const double *in, global double *out, uint n) {
    size_t i = get_global_id(0);
    double x = in[i] + 0.5;
    for (uint k = 0; k < n; ++k) {
        x = 0.2 * erf(x) + 0.2 * atan2(x, 2.0) + 0.2 * cbrt(x) + 0.2 * tanh(x) + 0.1 * log1p(x) +
            0.1 * rsqrt(x + 1.0) + 0.1;
    }
    out[i] = x;
}

// ---------------------------------------------------------------- atomics

kernel void int_atomics(global const uint *in, global uint *counters, uint n) {
    size_t i = get_global_id(0);
    uint v = in[i];
    for (uint k = 0; k < n; ++k) {
        uint slot = (v + k * 7u) & 1023u;
        atomic_add(&counters[slot], 1u);
        atomic_max(&counters[1024 + slot], v >> (k & 15));
        v = v * 1664525u + 1013904223u;
    }
}

// A float sum by compare-and-swap on its bits, the way OpenCL 1.2 code adds
// floats atomically.
kernel void float_atomic_add(global const float *in, global float *sums, uint n) {
    size_t i = get_global_id(0);
    float v = in[i];
    for (uint k = 0; k < n; ++k) {
        volatile global uint *word = (volatile global uint *)&sums[(i + k * 64u) & 4095u];
        uint old = *word, seen;
        do {
            seen = old;
            old = atomic_cmpxchg(word, seen, as_uint(as_float(seen) + v));
        } while (old != seen);
    }
}
