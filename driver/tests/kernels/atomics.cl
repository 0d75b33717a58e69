// Global atomics: many work-items update few locations, so any lost update
// shows up as a wrong count.
kernel void histogram(global const uint *values, global volatile uint *bins, uint nbins) {
    uint v = values[get_global_id(0)];
    atomic_inc(&bins[v % nbins]);
}

kernel void atomic_sum_max(global const int *values, global volatile int *sum, global volatile int *max) {
    int v = values[get_global_id(0)];
    atomic_add(sum, v);
    atomic_max(max, v);
}
