// A module with a kernel on an image and a kernel on buffers: on the CUDA
// backend, which has no images, the first is left out and the second runs.

kernel void image_width(read_only image2d_t image, global int *out) {
    out[0] = get_image_width(image);
}

kernel void add_one(global int *data) {
    data[get_global_id(0)] += 1;
}
