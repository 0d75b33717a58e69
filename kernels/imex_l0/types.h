/*
 * imex_l0/types.h - fixed-width integer names and small numeric helpers for
 * kernels compiled by imex_l0_interop (#include "imex_l0/types.h").
 * OpenCL C already fixes the widths of char/short/int/long; these names let
 * code shared with the host read the same on both sides.
 */
#ifndef IMEX_L0_TYPES_H
#define IMEX_L0_TYPES_H

typedef char int8_t;
typedef uchar uint8_t;
typedef short int16_t;
typedef ushort uint16_t;
typedef int int32_t;
typedef uint uint32_t;
typedef long int64_t;
typedef ulong uint64_t;

/* Integer division rounded up; a and b are evaluated once. */
#define IMEX_L0_DIV_UP(a, b) (((a) + (b) - 1) / (b))
/* Rounds a up to a multiple of b. */
#define IMEX_L0_ROUND_UP(a, b) (IMEX_L0_DIV_UP(a, b) * (b))

#endif /* IMEX_L0_TYPES_H */
