/* The hunt families' numbers (cases/hunt.h says what each draws), apart so
 * that code compiled for the GPU too (cases/hunt_draw.h) names them without
 * the host's headers. */
#ifndef TC_HUNT_FAMILIES_H
#define TC_HUNT_FAMILIES_H

enum {
    HUNT_ZERO_PRODUCTS,
    HUNT_ZERO_TERMS,
    HUNT_CANCEL,
    HUNT_TINY,
    HUNT_SUBNORMAL,
    HUNT_ALIGN_EDGE,
    HUNT_BLOCK_EDGE,
    HUNT_OVERFLOW,
    HUNT_SIGNED_ZERO,
    HUNT_SPECIALS,
    HUNT_NAN_PAYLOAD,
    HUNT_NFAMILIES
};

#endif
