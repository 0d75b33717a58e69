// Elements of vectors read through an index (a gather), as molecular-dynamics
// and n-body steps read positions: the translation loads each vector whole
// (vector_loads.hpp). The values are small integers, so every result is exact.

// x, y and z of float4s (w ignored).
kernel void gather_xyz(global const float4 *position, global const int *neighbour,
                       global float *out) {
    int i = get_global_id(0);
    float4 me = position[i];
    float4 other = position[neighbour[i]];
    float dx = me.x - other.x, dy = me.y - other.y, dz = me.z - other.z;
    out[i] = dx * dx + dy * dy + dz * dz;
}

// x and z of int4s: two elements that are not an aligned pair.
kernel void gather_xz(global const int4 *v, global const int *index, global int *out) {
    int i = get_global_id(0);
    int4 a = v[index[i]];
    out[i] = a.x * 1000 + a.z;
}
