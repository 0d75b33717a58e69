#define TILE 16
struct pair { int key; float value; };
__kernel void reduce(__global const float *in, __global float *out, __local float *scratch,
                     __constant struct pair *table) {
  size_t l = get_local_id(0);
  scratch[l] = in[get_global_id(0)] * table[l % TILE].value;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = scratch[0];
}
