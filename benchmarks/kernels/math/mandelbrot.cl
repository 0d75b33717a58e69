// Iterations of z = z^2 + c until |z| > 2 (at most `limit`) for each pixel
// of a width x height view of the plane.
kernel void mandelbrot(global uint *iterations, uint width, uint height, float x0, float y0,
                       float scale, uint limit) {
    size_t px = get_global_id(0), py = get_global_id(1);
    float cr = x0 + scale * (float)px, ci = y0 + scale * (float)py;
    float zr = 0.0f, zi = 0.0f;
    uint k = 0;
    while (k < limit && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++k;
    }
    iterations[py * width + px] = k;
}
