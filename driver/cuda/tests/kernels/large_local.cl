// Local memory beyond the 48 KiB a CUDA block gets without opting in. Each
// group copies its slice of `in` into local memory and writes it back
// reversed: every word is written and read by different work-items across a
// barrier, so a buffer smaller than asked for, or overlapping another, shows.

kernel void reverse_through_local(global const int *in, global int *out, local int *scratch,
                                  uint words) {
    const uint lid = get_local_id(0), n = get_local_size(0);
    global const int *src = in + get_group_id(0) * words;
    for (uint i = lid; i < words; i += n)
        scratch[i] = src[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    global int *dst = out + get_group_id(0) * words;
    for (uint i = lid; i < words; i += n)
        dst[i] = scratch[words - 1 - i];
}

// The same through an array of the kernel's own of OWN_WORDS words and a
// local argument after it: the array holds the slice's first OWN_WORDS
// words, the argument the rest. 64 KiB of its own is more than ptxas lets a
// kernel declare (the translation moves it to the dynamic shared memory);
// 32 KiB is not.
#define REVERSE_THROUGH_BOTH(NAME, OWN_WORDS)                                                     \
    kernel void NAME(global const int *in, global int *out, local int *rest, uint words) {       \
        local int own[OWN_WORDS];                                                                  \
        const uint lid = get_local_id(0), n = get_local_size(0);                                  \
        global const int *src = in + get_group_id(0) * words;                                     \
        for (uint i = lid; i < words; i += n) {                                                    \
            if (i < OWN_WORDS)                                                                     \
                own[i] = src[i];                                                                   \
            else                                                                                   \
                rest[i - OWN_WORDS] = src[i];                                                      \
        }                                                                                          \
        barrier(CLK_LOCAL_MEM_FENCE);                                                              \
        global int *dst = out + get_group_id(0) * words;                                          \
        for (uint i = lid; i < words; i += n) {                                                    \
            const uint j = words - 1 - i;                                                          \
            dst[i] = j < OWN_WORDS ? own[j] : rest[j - OWN_WORDS];                                 \
        }                                                                                          \
    }

REVERSE_THROUGH_BOTH(reverse_through_64k_own, 16384)
REVERSE_THROUGH_BOTH(reverse_through_32k_own, 8192)

// 44 KiB of the kernel's own and a work-group sum, whose scratch array the
// module's other kernel with one shares: 52 KiB together, so the translation
// moves the kernel's own array (the shared scratch stays static).
#define OWN_44K 11264
kernel void reverse_and_sum(global const int *in, global int *out, global int *sums) {
    local int own[OWN_44K];
    const uint lid = get_local_id(0), n = get_local_size(0);
    global const int *src = in + get_group_id(0) * OWN_44K;
    int mine = 0;
    for (uint i = lid; i < OWN_44K; i += n) {
        own[i] = src[i];
        mine += src[i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    global int *dst = out + get_group_id(0) * OWN_44K;
    for (uint i = lid; i < OWN_44K; i += n)
        dst[i] = own[OWN_44K - 1 - i];
    const int total = work_group_reduce_add(mine);
    if (lid == 0)
        sums[get_group_id(0)] = total;
}

kernel void group_sum(global const int *in, global int *sums) {
    const int total = work_group_reduce_add(in[get_global_id(0)]);
    if (get_local_id(0) == 0)
        sums[get_group_id(0)] = total;
}
