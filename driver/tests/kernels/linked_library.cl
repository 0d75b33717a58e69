// The library half of a program of two modules (ze_module_program_exp_desc_t):
// no kernels, a function and a program-scope variable the other module
// (linked_kernels.cl) imports. Both are exported by SPIR-V linkage.
global int bias = 7;

int scaled(int x) {
    return 3 * x + bias;
}
