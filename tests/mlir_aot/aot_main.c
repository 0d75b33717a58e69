/* The entry of a program MLIR lowered ahead of time: its `main` function,
 * renamed when the program was built (CMakeLists.txt), run as
 * mlir-runner-22 --entry-point-result=void runs it. */
void imex_l0_aot_main(void);

int main(void) {
    imex_l0_aot_main();
    return 0;
}
