// A module whose only kernel reads a depth image, which the CUDA backend's
// image builtins do not cover: refused, the builtin named.

kernel void depth_read(read_only image2d_depth_t image, sampler_t s, global float *out) {
    out[0] = read_imagef(image, s, (float2)(0.5f, 0.5f));
}
