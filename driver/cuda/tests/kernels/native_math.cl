// The native_* and half_* builtins the CUDA backend puts on the GPU's
// approximate instructions (driver/cuda/native_math.cpp): each work-item
// computes every one of them on its input, result r of input i at
// out[r * n + i] (the order of the tests' table). unary_float4 computes a few
// on float4, whose definitions are built lane by lane.

kernel void native_and_half(global const float *x, global const float *y, global float *out,
                            uint n) {
    size_t i = get_global_id(0);
    float a = x[i], b = y[i];
    out[0 * n + i] = native_exp(a);
    out[1 * n + i] = native_exp2(a);
    out[2 * n + i] = native_exp10(a);
    out[3 * n + i] = native_log(b);
    out[4 * n + i] = native_log2(b);
    out[5 * n + i] = native_log10(b);
    out[6 * n + i] = native_sin(a);
    out[7 * n + i] = native_cos(a);
    out[8 * n + i] = native_tan(a);
    out[9 * n + i] = native_powr(b, a);
    out[10 * n + i] = native_sqrt(b);
    out[11 * n + i] = native_rsqrt(b);
    out[12 * n + i] = native_recip(b);
    out[13 * n + i] = native_divide(a, b);
    out[14 * n + i] = half_exp(a);
    out[15 * n + i] = half_exp2(a);
    out[16 * n + i] = half_exp10(a);
    out[17 * n + i] = half_sqrt(b);
    out[18 * n + i] = half_rsqrt(b);
    out[19 * n + i] = half_recip(b);
    out[20 * n + i] = half_divide(a, b);
}

kernel void unary_float4(global const float4 *x, global float4 *exps, global float4 *rsqrts,
                         global float4 *quotients) {
    size_t i = get_global_id(0);
    float4 a = x[i];
    exps[i] = native_exp(a);
    rsqrts[i] = native_rsqrt(a);
    quotients[i] = native_divide(a, a + 1.0f);
}

// The half_* builtins the approximate instructions do not meet over their
// whole domain: the precise builtins by default, the approximate
// instructions with -cl-fast-relaxed-math. Trigonometry of a and of a
// scaled to half_*'s domain (|x| < 2^16), result r at out[r * n + i].
kernel void half_precise(global const float *x, global const float *y, global float *out,
                         uint n) {
    size_t i = get_global_id(0);
    float a = x[i], b = y[i], wide = x[i] * 7000.0f;
    out[0 * n + i] = half_log(b);
    out[1 * n + i] = half_log2(b);
    out[2 * n + i] = half_log10(b);
    out[3 * n + i] = half_sin(a);
    out[4 * n + i] = half_cos(a);
    out[5 * n + i] = half_tan(a);
    out[6 * n + i] = half_powr(b, a);
    out[7 * n + i] = half_sin(wide);
    out[8 * n + i] = half_cos(wide);
}
