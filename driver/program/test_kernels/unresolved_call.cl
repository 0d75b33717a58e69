// Valid SPIR-V that the OpenCL build must reject: the kernel calls a function
// that is declared but defined nowhere, so linking fails.
void not_defined_anywhere(global int *p);

kernel void calls_missing(global int *p) {
    not_defined_anywhere(p);
}
