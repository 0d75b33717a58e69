// Loops updating one address every iteration (loop_versioning.hpp).

// PolyBench's gesummv: each work-item sums its row of a and of b, times x,
// into tmp[i] and y[i], then y[i] = alpha * tmp[i] + beta * y[i]. With tmp
// and y the same buffer, both sums go to one word, in the order written.
kernel void row_sums(global const float *a, global const float *b, global const float *x,
                     global float *y, global float *tmp, float alpha, float beta, int n) {
    const int i = get_global_id(0);
    for (int j = 0; j < n; j++) {
        tmp[i] += a[i * n + j] * x[j];
        y[i] += b[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
}

// The store is taken only when a value matches (SHOC's MD5 search records
// what it found so): no store every iteration, nothing to keep in a
// register, so the loop keeps one version.
kernel void last_match(global const int *values, global int *found, int n, int wanted) {
    const int i = get_global_id(0);
    for (int j = 0; j < n; j++)
        if (values[i * n + j] == wanted)
            *found = i * n + j;
}
