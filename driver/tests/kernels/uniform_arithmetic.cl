// cl_khr_work_group_uniform_arithmetic: what SPV_KHR_uniform_group_instructions
// (OpGroupIMulKHR, OpGroupBitwiseAndKHR, OpGroupLogicalXorKHR, ...) become
// when the translator reads them. Clang 15's header does not declare them.
#define UNIFORM(name) int __attribute__((overloadable)) name(int);
UNIFORM(work_group_reduce_mul)
UNIFORM(work_group_reduce_bitwise_and)
UNIFORM(work_group_reduce_bitwise_or)
UNIFORM(work_group_reduce_bitwise_xor)
UNIFORM(work_group_reduce_logical_and)
UNIFORM(work_group_reduce_logical_or)
UNIFORM(work_group_reduce_logical_xor)
UNIFORM(work_group_scan_inclusive_mul)
UNIFORM(work_group_scan_exclusive_bitwise_xor)
UNIFORM(work_group_scan_inclusive_logical_or)

// Each work-item writes result r of its value at out[r * n + i].
kernel void uniform_arithmetic(global const int *in, global int *out, uint n) {
    size_t i = get_global_id(0);
    int v = in[i];
    out[0 * n + i] = work_group_reduce_mul(v);
    out[1 * n + i] = work_group_reduce_bitwise_and(v);
    out[2 * n + i] = work_group_reduce_bitwise_or(v);
    out[3 * n + i] = work_group_reduce_bitwise_xor(v);
    out[4 * n + i] = work_group_reduce_logical_and(v);
    out[5 * n + i] = work_group_reduce_logical_or(v);
    out[6 * n + i] = work_group_reduce_logical_xor(v);
    out[7 * n + i] = work_group_scan_inclusive_mul(v);
    out[8 * n + i] = work_group_scan_exclusive_bitwise_xor(v);
    out[9 * n + i] = work_group_scan_inclusive_logical_or(v);
}
