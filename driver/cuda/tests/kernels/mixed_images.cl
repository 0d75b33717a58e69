// A module with a kernel reading a mipmapped image, which the CUDA backend's
// image builtins do not cover, and kernels on a 2D image and on buffers: the
// first is left out, the others run.
#pragma OPENCL EXTENSION cl_khr_mipmap_image : enable

kernel void mipmapped_read(read_only image2d_t image, sampler_t s, global float4 *out) {
    out[0] = read_imagef(image, s, (float2)(0.5f, 0.5f), 1.0f);
}

kernel void image_width(read_only image2d_t image, global int *out) {
    out[0] = get_image_width(image) + 1000 * get_image_height(image);
}

kernel void add_one(global int *data) {
    data[get_global_id(0)] += 1;
}
