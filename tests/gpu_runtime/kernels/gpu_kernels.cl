// Kernels for the gpu* wrapper tests.
kernel void add(global const float *a, global const float *b, global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

kernel void increment(global int *data) {
    data[get_global_id(0)] += 1;
}

// Sums each group's values through local memory (the last argument, as the
// lowered code's dynamic shared memory) into one element per group.
kernel void group_sum(global const int *in, global int *out, local int *scratch) {
    size_t l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
        if (l < s)
            scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}
