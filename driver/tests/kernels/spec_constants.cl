// Specialization constants: the translator turns calls to
// __spirv_SpecConstant(id, default) into OpSpecConstant with SpecId id.
int __attribute__((overloadable)) __spirv_SpecConstant(int id, int default_value);
long __attribute__((overloadable)) __spirv_SpecConstant(int id, long default_value);
kernel void spec_values(global long *out) {
    out[0] = __spirv_SpecConstant(7, 42);
    out[1] = __spirv_SpecConstant(9, -5L);
}
