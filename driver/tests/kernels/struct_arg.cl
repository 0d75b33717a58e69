// A kernel taking a struct by value. The layout mixes 4- and 8-byte members
// and ends with a 1-byte member, so a host/device layout or size mismatch
// (padding, alignment) changes the result.
typedef struct {
    int offset;
    float scale;
    long big;
    char tag;
} params_t;

kernel void apply_params(global long *out, global const int *in, params_t p) {
    size_t i = get_global_id(0);
    out[i] = (long)((float)in[i] * p.scale) + p.offset + p.big + p.tag;
}

// Scalars and a vector of every width by value: each lands in its own output
// slot, so a mis-sized or mis-aligned argument shows up in one slot.
kernel void scalars(global long *out, char c, short s, int i, long l, float f, uchar4 v,
                    double d) {
    out[0] = c;
    out[1] = s;
    out[2] = i;
    out[3] = l;
    out[4] = (long)(f * 4.0f);
    out[5] = v.x + 256 * (v.y + 256 * (v.z + 256 * v.w));
    out[6] = (long)(d * 8.0);
}

// A constant-address-space table (a pointer in address space 2).
kernel void lookup(global int *out, constant int *table, global const uint *index) {
    size_t i = get_global_id(0);
    out[i] = table[index[i]];
}
