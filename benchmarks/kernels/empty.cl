// Launch-cost kernels: they do nothing, so a launch measures the host path.
kernel void empty(void) {}

kernel void empty4(global int *a, global int *b, global int *c, global int *d) {}
