/* Compiles OpenCL C at runtime and runs it through the installed library. */
#include <imex_l0_interop.h>
#include <stdio.h>

int main(void) {
    imex_l0_engine_t engine;
    imex_l0_stream_t stream;
    imex_l0_memory_t memory;
    imex_l0_kernel_t kernel;
    if (imex_l0_engine_create(&engine, 0) != imex_l0_success ||
        imex_l0_stream_create(&stream, engine) != imex_l0_success ||
        imex_l0_interop_memory_create(&memory, engine, imex_l0_memory_kind_shared,
                                      16 * sizeof(int), IMEX_L0_MEMORY_ALLOCATE) != imex_l0_success ||
        imex_l0_kernel_create_from_source(
            &kernel, engine, "kernel void square(global int *d) { int i = get_global_id(0); d[i] = i * i; }",
            "square", NULL, 0, NULL) != imex_l0_success) {
        fprintf(stderr, "setup failed: %s\n", imex_l0_last_error_message());
        return 1;
    }
    imex_l0_exec_arg_t arg = {imex_l0_arg_memory, memory, NULL, 0};
    imex_l0_range_t range = {{16, 1, 1}, {0, 0, 0}};
    int *data;
    if (imex_l0_interop_kernel_execute(kernel, stream, 1, &arg, &range, 0, NULL, NULL) != imex_l0_success ||
        imex_l0_stream_wait(stream) != imex_l0_success ||
        imex_l0_interop_memory_get_mem_object(memory, 0, (void **)&data) != imex_l0_success) {
        fprintf(stderr, "run failed: %s\n", imex_l0_last_error_message());
        return 1;
    }
    int errors = 0;
    for (int i = 0; i < 16; ++i)
        errors += data[i] != i * i;
    imex_l0_kernel_destroy(kernel);
    imex_l0_memory_destroy(memory);
    imex_l0_stream_destroy(stream);
    imex_l0_engine_destroy(engine);
    printf("%s\n", errors ? "FAIL" : "PASS");
    return errors != 0;
}
