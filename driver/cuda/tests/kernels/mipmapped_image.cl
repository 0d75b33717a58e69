// A module whose only kernel reads a mipmapped image (a level of detail),
// which the CUDA backend's image builtins do not cover: refused, the builtin
// named.
#pragma OPENCL EXTENSION cl_khr_mipmap_image : enable

kernel void mipmapped_read(read_only image2d_t image, sampler_t s, global float4 *out) {
    out[0] = read_imagef(image, s, (float2)(0.5f, 0.5f), 1.0f);
}
