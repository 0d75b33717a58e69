// Tree reduction in local memory: each work-group sums its slice of the input
// into partial[group], so the result depends on barriers being honoured and on
// the local buffer (set with a null argument value) having the requested size.
kernel void reduce_sum(global const int *in, global int *partial, local int *scratch) {
    size_t lid = get_local_id(0);
    size_t lsize = get_local_size(0);
    scratch[lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = lsize / 2; stride > 0; stride /= 2) {
        if (lid < stride)
            scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
