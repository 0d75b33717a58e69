// Sub-group builtins, which the CUDA backend puts on warps
// (driver/cuda/warp_sub_groups.cpp): each work-item writes result r at
// out[r * n + i]. Work-groups of a size that is no multiple of 32 end with a
// smaller sub-group.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void sub_group_int(global const int *in, global int *out, uint n) {
    size_t i = get_global_id(0);
    int v = in[i];
    out[0 * n + i] = (int)get_sub_group_size();
    out[1 * n + i] = (int)get_max_sub_group_size();
    out[2 * n + i] = (int)get_num_sub_groups();
    out[3 * n + i] = (int)get_sub_group_id();
    out[4 * n + i] = (int)get_sub_group_local_id();
    out[5 * n + i] = sub_group_reduce_add(v);
    out[6 * n + i] = sub_group_reduce_min(v);
    out[7 * n + i] = sub_group_reduce_max(v);
    out[8 * n + i] = sub_group_scan_inclusive_add(v);
    out[9 * n + i] = sub_group_scan_exclusive_max(v);
    out[10 * n + i] = sub_group_broadcast(v, 1u);
    out[11 * n + i] = sub_group_any(v > 990);
    out[12 * n + i] = sub_group_all(v > -990);
}

// The 64-bit and floating-point forms move two words or a float's bits.
kernel void sub_group_wide(global const long *in, global long *sums, global double *scans,
                           global float *mins) {
    size_t i = get_global_id(0);
    long v = in[i] * 4000000000L;
    sums[i] = sub_group_reduce_add(v);
    scans[i] = sub_group_scan_exclusive_add((double)in[i]);
    mins[i] = sub_group_reduce_min((float)in[i] * 0.5f);
    sub_group_barrier(CLK_GLOBAL_MEM_FENCE);
}

// cl_intel_subgroups: shuffles by index, xor, down and up across two
// values, and block reads of global memory (declared here: clang's builtin
// declarations have them only for Intel's targets).
uint __attribute__((overloadable)) intel_sub_group_shuffle(uint x, uint lane);
uint __attribute__((overloadable)) intel_sub_group_shuffle_xor(uint x, uint mask);
uint __attribute__((overloadable)) intel_sub_group_shuffle_down(uint current, uint next, uint delta);
uint __attribute__((overloadable)) intel_sub_group_shuffle_up(uint previous, uint current, uint delta);
uint __attribute__((overloadable)) intel_sub_group_block_read(const global uint *p);

kernel void intel_shuffles(global const uint *in, global uint *out, uint n) {
    size_t i = get_global_id(0);
    uint v = in[i];
    uint size = get_sub_group_size(), lane = get_sub_group_local_id();
    out[0 * n + i] = intel_sub_group_shuffle(v, (lane + 3) % size);
    out[1 * n + i] = intel_sub_group_shuffle_xor(v, 1u);
    out[2 * n + i] = intel_sub_group_shuffle_down(v, v + 1000u, 5u);
    out[3 * n + i] = intel_sub_group_shuffle_up(v + 2000u, v, 5u);
    const global uint *block =
        in + get_group_id(0) * get_local_size(0) + get_sub_group_id() * get_max_sub_group_size();
    out[4 * n + i] = intel_sub_group_block_read(block);
}
