// Builtins the CUDA backend defines itself, libclc-15's NVPTX library lacking
// them or defining them unlike other implementations
// (driver/cuda/missing_builtins.cpp): printf, the atomics on generic
// pointers, mul24 and mad24.

kernel void print_and_double(global int *out) {
    size_t i = get_global_id(0);
    if (i == 0)
        printf("print_and_double: %d work-items, %.1f, %s\n", (int)get_global_size(0), 2.5f,
               "done");
    out[i] = (int)i * 2;
}

// OpenCL C headers declare these atomics for global and local pointers only;
// code for generic ones (as the conformance suite's) declares them itself.
int __attribute__((overloadable)) atomic_add(volatile generic int *p, int v);
uint __attribute__((overloadable)) atomic_max(volatile generic uint *p, uint v);
uint __attribute__((overloadable)) atomic_inc(volatile generic uint *p);
int __attribute__((overloadable)) atomic_cmpxchg(volatile generic int *p, int cmp, int v);

// Through generic pointers: every work-item adds its id, raises the maximum,
// counts itself, and tries to move the flag from 0 to 7 (one succeeds).
kernel void generic_atomics(global int *sum, global uint *max, global uint *count,
                            global int *flag, global int *winners) {
    int i = (int)get_global_id(0);
    volatile int *s = sum;
    volatile uint *m = max;
    volatile uint *c = count;
    volatile int *f = flag;
    volatile int *w = winners;
    atomic_add(s, i);
    atomic_max(m, (uint)i);
    atomic_inc(c);
    if (atomic_cmpxchg(f, 0, 7) == 0)
        atomic_add(w, 1);
}

// clamp on integers as min(max(x, lo), hi) (missing_builtins.hpp): signed,
// unsigned, and a vector with scalar bounds.
kernel void clamp_integers(global const int *a, global int *out, global uint *uout,
                           global short4 *vout, int lo, int hi, uint ulo, uint uhi) {
    size_t i = get_global_id(0);
    int x = a[i];
    out[i] = clamp(x, lo, hi);
    uout[i] = clamp((uint)x, ulo, uhi);
    vout[i] = clamp((short4)((short)x, (short)-x, (short)(x >> 4), (short)(x * 3)), (short)lo,
                    (short)hi);
}

// mul24 and mad24 with operands beyond 24 bits: the full product, as PoCL
// and NVIDIA's OpenCL compute it (OpenCL leaves it undefined).
kernel void mul24_full(global const int *a, global const uint *b, global int *out,
                       global uint *uout) {
    size_t i = get_global_id(0);
    out[2 * i] = mul24(a[i], a[i] + 3);
    out[2 * i + 1] = mad24(a[i], 7, 11);
    uout[2 * i] = mul24(b[i], b[i] + 3u);
    uout[2 * i + 1] = mad24(b[i], 7u, 11u);
}
