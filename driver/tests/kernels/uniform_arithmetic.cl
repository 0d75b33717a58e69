// cl_khr_work_group_uniform_arithmetic: what SPV_KHR_uniform_group_instructions
// (OpGroupIMulKHR, OpGroupBitwiseAndKHR, OpGroupLogicalXorKHR, ...) become
// when the translator reads them. Clang 15's header does not declare them.
// One collective per kernel: each costs PoCL's work-group code generation a
// few barriers, and a kernel of all ten took it about 40 s to compile.
#define UNIFORM(name)                                                          \
    int __attribute__((overloadable)) name(int);                               \
    kernel void name##_kernel(global const int *in, global int *out) {         \
        size_t i = get_global_id(0);                                           \
        out[i] = name(in[i]);                                                  \
    }
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
