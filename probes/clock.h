/* clock: the monotonic clock in seconds, for the stage and wall times the
 * commands print and record. One definition: a dozen files had a copy of
 * their own. */
#ifndef TC_CLOCK_H
#define TC_CLOCK_H

#include <time.h>

static inline double tc_now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#endif
