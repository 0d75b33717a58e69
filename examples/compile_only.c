/*
 * OpenCL C -> SPIR-V without any device: what a framework's ahead-of-time
 * step or a cache warmer does. Shows a successful build with a define, then a
 * compile error with its log.
 */
#include "imex_l0_interop.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char *kSource = "kernel void fill(global TYPE *out) {\n"
                             "    out[get_global_id(0)] = (TYPE)VALUE;\n"
                             "}\n";

int main(void) {
    imex_l0_define_t defines[] = {{"TYPE", "float"}, {"VALUE", "1.5f"}};
    void *spirv = NULL;
    size_t size = 0;
    char *log = NULL;
    imex_l0_status_t status =
        imex_l0_compile_opencl_c(kSource, "-cl-std=CL2.0", 2, defines, &spirv, &size, &log);
    if (status != imex_l0_success) {
        fprintf(stderr, "compile failed: %s\n", imex_l0_last_error_message());
        return 1;
    }
    uint32_t magic = 0;
    memcpy(&magic, spirv, sizeof(magic));
    printf("SPIR-V: %zu bytes, magic 0x%08x%s\n", size, magic,
           magic == 0x07230203u ? " (ok)" : " (WRONG)");
    imex_l0_free(spirv);
    imex_l0_free(log);

    /* A typo: the status says compile_error and the log points at the line. */
    spirv = NULL;
    log = NULL;
    status = imex_l0_compile_opencl_c("kernel void k(global int *o) { o[0] = undefined_name; }",
                                      NULL, 0, NULL, &spirv, &size, &log);
    printf("with an error: %s\n%s", imex_l0_status_str(status), log ? log : "(no log)\n");
    int ok = status == imex_l0_compile_error && log && strstr(log, "undefined_name") && !spirv;
    imex_l0_free(log);
    printf("%s\n", ok && magic == 0x07230203u ? "PASS" : "FAIL");
    return ok && magic == 0x07230203u ? 0 : 1;
}
