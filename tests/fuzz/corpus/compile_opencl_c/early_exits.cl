__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  int r = -1;
  for (int j = 0; j < n; ++j) {
    int v = in[i * n + j];
    if (v == 0) { r = j; break; }
    if (v < 0) { r = -2 - j; break; }
    for (int q = 0; q < v && q < 8; ++q)
      if (in[(i * n + q) % n] == 7) goto done;
  }
done:
  out[i] = r;
}
