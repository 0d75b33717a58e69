// Kernels of the basic test module: element-wise arithmetic whose result is
// easy to compute on the host and whose order of application is observable
// (so tests can check that dependencies really serialise work).

kernel void vector_add(global const int *a, global const int *b, global int *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

// out[i] = in[i] * factor + bias: two by-value scalars, used to check that
// arguments are captured when a launch is appended.
kernel void scale_add(global int *out, global const int *in, int factor, int bias) {
    size_t i = get_global_id(0);
    out[i] = in[i] * factor + bias;
}

// data[i] = data[i] * mul + add: applying (mul, add) pairs in different orders
// gives different results, which makes ordering bugs visible.
kernel void mul_add_inplace(global int *data, int mul, int add) {
    size_t i = get_global_id(0);
    data[i] = data[i] * mul + add;
}

kernel void increment(global int *data) {
    data[get_global_id(0)] += 1;
}

// Records, for every work-item, its global id (which includes the global
// offset) and its group id, so a test can check a 3D launch exactly.
kernel void record_ids(global uint4 *ids, global uint4 *groups, uint width, uint height) {
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t linear = (z * height + y) * width + x;
    ids[linear] = (uint4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    groups[linear] = (uint4)(get_group_id(0), get_group_id(1), get_group_id(2),
                             get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2)));
}

kernel __attribute__((reqd_work_group_size(8, 2, 1))) __attribute__((work_group_size_hint(4, 2, 1)))
void fixed_group(global int *out) {
    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = (int)get_local_size(0) * 100 + (int)get_local_size(1);
}

kernel void empty_kernel(void) {}
