// Work-items tested against bounds of their work-group computed before a
// loop, as in Rodinia's pathfinder (condition_registers.hpp).

// A loop of barriers: each trip updates the work-items inside both the
// bounds and the trip's own range, which shrinks by one at each end. The
// bounds are compared once, before the loop; in it, only the trip's range
// and the loop's exit are tested.
kernel void bounded_steps(global int *out, global const int *in, int lo, int hi, int steps,
                          local int *row) {
    const int tx = get_local_id(0), n = get_local_size(0);
    const bool inside = tx >= lo && tx <= hi;
    row[tx] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < steps; ++i) {
        int next = row[tx];
        if (tx >= i + 1 && tx <= n - i - 2 && inside)
            next = min(row[tx - 1], next) + 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        row[tx] = next;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = row[tx];
}
