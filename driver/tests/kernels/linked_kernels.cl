// The kernel half of a program of two modules (ze_module_program_exp_desc_t):
// it calls a function and reads a variable that linked_library.cl defines
// (SPIR-V Import linkage); on its own it does not build.
int scaled(int x);
extern global int bias;

kernel void apply_scaled(global int *data) {
    size_t i = get_global_id(0);
    data[i] = scaled(data[i]) + bias;
}

kernel void read_bias(global int *out) {
    out[get_global_id(0)] = bias;
}
