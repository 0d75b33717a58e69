// A stencil indexed as Parboil's is (index_offsets.hpp): in[x - 1] and
// in[x + 1] are read at constant offsets from one address, x = AT(i, j, k),
// not each computed anew.
#define AT(i, j, k) ((i) + nx * ((j) + ny * (k)))

// One work-item per (i, j) column of an nx x ny x nz grid, walking k; `in`
// points past a margin of one plane, row and element on every side, so that
// every neighbour read is inside the buffer.
kernel void column_stencil(global float *out, global const float *in, int nx, int ny, int nz) {
    const int i = get_global_id(0), j = get_global_id(1);
    float below = in[AT(i, j, 0)], here = in[AT(i, j, 1)];
    for (int k = 1; k < nz - 1; ++k) {
        const float above = in[AT(i, j, k + 1)];
        out[AT(i, j, k)] = 0.5f * (above + below + in[AT(i, j + 1, k)] + in[AT(i, j - 1, k)] +
                                   in[AT(i + 1, j, k)] + in[AT(i - 1, j, k)]) -
                           here * 0.25f;
        below = here;
        here = above;
    }
}
