// Pixels of packed layouts (10_10_10_2, 11_11_10, 5_6_5, 5_5_5_1, 4_4_4_4)
// through the image builtins: read as floats and as integers, written from
// floats and from integers.

kernel void read_pixels(read_only image1d_t image, global float4 *floats, global int4 *ints) {
    int x = get_global_id(0);
    floats[x] = read_imagef(image, x);
    ints[x] = read_imagei(image, x);
}

kernel void write_floats(write_only image1d_t image, global const float4 *values) {
    int x = get_global_id(0);
    write_imagef(image, x, values[x]);
}

kernel void write_ints(write_only image1d_t image, global const int4 *values) {
    int x = get_global_id(0);
    write_imagei(image, x, values[x]);
}
