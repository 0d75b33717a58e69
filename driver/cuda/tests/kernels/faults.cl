// A kernel that faults: it writes where the host tells it to, an address no
// allocation holds (the device-loss tests).
kernel void write_at(ulong address) {
    ((global int *)address)[get_global_id(0)] = 1;
}
