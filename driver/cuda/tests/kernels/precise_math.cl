// OpenCL's precise math builtins, which the CUDA backend takes from libdevice
// where it is installed (driver/cuda/libdevice_math.cpp): each work-item
// computes every one on its inputs, result r of input i at out[r * n + i],
// in the order of the tests' table. sin(a) and cos(a) of one block become
// one sincos in the translation; sincos itself runs on arguments up to
// 50,000 (the long argument reduction). Division, reciprocal and square
// root are in the table too: in single precision OpenCL allows 2.5, 2.5 and
// 3 ulp (the translation takes div.full, rcp.approx and sqrt.approx).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define EACH(T)                                                                                  \
    out[0 * n + i] = exp(a);                                                                     \
    out[1 * n + i] = exp2(a);                                                                    \
    out[2 * n + i] = exp10(a);                                                                   \
    out[3 * n + i] = expm1(a);                                                                   \
    out[4 * n + i] = log(b);                                                                     \
    out[5 * n + i] = log2(b);                                                                    \
    out[6 * n + i] = log10(b);                                                                   \
    out[7 * n + i] = log1p(b);                                                                   \
    out[8 * n + i] = sin(a);                                                                     \
    out[9 * n + i] = cos(a);                                                                     \
    out[10 * n + i] = tan(a);                                                                    \
    out[11 * n + i] = asin(c);                                                                   \
    out[12 * n + i] = acos(c);                                                                   \
    out[13 * n + i] = atan(a);                                                                   \
    out[14 * n + i] = atan2(a, b);                                                               \
    out[15 * n + i] = sinh(c);                                                                   \
    out[16 * n + i] = cosh(c);                                                                   \
    out[17 * n + i] = tanh(a);                                                                   \
    out[18 * n + i] = asinh(a);                                                                  \
    out[19 * n + i] = acosh(b + (T)1);                                                           \
    out[20 * n + i] = atanh(c);                                                                  \
    out[21 * n + i] = pow(b, c);                                                                 \
    out[22 * n + i] = cbrt(a);                                                                   \
    out[23 * n + i] = erf(a);                                                                    \
    out[24 * n + i] = erfc(a);                                                                   \
    out[25 * n + i] = tgamma(c + (T)2);                                                          \
    out[26 * n + i] = hypot(a, b);                                                               \
    out[27 * n + i] = sinpi(a);                                                                  \
    out[28 * n + i] = cospi(a);                                                                  \
    out[29 * n + i] = rsqrt(b);                                                                  \
    {                                                                                            \
        T cosine;                                                                                \
        out[30 * n + i] = sincos(b * (T)1000, &cosine);                                          \
        out[31 * n + i] = cosine;                                                                \
    }                                                                                            \
    out[32 * n + i] = a / b;                                                                     \
    out[33 * n + i] = (T)1 / b;                                                                  \
    out[34 * n + i] = sqrt(b);

// a in [-9, 9), b in [0.01, 50), c in (-1, 1): each function's domain.
kernel void precise_float(global const float *x, global const float *y, global const float *z,
                          global float *out, uint n) {
    size_t i = get_global_id(0);
    float a = x[i], b = y[i], c = z[i];
    EACH(float)
}

kernel void precise_double(global const double *x, global const double *y,
                           global const double *z, global double *out, uint n) {
    size_t i = get_global_id(0);
    double a = x[i], b = y[i], c = z[i];
    EACH(double)
}

// The vector forms, lane by lane.
kernel void precise_float4(global const float4 *x, global float4 *exps, global float4 *pows) {
    size_t i = get_global_id(0);
    exps[i] = exp(x[i]);
    pows[i] = pow(x[i], (float4)(0.5f, 1.5f, 2.0f, -1.0f));
}
