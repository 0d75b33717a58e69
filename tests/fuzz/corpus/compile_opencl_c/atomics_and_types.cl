#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef struct { char c; short s; long l; double d; uchar4 v; } mixed;
__kernel void histogram(__global const uchar *data, __global volatile int *bins, ulong n,
                        __global mixed *m) {
  for (size_t i = get_global_id(0); i < n; i += get_global_size(0))
    atomic_inc(&bins[data[i]]);
  if (get_global_id(0) == 0) {
    m->l = (long)m->s * m->c;
    m->d = sqrt((double)m->l) + convert_double(m->v.x);
    m->v = rotate(m->v, (uchar4)(1, 2, 3, 4));
  }
}
