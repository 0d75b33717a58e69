// Loops whose counter enters data rather than addresses (lsr_fences.hpp):
// chains the code generator's loop strength reduction used to rewrite in
// 16-bit registers or with an induction variable per term. Trip counts not
// a multiple of the unrolling's, so that the remainder loop runs too.

// libclc's unsigned mul24/mad24 mask their operands to 24 bits; the masks
// here are narrower still, and the counter is added in.
kernel void masked_mad24(global uint *out, global const uint *in, uint n) {
    size_t i = get_global_id(0);
    uint a = in[i], b = a ^ 0x5bd1e995u;
    for (uint k = 0; k < n; ++k) {
        a = mad24(a & 0x7fffffu, b & 0x7fffu, k);
        b = mul24(b & 0xffffu, a & 0x7ffu) + a;
    }
    out[i] = a ^ b;
}

// Signed: the counter mixed into a chain of products of loop values.
kernel void mixed_chain(global int *out, global const int *in, int n) {
    size_t i = get_global_id(0);
    int a = in[i], b = a ^ 0x2545f491;
    for (int k = 0; k < n; ++k) {
        a = a * b + k;
        b = b * a + a;
    }
    out[i] = a ^ b;
}

// The counter masked and sign-extended from 8 bits, as data.
kernel void masked_counter(global int *out, global const int *in, int n) {
    size_t i = get_global_id(0);
    int x = in[i];
    for (int k = 0; k < n; ++k)
        x = x * 3 + (k & 3) + (((k * 5) << 24) >> 24);
    out[i] = x;
}
