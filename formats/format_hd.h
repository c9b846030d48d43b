/* Host and device: the few format properties that code compiled for the GPU
 * too reads (the hunt families, cases/hunt_draw.h), written once as static
 * inline functions that C compiles for the CPU and nvcc for the GPU as well.
 * formats/formats.c's tc_format_emin/emax/is_int are these; TC_HD marks a
 * function both compilers build (oracle/model_hd.h uses it too). */
#ifndef TC_FORMAT_HD_H
#define TC_FORMAT_HD_H

#include <stdbool.h>

#include "formats/formats.h"

#ifdef __CUDACC__
#define TC_HD __host__ __device__
#else
#define TC_HD
#endif

static inline TC_HD bool tc_format_is_int_hd(const tc_format *f)
{
    return f->specials == TC_SPECIALS_INT;
}

/* The exponent of the smallest normal. */
static inline TC_HD int tc_format_emin_hd(const tc_format *f)
{
    if (tc_format_is_int_hd(f))
        return 0;
    if (f->specials == TC_SPECIALS_E8M0)
        return -f->bias;   /* code 0 is 2^-bias, a normal: no subnormals */
    return 1 - f->bias;
}

/* The exponent of the largest finite. */
static inline TC_HD int tc_format_emax_hd(const tc_format *f)
{
    if (tc_format_is_int_hd(f))
        return f->mbits - 1;
    int top = (1 << f->ebits) - 1;
    switch (f->specials) {
    case TC_SPECIALS_IEEE:
    case TC_SPECIALS_E8M0:
        return top - 1 - f->bias;
    default:
        return top - f->bias;
    }
}

#endif
