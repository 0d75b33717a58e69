// A program-scope variable, reachable from the host through
// zeModuleGetGlobalPointer, and a kernel that updates it.
global int counter = 5;

kernel void bump_counter(int by) {
    if (get_global_id(0) == 0)
        counter += by;
}
