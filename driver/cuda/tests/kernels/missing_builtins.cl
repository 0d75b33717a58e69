// Builtins libclc-15's NVPTX library lacks, which the CUDA backend defines
// itself (missing_builtins.hpp): compiled as OpenCL C 2.0, so that every
// builtin taking a pointer takes a generic one.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

// mad_hi and ctz on 32- and 64-bit integers, a short and a vector:
// out[8 * i + r], lout[4 * i + r].
kernel void integer_extras(global const int *a, global const long *la, global int *out,
                           global long *lout) {
    size_t i = get_global_id(0);
    int x = a[i], y = a[i ^ 1];
    out[8 * i + 0] = mad_hi(x, y, 7);
    out[8 * i + 1] = (int)mad_hi((uint)x, (uint)y, 7u);
    out[8 * i + 2] = ctz(x);
    out[8 * i + 3] = ctz((ushort)y);
    int4 v = mad_hi((int4)(x, y, x, y), (int4)(y, x, 3, -3), (int4)(1, 2, 3, 4));
    out[8 * i + 4] = v.x ^ v.y ^ v.z ^ v.w;
    uint2 z = ctz((uint2)((uint)x, (uint)x & 0xffff0000u));
    out[8 * i + 5] = (int)(z.x * 100u + z.y);
    long u = la[i], w = la[i ^ 1];
    lout[4 * i + 0] = mad_hi(u, w, 5L);
    lout[4 * i + 1] = (long)mad_hi((ulong)u, (ulong)w, 5UL);
    lout[4 * i + 2] = ctz(u);
    lout[4 * i + 3] = ctz((ulong)u & 0xffffffff00000000UL);
}

// 64-bit atomics (cl_khr_int64_*: atom_*, and OpenCL 2.0's atomic_long
// through generic pointers) on global memory and on a work-group's local
// sum; atomic loads of floats and doubles. totals: sum, min, max, xor,
// count, sum through atomic_fetch_add; groups: each group's sum.
kernel void long_atomics(global const long *values, volatile global long *totals,
                         global long *groups, global const float *f, global const double *d,
                         global float *fout, global double *dout) {
    size_t i = get_global_id(0);
    local long groupSum;
    if (get_local_id(0) == 0)
        groupSum = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    long v = values[i];
    atom_add(&totals[0], v);
    atom_min(&totals[1], v);
    atom_max(&totals[2], v);
    atom_xor((volatile global ulong *)&totals[3], (ulong)v);
    atom_inc(&totals[4]);
    atomic_fetch_add((volatile atomic_long *)&totals[5], v);
    atom_add(&groupSum, v);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        groups[get_group_id(0)] = groupSum;
    fout[i] = atomic_load((volatile global atomic_float *)&f[i]);
    dout[i] = atomic_load((volatile global atomic_double *)&d[i]);
}

// to_global, to_local, to_private and get_fence on generic pointers to
// each address space (work-item i's: spaces[i], 0 global, 1 local, 2
// private): out[4 * i + r]. A global pointer is also written through.
kernel void address_spaces(global const int *spaces, global int *g, global int *out) {
    size_t i = get_global_id(0);
    local int l[64];
    int p = (int)i;
    l[get_local_id(0)] = (int)i;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int space = spaces[i];
    int *ptr = space == 0 ? (int *)&g[i] : space == 1 ? (int *)&l[get_local_id(0)] : &p;
    global int *asGlobal = to_global(ptr);
    out[4 * i + 0] = asGlobal != 0;
    out[4 * i + 1] = to_local(ptr) != 0;
    out[4 * i + 2] = to_private(ptr) != 0;
    out[4 * i + 3] = space == 2 ? (*ptr == (int)i) : (int)get_fence(ptr);
    if (asGlobal)
        *asGlobal = (int)i + 1000;
}

// Math builtins returning a second result through a pointer, to private
// and local memory, and half stores: out[8 * i + r], iout[4 * i + r].
kernel void pointer_results(global const float *x, global float *out, global int *iout,
                            global half *h) {
    size_t i = get_global_id(0);
    local float whole[64];
    float v = x[i];
    int e, q, sign;
    float integral, c;
    out[8 * i + 0] = fract(v, &whole[get_local_id(0)]);
    out[8 * i + 1] = whole[get_local_id(0)];
    out[8 * i + 2] = frexp(v, &e);
    out[8 * i + 3] = modf(v, &integral);
    out[8 * i + 4] = integral;
    out[8 * i + 5] = remquo(v, 0.75f, &q);
    out[8 * i + 6] = lgamma_r(v, &sign);
    out[8 * i + 7] = sincos(v, &c) + 4.0f * c;
    iout[4 * i + 0] = e;
    iout[4 * i + 1] = q;
    iout[4 * i + 2] = sign;
    vstore_half(v, i, h);
    iout[4 * i + 3] = vload_half(i, h) == v;
}

// Copies a work-group's 64 elements into local memory asynchronously and
// waits for them: dst[i] = 2 * src[the group's mirror of i].
kernel void async_copy(global const float *src, global float *dst) {
    local float tile[64];
    size_t group = get_group_id(0), lid = get_local_id(0);
    event_t copied = async_work_group_copy(tile, src + group * 64, 64, 0);
    wait_group_events(1, &copied);
    dst[get_global_id(0)] = 2.0f * tile[63 - lid];
}
