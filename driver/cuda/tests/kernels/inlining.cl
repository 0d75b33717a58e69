// The program's own functions are inlined into every kernel that calls them
// (inline_program.hpp), however large: `mix_column` is several hundred
// instructions once its multiplications are unrolled, is called from two
// kernels, and reads the caller's private array of coefficients through a
// pointer (which, left a call, puts the array in local memory).

// Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
uchar gf_mul(uchar a, uchar b) {
    uchar p = 0;
    for (int bit = 0; bit < 8; ++bit) {
        if (b & 1)
            p ^= a;
        const bool carry = (a & 0x80) != 0;
        a <<= 1;
        if (carry)
            a ^= 0x1b;
        b >>= 1;
    }
    return p;
}

// Row `row` of the four columns c0..c3 (one column per lane) times a
// circulant matrix of `coeff`.
uchar4 mix_column(uchar4 c0, uchar4 c1, uchar4 c2, uchar4 c3, const uint *coeff, uint row) {
    const uchar k0 = coeff[(4 - row) % 4], k1 = coeff[(5 - row) % 4], k2 = coeff[(6 - row) % 4],
                k3 = coeff[(7 - row) % 4];
    return (uchar4)(gf_mul(c0.x, k0) ^ gf_mul(c0.y, k1) ^ gf_mul(c0.z, k2) ^ gf_mul(c0.w, k3),
                    gf_mul(c1.x, k0) ^ gf_mul(c1.y, k1) ^ gf_mul(c1.z, k2) ^ gf_mul(c1.w, k3),
                    gf_mul(c2.x, k0) ^ gf_mul(c2.y, k1) ^ gf_mul(c2.z, k2) ^ gf_mul(c2.w, k3),
                    gf_mul(c3.x, k0) ^ gf_mul(c3.y, k1) ^ gf_mul(c3.z, k2) ^ gf_mul(c3.w, k3));
}

// `rounds` times, the next row of the four columns replaces the first; the
// kernels write the four columns' sum.
#define ROUNDS(k0, k1, k2, k3)                                                                           \
    const size_t id = get_global_id(0);                                                            \
    uint coeff[4] = {k0, k1, k2, k3};                                                               \
    uchar4 c0 = in[4 * id], c1 = in[4 * id + 1], c2 = in[4 * id + 2], c3 = in[4 * id + 3];         \
    for (uint r = 0; r < rounds; ++r) {                                                            \
        const uchar4 next = mix_column(c0, c1, c2, c3, coeff, r % 4);                              \
        c0 = c1;                                                                                   \
        c1 = c2;                                                                                   \
        c2 = c3;                                                                                   \
        c3 = next;                                                                                 \
    }                                                                                              \
    out[id] = c0 ^ c1 ^ c2 ^ c3;

kernel void mix_forward(global uchar4 *out, global const uchar4 *in, uint rounds) {
    ROUNDS(2, 3, 1, 1)
}

kernel void mix_inverse(global uchar4 *out, global const uchar4 *in, uint rounds) {
    ROUNDS(14, 11, 13, 9)
}
