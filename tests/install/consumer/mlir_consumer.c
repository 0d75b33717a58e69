/* Links against the installed libimex_l0_mlir_runtime.so and binds nothing:
 * unbinding with nothing bound succeeds. */
#include "imex_l0_mlir_runtime.h"

#include <stdio.h>

int main(void) {
    if (imex_l0_mlir_runtime_unbind() != imex_l0_success) {
        fprintf(stderr, "imex_l0_mlir_runtime_unbind failed\n");
        return 1;
    }
    printf("mlir_consumer: linked the installed mgpu* runtime\n");
    return 0;
}
