// Loops the translation unrolls and loops it leaves alone (unroll_hints.hpp).

// Counts to a bound known when it starts: unrolled four times, with a
// remainder loop.
kernel void counted(global float *out, global const float *in, int n) {
    float sum = 0.0f;
    for (int j = 0; j < n; ++j)
        sum = sum * 0.75f + in[j];
    out[get_global_id(0)] = sum;
}

// The same, flooring as it goes: floor's call is convergent in the SPIR-V
// (OpenCL C marks every call so) and stays marked where it becomes
// llvm.floor, which holds no barrier: unrolled as `counted` is.
kernel void counted_floor(global float *out, global const float *in, int n) {
    float sum = 0.0f;
    for (int j = 0; j < n; ++j)
        sum = floor(sum * 0.875f + in[j]);
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

// Constant trip counts (each loop over clang's -O2 limit for unrolling
// whole, so that it reaches the translation as a loop): 64 iterations are
// unrolled eight times (64 is a multiple of eight: no remainder), as NVIDIA's
// OpenCL unrolls them; 16 iterations are left to LLVM. (Each loop behind a
// test, so that its result reaches the store through a phi: translator 15
// orders a loop's exit block before its body and would use the body's value
// before its definition.)
kernel void constant_trips_64(global float *out, float c) {
    float x = out[get_global_id(0)];
    if (c != 0.0f) {
        for (int i = 0; i < 64; ++i) {
            x = x * x + 0.625f;
            x = x * x + c;
            x = x * x + c;
            x = x * x + c;
        }
    }
    out[get_global_id(0)] = x;
}

// Four multiply-adds, one of them by 0.375 (what the test counts).
#define FOUR_STEPS                                                                                 \
    x = x * 0.375f + c;                                                                            \
    x = x * x + c;                                                                                 \
    x = x * x + c;                                                                                 \
    x = x * x + c;

kernel void constant_trips_16(global float *out, float c) {
    float x = out[get_global_id(0)];
    if (c != 0.0f) {
        for (int i = 0; i < 16; ++i) {
            FOUR_STEPS FOUR_STEPS FOUR_STEPS FOUR_STEPS FOUR_STEPS
        }
    }
    out[get_global_id(0)] = x;
}

// Eight chains of 64 dependent multiply-adds, each in a loop of its own (as
// mixbench's): LLVM unrolls such loops whole (64 iterations of one
// instruction are within its limit), and the translation leaves them to it,
// so that the GPU interleaves the chains in one block, rather than
// unrolling each eight times, where each chain runs alone in its loop.
kernel void dependent_chains_64(global float *data, float seed) {
    const size_t id = get_global_id(0);
    float t[8];
#pragma unroll
    for (int j = 0; j < 8; ++j) {
        t[j] = data[id + j * get_global_size(0)];
        for (int i = 0; i < 64; ++i)
            t[j] = t[j] * t[j] + seed;
    }
    float sum = 0.0f;
#pragma unroll
    for (int j = 0; j < 8; j += 2)
        sum += t[j] * t[j + 1];
    data[id] = sum;
}

// Counts to a bound known when it starts, with a body over the four-times
// limit (60 instructions) and within twice it: unrolled twice, as NVIDIA's
// OpenCL unrolls GEGL's motion blur (two copies of 0.8125's multiply and
// the remainder's).
#define TWO_STEPS(i)                                                                               \
    s0 = floor(s0 * x + c) - s1 * (float)(j + i);                                                  \
    s1 = fabs(s1 * x - s0) + (float)(j ^ i);

kernel void counted_large(global float *out, global const float *in, int n, float c) {
    float s0 = out[0], s1 = out[1];
    if (c != 0.0f) { // the results through a phi, as constant_trips_64's
        for (int j = 0; j < n; ++j) {
            float x = in[j] * 0.8125f;
            TWO_STEPS(1)
            TWO_STEPS(2)
            TWO_STEPS(3)
            TWO_STEPS(4)
            TWO_STEPS(5)
            TWO_STEPS(6)
        }
    }
    out[0] = s0;
    out[1] = s1;
}

// Short searches through memory: a counted exit and an exit on the value
// loaded, unrolled four times, each copy with its load and test. Walking
// back while the keys equal the work-item's own (Parboil's splitRearrange):
// the count, 4 * id, is a multiple of four, so three of the copies drop the
// counted exit.
kernel void search_back(global uint *out, global const uint *keys) {
    const int id = (int)get_global_id(0);
    const uint mine = keys[4 * id];
    int i = 4 * id - 1;
    uint n = 0;
    while (i >= 0 && keys[i] == mine) {
        ++n;
        --i;
    }
    out[id] = n;
}

// The first entry of a sorted table at or over the work-item's value
// (Rodinia's particle filter), -1 if none: any count, every copy keeps both
// exits.
kernel void search_forward(global int *out, global const float *table,
                           global const float *values, int n) {
    const size_t id = get_global_id(0);
    const float value = values[id];
    int found = -1;
    for (int x = 0; x < n; ++x)
        if (table[x] >= value) {
            found = x;
            break;
        }
    out[id] = found;
}
