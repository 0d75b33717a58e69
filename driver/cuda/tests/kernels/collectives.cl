// OpenCL C 2.0's work-group functions on every type they take, which the
// CUDA backend defines itself (libclc-15 lacks them): each work-item
// writes result r of its value at out[r * n + i].
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define COLLECTIVES(T)                                                                            \
    kernel void group_##T(global const T *in, global T *out, uint n) {                           \
        size_t i = get_global_id(0);                                                             \
        T v = in[i];                                                                             \
        out[0 * n + i] = work_group_reduce_add(v);                                               \
        out[1 * n + i] = work_group_reduce_min(v);                                               \
        out[2 * n + i] = work_group_reduce_max(v);                                               \
        out[3 * n + i] = work_group_scan_inclusive_add(v);                                       \
        out[4 * n + i] = work_group_scan_exclusive_add(v);                                       \
        out[5 * n + i] = work_group_scan_inclusive_min(v);                                       \
        out[6 * n + i] = work_group_scan_exclusive_max(v);                                       \
        out[7 * n + i] = work_group_broadcast(v, (size_t)3);                                     \
    }

COLLECTIVES(int)
COLLECTIVES(uint)
COLLECTIVES(long)
COLLECTIVES(ulong)
COLLECTIVES(float)
COLLECTIVES(double)

// work_group_any / work_group_all of "my value is above the threshold", and
// a broadcast from the work-item at (1, 2) of a 2D group.
kernel void group_votes(global const int *in, global int *any, global int *all, int threshold,
                        global int *broadcast2d) {
    size_t i = get_global_linear_id();
    any[i] = work_group_any(in[i] > threshold);
    all[i] = work_group_all(in[i] > threshold);
    broadcast2d[i] = work_group_broadcast(in[i], (size_t)1, (size_t)2);
}
