// A program of helper functions and no kernel, as libraries of functions
// that other programs include or link are written: its SPIR-V has no entry
// point (exported functions, the Linkage capability).
uint mix_bits(uint x) {
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    return x;
}

float unit_float(uint seed) {
    return (float)(mix_bits(seed) & 0xffffffU) / 16777216.0f;
}
