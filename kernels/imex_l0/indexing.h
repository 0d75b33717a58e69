/*
 * imex_l0/indexing.h - index helpers for kernels compiled by imex_l0_interop
 * (#include "imex_l0/indexing.h").
 */
#ifndef IMEX_L0_INDEXING_H
#define IMEX_L0_INDEXING_H

#include "types.h"

/* Global linear id of a 1-, 2- or 3-dimensional range, x fastest. */
inline size_t imex_l0_global_linear_id(void) {
    return (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) +
           get_global_id(0);
}

/* Local linear id within the work-group, x fastest. */
inline size_t imex_l0_local_linear_id(void) {
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) +
           get_local_id(0);
}

/* Row-major offset of (row, col) in a matrix with leading dimension ld. */
#define IMEX_L0_IDX2(row, col, ld) ((row) * (ld) + (col))
/* Row-major offset of (i, j, k) in a d0 x d1 x d2 array. */
#define IMEX_L0_IDX3(i, j, k, d1, d2) (((i) * (d1) + (j)) * (d2) + (k))

/* Grid-stride loop over [0, n): each work-item visits i, i + global size, ... */
#define IMEX_L0_FOR_EACH_GLOBAL(i, n)                                              \
    for (size_t i = get_global_id(0); i < (size_t)(n); i += get_global_size(0))

/* Tree reduction of scratch[0 .. get_local_size(0)) into scratch[0] with op(a, b);
   every work-item of the group must call it. Requires a power-of-two local size. */
#define IMEX_L0_GROUP_REDUCE(scratch, op)                                          \
    do {                                                                           \
        size_t imex_l0_lid_ = get_local_id(0);                                     \
        for (size_t imex_l0_s_ = get_local_size(0) / 2; imex_l0_s_ > 0;            \
             imex_l0_s_ /= 2) {                                                    \
            barrier(CLK_LOCAL_MEM_FENCE);                                          \
            if (imex_l0_lid_ < imex_l0_s_)                                         \
                (scratch)[imex_l0_lid_] =                                          \
                    op((scratch)[imex_l0_lid_], (scratch)[imex_l0_lid_ + imex_l0_s_]); \
        }                                                                          \
        barrier(CLK_LOCAL_MEM_FENCE);                                              \
    } while (0)

#endif /* IMEX_L0_INDEXING_H */
