// Builtins the CUDA backend defines itself because libclc-15's definitions
// are slow or wrong on NVPTX (faster_builtins.hpp, exact_float_builtins.hpp,
// relaxed_inverse_trig.hpp): each result against the host's.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// vstore_half (round to nearest even) of floats and doubles, of a float4
// and of a float3 with vstorea_half3's stride of four.
kernel void half_stores(global const float *x, global const double *d, global half *fromFloat,
                        global half *fromDouble, global half *fromFloat4, global half *aligned3) {
    size_t i = get_global_id(0);
    vstore_half(x[i], i, fromFloat);
    vstore_half_rte(d[i], i, fromDouble);
    vstore_half4_rte(vload4(i, x), i, fromFloat4);
    vstorea_half3(vload3(i, x), i, aligned3);
}

// shuffle and shuffle2 with masks known only at run time (every bit set
// somewhere: only the low ones count), on float8, uchar16 and float4 to
// float2.
kernel void shuffles(global const float8 *v, global const uint8 *masks, global float8 *one,
                     global float8 *two, global const uchar16 *bytes, global const uchar16 *byteMasks,
                     global uchar16 *shuffledBytes, global float2 *narrow) {
    size_t i = get_global_id(0), next = (i + 1) % get_global_size(0);
    one[i] = shuffle(v[i], masks[i]);
    two[i] = shuffle2(v[i], v[next], masks[i]);
    shuffledBytes[i] = shuffle(bytes[i], byteMasks[i]);
    narrow[i] = shuffle(v[i].lo, masks[i].s01);
}

// rotate by amounts past the width and negative ones, on 8-, 32- and 64-bit
// integers.
kernel void rotates(global const uint *x, global const int *amount, global uint *unsigned32,
                    global int *signed32, global uchar *unsigned8, global long *signed64) {
    size_t i = get_global_id(0);
    unsigned32[i] = rotate(x[i], (uint)amount[i]);
    signed32[i] = rotate((int)x[i], amount[i]);
    unsigned8[i] = rotate((uchar)x[i], (uchar)amount[i]);
    signed64[i] = rotate((long)x[i] << 24 ^ (long)x[i], (long)amount[i]);
}

kernel void signs(global const float *x, global const double *d, global float *s,
                  global double *sd) {
    size_t i = get_global_id(0);
    s[i] = sign(x[i]);
    sd[i] = sign(d[i]);
}

// Saturating conversions of floats and doubles to every integer width, in
// every rounding mode.
kernel void saturating_conversions(global const float *x, global const double *d,
                                   global uchar *u8, global char *s8, global short *s16,
                                   global ushort *u16, global int *s32, global uint *u32,
                                   global long *s64, global ulong *u64, global uint *u32f,
                                   global long *s64f) {
    size_t i = get_global_id(0);
    u8[i] = convert_uchar_sat_rte(x[i]);
    s8[i] = convert_char_sat(x[i]);
    s16[i] = convert_short_sat_rtn(x[i]);
    u16[i] = convert_ushort_sat_rtp(x[i]);
    s32[i] = convert_int_sat_rte(x[i]);
    u32[i] = convert_uint_sat(d[i]);
    s64[i] = convert_long_sat_rtn(d[i]);
    u64[i] = convert_ulong_sat_rte(d[i]);
    u32f[i] = convert_uint_sat_rtz(x[i]);
    s64f[i] = convert_long_sat(x[i]);
}

// clamp to bounds known at run time and to [0, 1] (a saturation once the
// constants are inlined), of float4 by scalars and of doubles; smoothstep
// with edges known at run time and with 0 and 1: results r at out[8 * i + r].
kernel void clamps(global const float *x, global const float *low, global const double *d,
                   global float *out, global double *dout) {
    size_t i = get_global_id(0);
    float v = x[i], lo = low[i], hi = low[i] + 1.5f;
    float4 w = clamp((float4)(v, -v, v * 3.0f, v - 0.5f), lo, hi);
    out[8 * i + 0] = clamp(v, lo, hi);
    out[8 * i + 1] = clamp(v, 0.0f, 1.0f);
    out[8 * i + 2] = w.x + w.y * 2.0f + w.z * 4.0f + w.w * 8.0f;
    out[8 * i + 3] = smoothstep(lo, hi, v);
    out[8 * i + 4] = smoothstep(0.0f, 1.0f, v);
    float4 s = smoothstep(0.0f, 1.0f, (float4)(v, -v, v * 0.25f, v + 0.25f));
    out[8 * i + 5] = s.x + s.y + s.z + s.w;
    out[8 * i + 6] = clamp(v, 0.0f, 1.0f) + clamp(-v, 0.0f, 2.0f);
    out[8 * i + 7] = 0.0f;
    dout[i] = clamp(d[i], 0.0, 1.0) + smoothstep(-1.0, 3.0, d[i]);
}

// fmod, remainder, copysign, fdim and remquo of each pair, in float and
// double, and the float4 fmod, remainder and remquo (its quotients through
// a global pointer) on the pairs four by four (items below n / 4).
kernel void quotient_remainders(global const float *x, global const float *y,
                                global const double *dx, global const double *dy,
                                global float *f, global double *d, global int *quo, uint n) {
    size_t i = get_global_id(0);
    int q, dq;
    f[5 * i] = fmod(x[i], y[i]);
    f[5 * i + 1] = remainder(x[i], y[i]);
    f[5 * i + 2] = copysign(x[i], y[i]);
    f[5 * i + 3] = fdim(x[i], y[i]);
    f[5 * i + 4] = remquo(x[i], y[i], &q);
    d[5 * i] = fmod(dx[i], dy[i]);
    d[5 * i + 1] = remainder(dx[i], dy[i]);
    d[5 * i + 2] = copysign(dx[i], dy[i]);
    d[5 * i + 3] = fdim(dx[i], dy[i]);
    d[5 * i + 4] = remquo(dx[i], dy[i], &dq);
    quo[2 * i] = q;
    quo[2 * i + 1] = dq;
    if (i < n / 4) {
        float4 a = vload4(i, x), b = vload4(i, y);
        vstore4(fmod(a, b), i, f + 5 * n);
        vstore4(remainder(a, b), i, f + 6 * n);
        vstore4(remquo(a, b, (global int4 *)(quo + 2 * n) + i), i, f + 7 * n);
    }
}

// ldexp of each float by its exponent, and the float4 forms: with the
// exponents four by four and with one exponent (items below n / 4).
kernel void ldexps(global const float *x, global const int *e, global float *out, uint n) {
    size_t i = get_global_id(0);
    out[i] = ldexp(x[i], e[i]);
    if (i < n / 4) {
        vstore4(ldexp(vload4(i, x), vload4(i, e)), i, out + n);
        vstore4(ldexp(vload4(i, x), e[4 * i]), i, out + 2 * n);
    }
}

// asin, acos, atan and atan2 of x and of (y, x), result r at out[r * n +
// i]; the float4 forms of the four at out[(4 + r) * n + i] (items below n / 4).
kernel void inverse_trig(global const float *x, global const float *y, global float *out,
                         uint n) {
    size_t i = get_global_id(0);
    out[i] = asin(x[i]);
    out[n + i] = acos(x[i]);
    out[2 * n + i] = atan(y[i]);
    out[3 * n + i] = atan2(y[i], x[i]);
    if (i < n / 4) {
        float4 a = vload4(i, x), b = vload4(i, y);
        vstore4(asin(a), i, out + 4 * n);
        vstore4(acos(a), i, out + 5 * n);
        vstore4(atan(b), i, out + 6 * n);
        vstore4(atan2(b, a), i, out + 7 * n);
    }
}
