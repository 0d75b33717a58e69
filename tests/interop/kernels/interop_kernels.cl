/*
 * Kernels of the interop tests. The same file is compiled to SPIR-V at build
 * time (imex_l0_add_spirv, for the from_spirv path) and read at test time as
 * OpenCL C source (for the from_source path), so both paths run one code.
 */

/* Passed by value; the host mirrors it in interop_fixtures.hpp (AffineParams). */
typedef struct {
    float scale;
    float offset;
    int count;
} affine_t;

kernel void add(global const float *a, global const float *b, global float *out) {
    size_t i = get_global_id(0);
    out[i] = a[i] + b[i];
}

kernel void scale(global const float *in, global float *out, float alpha) {
    size_t i = get_global_id(0);
    out[i] = in[i] * alpha;
}

/* Read-modify-write, so lost or reordered launches show in the result. */
kernel void increment(global int *data) {
    size_t i = get_global_id(0);
    data[i] += 1;
}

/* Each work-item writes its linear index: checks 1D/2D/3D ranges and that
   every work-item of the range ran exactly once. */
kernel void fill_index(global uint *out) {
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
    out[i] = (uint)i;
}

kernel void affine(global const float *in, global float *out, affine_t p) {
    int i = (int)get_global_id(0);
    out[i] = i < p.count ? in[i] * p.scale + p.offset : in[i];
}

/* out[i] = sum_k coeffs[k] * in[i]^k, coefficients in constant memory. */
kernel void poly(global const float *in, constant float *coeffs, int ncoeffs,
                 global float *out) {
    size_t i = get_global_id(0);
    float x = in[i], acc = 0.0f, power = 1.0f;
    for (int k = 0; k < ncoeffs; ++k) {
        acc += coeffs[k] * power;
        power *= x;
    }
    out[i] = acc;
}

/* One partial sum per work-group, through local memory sized by the caller.
   Requires a power-of-two local size. */
kernel void reduce_sum(global const int *in, global int *partial, local int *scratch) {
    size_t lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < s)
            scratch[lid] += scratch[lid + s];
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

/* One argument of every kind, for kernel_get_arg_info. */
kernel void arg_kinds(global int *g, constant int *c, local int *l, int v, float4 f4,
                      affine_t s, char ch, long lg) {
    l[get_local_id(0)] = c[0] + v + (int)f4.x + s.count + ch + (int)lg;
    barrier(CLK_LOCAL_MEM_FENCE);
    g[get_global_id(0)] = l[get_local_id(0)];
}

kernel void empty(void) {}
