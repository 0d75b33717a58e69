__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  out[i] = (i % n) * 100 + i / n;
}
