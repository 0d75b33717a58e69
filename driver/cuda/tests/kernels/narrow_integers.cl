// Arithmetic on shorts and chars, which the translation computes in 32-bit
// registers (wide_integers.hpp): chains of multiply-adds as clpeak writes
// them, then the chain's values where their narrow range matters (a right
// shift, a division, a comparison, a conversion to int), so that a wrong
// truncation shows in the results.

#define STEP(x, c) x = x * x + c; x = (x ^ (x << 3)) - c;
#define STEP_4(x, c) STEP(x, c) STEP(x, c) STEP(x, c) STEP(x, c)
#define STEP_16(x, c) STEP_4(x, c) STEP_4(x, c) STEP_4(x, c) STEP_4(x, c)

// Four results per element: the value, its arithmetic right shift, its
// quotient by 7, and the comparison with 100 (-1 or 0) added to it (for
// uchars, 255 or 0).
kernel void short8_chain(global short8 *out, global const short8 *in, short c) {
    size_t i = get_global_id(0);
    short8 x = in[i];
    STEP_16(x, c)
    out[4 * i] = x;
    out[4 * i + 1] = x >> 3;
    out[4 * i + 2] = x / (short8)7;
    out[4 * i + 3] = x + (x > (short8)100);
}

// The same on unsigned chars: a logical right shift, a quotient by 3.
kernel void uchar16_chain(global uchar16 *out, global const uchar16 *in, uchar c) {
    size_t i = get_global_id(0);
    uchar16 x = in[i];
    STEP_16(x, c)
    out[4 * i] = x;
    out[4 * i + 1] = x >> 1;
    out[4 * i + 2] = x / (uchar16)3;
    out[4 * i + 3] = x + as_uchar16(x > (uchar16)200);
}

// Scalar chars, which OpenCL C computes as ints and clang narrows again:
// the wrapped value sign-extended to int.
kernel void char_to_int(global int *out, global const char *in, char c) {
    size_t i = get_global_id(0);
    char x = in[i];
    STEP_16(x, c)
    out[i] = x;
}
