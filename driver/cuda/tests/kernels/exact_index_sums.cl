// A window over an image with a margin, indexed as GEGL's bilateral filter
// is (exact_index_sums.hpp): in[(x + r + u) + (y + r + v) * src_width] for
// u, v in -r..r. The inner loop reads its pixels at constant offsets from
// one address that steps, not each from the image's base.
kernel void weighted_window(global int4 *out, global const int4 *in, int radius) {
    const int x = get_global_id(0), y = get_global_id(1);
    const int width = get_global_size(0);
    const int src_width = width + 2 * radius;
    int4 sum = 0;
    for (int v = -radius; v <= radius; ++v)
        for (int u = -radius; u <= radius; ++u) {
            const int i = x + radius + u, j = y + radius + v;
            sum += in[i + j * src_width] * (3 * u + v + 2 * radius + 1);
        }
    out[x + y * width] = sum;
}
