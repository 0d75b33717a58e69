// Kernels of the mgpu* runtime tests (mlir_runtime_test.cpp).

// out[i] = in[i] * a + (b >> 32): 4- and 8-byte scalars after two pointers.
kernel void scaled_add(global int *out, global const int *in, int a, long b) {
    size_t i = get_global_id(0);
    out[i] = in[i] * a + (int)(b >> 32);
}

// Each group sums its values through local memory (dynamic shared memory).
kernel void group_sum(global const int *in, global int *out, local int *scratch) {
    size_t l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        int s = 0;
        for (size_t k = 0; k < get_local_size(0); ++k)
            s += scratch[k];
        out[get_group_id(0)] = s;
    }
}
