// Depth images (cl_khr_depth_images) through the image builtins: written
// and read as one float per pixel, sampled with a sampler, and the size of
// an array of them.
#pragma OPENCL EXTENSION cl_khr_depth_images : enable

kernel void write_depth(write_only image2d_depth_t image, global const float *values) {
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(image, (int2)(x, y), values[y * get_image_width(image) + x]);
}

kernel void sample_depth(read_only image2d_depth_t image, sampler_t s, global const float2 *at,
                         global float *out) {
    int i = get_global_id(0);
    out[i] = read_imagef(image, s, at[i]);
}

kernel void read_depth_array(read_only image2d_array_depth_t image, global float *out,
                             global int *size) {
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    int w = get_image_width(image), h = get_image_height(image);
    out[(z * h + y) * w + x] = read_imagef(image, (int4)(x, y, z, 0));
    if (x == 0 && y == 0 && z == 0) {
        size[0] = w;
        size[1] = h;
        size[2] = (int)get_image_array_size(image);
    }
}
