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

// USM pointers the kernel finds in memory, not in its arguments (indirect
// access): a table of pointers, and a struct by value that holds one (as an
// integer: OpenCL C kernel structs cannot hold pointers; lowered SYCL and
// MLIR code passes them this way).
typedef struct {
    ulong data;
    int scale;
} view_t;

kernel void gather_indirect(global int *out, global int *const global *tables, uint ntables,
                            view_t view) {
    size_t i = get_global_id(0);
    int sum = 0;
    for (uint t = 0; t < ntables; ++t)
        sum += tables[t][i];
    out[i] = sum + view.scale * ((global const int *)view.data)[i];
}
