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

// Stores value into d[i] after `spins` (at least 1) rounds of dependent
// float arithmetic, which no optimiser folds: slow enough that work queued on
// another stream without a dependency on it runs first. (x stays positive:
// the sentinel branch only keeps the loop. A do-while, because translator 15
// orders a for loop's exit block before a body whose value it uses.)
kernel void slow_store(global int *d, int value, int spins) {
    float x = 0.5f;
    int s = spins;
    do
        x = x * 0.999999f + 0.25f;
    while (--s > 0);
    d[get_global_id(0)] = x < 0.0f ? -2 : value;
}
