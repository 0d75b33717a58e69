// The STREAM triad of benchmarks/kernels/triad.cl in CUDA C: the baseline
// the CUDA backend's PTX is measured against (scripts/gpu_check.sh).
extern "C" __global__ void triad(double *a, const double *b, const double *c, double s) {
    size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
    a[i] = b[i] + s * c[i];
}
