/*
 * Kernels of the hostile-input and stress tests: one of each argument kind
 * (global pointers, a by-value scalar, local memory), compiled to SPIR-V at
 * build time so the tests never need the OpenCL C compiler unless a case is
 * about compiling.
 */
kernel void add(global const float *a, global const float *b, global float *out) {
    size_t i = get_global_id(0);
    out[i] = a[i] + b[i];
}

kernel void scale(global const float *in, global float *out, float alpha) {
    size_t i = get_global_id(0);
    out[i] = in[i] * alpha;
}

/* One partial sum per work-group through caller-sized local memory. */
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

/* Read-modify-write: a lost, duplicated or reordered launch changes the result. */
kernel void increment(global int *data) {
    size_t i = get_global_id(0);
    data[i] += 1;
}

/* dst = src + 1: a launch that reads what another launch wrote, so a missing
   dependency between two streams shows in the result. */
kernel void add_one(global const int *src, global int *dst) {
    size_t i = get_global_id(0);
    dst[i] = src[i] + 1;
}
