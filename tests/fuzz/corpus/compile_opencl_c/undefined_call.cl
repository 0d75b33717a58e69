int scale(int v);
kernel void k(global int *p) {
    p[get_global_id(0)] = scale(p[get_global_id(0)]);
}
