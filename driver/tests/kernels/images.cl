// Kernels of the image tests (image_test.cpp).

// dst(x, y) = 2 * src(x + dx, y), read through the sampler `s`.
__kernel void scale_sampled(read_only image2d_t src, sampler_t s, write_only image2d_t dst,
                            int dx) {
    int x = get_global_id(0), y = get_global_id(1);
    float4 v = read_imagef(src, s, (int2)(x + dx, y));
    write_imagef(dst, (int2)(x, y), v * 2.0f);
}

// One filtered read at float coordinates.
__kernel void sample_at(read_only image2d_t src, sampler_t s, __global float4 *out, float2 at) {
    out[0] = read_imagef(src, s, at);
}

// Each pixel gets its coordinates and a checksum of them.
__kernel void write_coords_3d(write_only image3d_t dst) {
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    write_imagei(dst, p, (int4)(p.x, p.y, p.z, p.x + 10 * p.y + 100 * p.z));
}

__kernel void write_coords_2d_array(write_only image2d_array_t dst) {
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    write_imagei(dst, p, (int4)(p.x, p.y, p.z, p.x + 10 * p.y + 100 * p.z));
}

// What the kernel sees of an image array's size.
__kernel void array_size(read_only image2d_array_t image, __global int *out) {
    out[0] = get_image_width(image);
    out[1] = get_image_height(image);
    out[2] = (int)get_image_array_size(image);
}

// dst = src + (1, 2, 3, 300), unsigned (saturated by the write).
__kernel void add_unsigned(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imageui(dst, p, read_imageui(src, p) + (uint4)(1, 2, 3, 300));
}

// dst = 2 * src, in floats.
__kernel void double_pixels(read_only image2d_t src, write_only image2d_t dst) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    write_imagef(dst, p, 2.0f * read_imagef(src, p));
}
