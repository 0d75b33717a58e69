// Loops the translation unrolls and loops it leaves alone (unroll_hints.hpp).

// Counts to a bound known when it starts: unrolled four times, with a
// remainder loop.
kernel void counted(global float *out, global const float *in, int n) {
    float sum = 0.0f;
    for (int j = 0; j < n; ++j)
        sum = sum * 0.75f + in[j];
    out[get_global_id(0)] = sum;
}

// Leaves on a condition of its data: every copy would keep its test.
kernel void data_exit(global uint *out, float c, uint limit) {
    float z = 0.0f;
    uint k = 0;
    while (k < limit && z <= 4.0f) {
        z = z * z + c;
        ++k;
    }
    out[get_global_id(0)] = k;
}
