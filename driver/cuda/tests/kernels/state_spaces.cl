// Loops that read one state space and update one element of another
// (state_space_aa.hpp): the element stays in a register through the loop
// and is stored once after it, PTX's global and shared memory being apart.
// Groups of 64 work-items; the local memory is an argument (LLVM tells a
// kernel's own local arrays apart from global memory already).

// Each group's sum of its part of `in`, taken over the grid as reductions
// do: partial[lid] is added to on every trip of the first loop.
kernel void grid_stride_sums(global const float *in, global float *sums, local float *partial,
                             uint n) {
    const uint lid = get_local_id(0), size = get_local_size(0);
    uint i = get_group_id(0) * size * 2 + lid;
    const uint stride = size * 2 * get_num_groups(0);
    partial[lid] = 0.0f;
    while (i < n) {
        partial[lid] += in[i] + in[i + size];
        i += stride;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = size / 2; s > 0; s >>= 1) {
        if (lid < s)
            partial[lid] += partial[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        sums[get_group_id(0)] = partial[0];
}

// out[i] added to on every trip from a tile of `in` in local memory.
kernel void tile_weighted(global const float *in, global float *out, local float *tile,
                          uint trips) {
    const uint lid = get_local_id(0);
    const size_t i = get_global_id(0);
    tile[lid] = in[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[i] = 0.0f;
    for (uint k = 0; k < trips; ++k)
        out[i] += tile[(lid + k) & 63u] * (float)(k + 1);
}
