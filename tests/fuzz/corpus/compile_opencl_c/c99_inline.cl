inline float axpy(float a, float x, float y) { return a * x + y; }
kernel void k(global float *o, global const float *x, float a) {
    size_t i = get_global_id(0);
    o[i] = axpy(a, x[i], o[i]);
}
