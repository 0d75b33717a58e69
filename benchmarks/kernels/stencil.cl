// A module of typical size for the module-creation benchmark: a 2D 5-point
// stencil over a tile staged in local memory, with a halo, a helper function
// and a per-group reduction of the residual.
#define TILE 16

float clampRead(global const float *in, int x, int y, int width, int height) {
    x = clamp(x, 0, width - 1);
    y = clamp(y, 0, height - 1);
    return in[y * width + x];
}

kernel void stencil(global const float *in, global float *out, global float *residual,
                    int width, int height, float alpha) {
    local float tile[TILE + 2][TILE + 2];
    local float partial[TILE * TILE];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gx = get_global_id(0), gy = get_global_id(1);

    tile[ly + 1][lx + 1] = clampRead(in, gx, gy, width, height);
    if (lx == 0)
        tile[ly + 1][0] = clampRead(in, gx - 1, gy, width, height);
    if (lx == TILE - 1)
        tile[ly + 1][TILE + 1] = clampRead(in, gx + 1, gy, width, height);
    if (ly == 0)
        tile[0][lx + 1] = clampRead(in, gx, gy - 1, width, height);
    if (ly == TILE - 1)
        tile[TILE + 1][lx + 1] = clampRead(in, gx, gy + 1, width, height);
    barrier(CLK_LOCAL_MEM_FENCE);

    float centre = tile[ly + 1][lx + 1];
    float laplace = tile[ly][lx + 1] + tile[ly + 2][lx + 1] + tile[ly + 1][lx] +
                    tile[ly + 1][lx + 2] - 4.0f * centre;
    float next = centre + alpha * laplace;
    if (gx < width && gy < height)
        out[gy * width + gx] = next;

    int l = ly * TILE + lx;
    partial[l] = fabs(next - centre);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = TILE * TILE / 2; stride > 0; stride /= 2) {
        if (l < stride)
            partial[l] = fmax(partial[l], partial[l + stride]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        residual[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = partial[0];
}
