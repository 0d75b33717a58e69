__kernel void k(__global const int *in, __global int *out, int n) {
  int i = get_global_id(0);
  int acc = 0;
  for (int j = 0; j < n; ++j) {
    int v = in[i * n + j];
    if (v < 0) break;
    switch (v & 3) {
    case 0: acc += v; break;
    case 1: acc -= v; continue;
    case 2: acc *= 3; break;
    default: if (acc > 1000) goto end; acc ^= v;
    }
    if (acc == 77) return;
  }
end:
  out[i] = acc;
}
