// Kernels of the SYCL flavour's gpu* tests (with tests/gpu_runtime's).

// Each work-item writes its coordinates: the launch's x, y, z must reach
// get_global_id(0), (1), (2).
kernel void coords(global int *out) {
    size_t x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    size_t at = (z * get_global_size(1) + y) * get_global_size(0) + x;
    out[at] = (int)(x + 100 * y + 10000 * z);
}

typedef struct {
    int a;
    long b;
    char c;
} mixed;

// By-value arguments of several sizes, a structure among them.
kernel void values(global long *out, char c, short s, int i, long l, float f, mixed m) {
    out[0] = c;
    out[1] = s;
    out[2] = i;
    out[3] = l;
    out[4] = (long)(f * 4.0f);
    out[5] = m.a;
    out[6] = m.b;
    out[7] = m.c;
}
