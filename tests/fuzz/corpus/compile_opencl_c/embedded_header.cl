#include "imex_l0/indexing.h"
__kernel void scale(__global float *x, float s, int n) {
  IMEX_L0_FOR_EACH_GLOBAL(i, n) { x[i] *= s; }
}
