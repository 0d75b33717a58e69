kernel void k(global int *p) {
    int x = p[0];
    __asm__("add %0, %0, 1" : "+r"(x));
    p[0] = x;
}
