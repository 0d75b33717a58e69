__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  int2 a = (int2)(in[2 * i], in[2 * i + 1]);
  int2 b = a * n;
  int2 r = in[i] > 0 ? a : b;
  vstore2(r, i, out);
}
