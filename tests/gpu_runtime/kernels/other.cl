// A second module, for the content-keyed module cache test.
kernel void twice(global int *data) {
    data[get_global_id(0)] *= 2;
}
