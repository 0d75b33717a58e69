// A division, an exponential and a square root, whose PTX the
// floating-point build options change (driver/cuda/math_options.hpp).
kernel void ratios(global const float *a, global const float *b, global float *out) {
    size_t i = get_global_id(0);
    out[i] = a[i] / b[i] + exp(a[i]) * sqrt(b[i]);
}
