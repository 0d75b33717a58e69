// Kernels for program_builder_test: one per argument kind the builder must
// recognise, each simple enough to check against a host reference.

typedef struct {
    float scale;
    int offset;
    long bias; // 8-byte member: the struct is 16 bytes with padding
} Params;

kernel void vector_add(global const float *a, global const float *b, global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

kernel void scale_offset(global const float *in, global float *out, Params p) {
    size_t i = get_global_id(0);
    out[i] = in[i] * p.scale + (float)p.offset + (float)p.bias;
}

// One partial sum per work-group, through local memory and barriers.
kernel __attribute__((reqd_work_group_size(16, 1, 1))) void
group_sum(global const int *in, local int *scratch, global int *out) {
    size_t lid = get_local_id(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
        if (lid < stride)
            scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(0)] = scratch[0];
}

kernel void lookup(constant int *table, global int *out, uint n, char step, float4 weights,
                   ulong base) {
    size_t i = get_global_id(0);
    out[i] = table[(i * step) % n] + (int)(weights.x + weights.w) + (int)base;
}
