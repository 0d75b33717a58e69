// STREAM triad: a = b + s * c.
kernel void triad(global double *a, global const double *b, global const double *c, double s) {
    size_t i = get_global_id(0);
    a[i] = b[i] + s * c[i];
}
