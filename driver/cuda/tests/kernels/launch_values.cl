// The work-item builtins that read the launch values (launch_values.hpp:
// the global offset, a launch in parts, the launch's group counts), in the
// kernel itself after a barrier and in a function it calls without
// inlining it.

// The group id and count of dimension `d`, from a function that stays a
// call: it reads the values its kernel's entry stored.
__attribute__((noinline)) uint2 groups_of(uint d) {
    return (uint2)(get_group_id(d), get_num_groups(d));
}

// Per work-item, at its linear global index: its group ids and counts in
// dimensions 1 and 2 from the kernel itself, after a barrier, and from
// groups_of, its global id and the global size of dimension 1.
kernel void record_groups(global uint8 *out, local uint *scratch) {
    const size_t lid = get_local_linear_id();
    scratch[lid] = (uint)lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    const size_t x = get_global_id(0) - get_global_offset(0);
    const size_t y = get_global_id(1) - get_global_offset(1);
    const size_t z = get_global_id(2) - get_global_offset(2);
    const size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;
    out[i] = (uint8)(get_group_id(1), get_num_groups(1), get_group_id(2), get_num_groups(2),
                     groups_of(1).x, groups_of(2).y, (uint)get_global_id(1),
                     (uint)get_global_size(1) + scratch[lid] - (uint)lid);
}

// Every work-item's global ids, read after a barrier.
kernel void ids_after_barrier(global ulong4 *out, local uint *scratch) {
    scratch[get_local_id(0)] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_linear_id()] =
        (ulong4)(get_global_id(0), get_global_id(1), get_global_id(2), scratch[0]);
}
