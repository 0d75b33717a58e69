// A chain of transcendental functions on each element: what activation
// functions and physics kernels spend their time in.
kernel void transcendental(global const float *x, global float *y) {
    size_t i = get_global_id(0);
    float v = x[i];
    float r = sin(v) * cos(0.5f * v) + exp(-v * v) + log1p(v * v) + pow(fabs(v) + 1.0f, 1.5f) +
              tanh(v) + atan2(v, 1.0f + v * v) + erf(0.3f * v);
    y[i] = r;
}
