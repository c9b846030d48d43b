/* splitmix64 for host and device (TC_HD): the one generator of the drawn
 * tiles, the hunt's (cases/hunt_draw.h) and the proof's random ones
 * (cases/random_draw.h), so a tile drawn on either is the same bits. */
#ifndef TC_RND_HD_H
#define TC_RND_HD_H

#include <stdint.h>

#include "formats/format_hd.h"

/* What each call adds to the state. */
#define HD_RND_STEP 0x9E3779B97F4A7C15ull

/* splitmix64: the same stream on every machine. */
static inline TC_HD uint64_t hd_rnd(uint64_t *st)
{
    uint64_t z = (*st += HD_RND_STEP);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

#endif
