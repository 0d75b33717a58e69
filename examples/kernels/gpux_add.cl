// The kernel of the GPUX example: element-wise addition of two vectors.
kernel void add(global const float *a, global const float *b, global float *c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
