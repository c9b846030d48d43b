/* The application evaluation's two small utilities (cases/app_internal.h),
 * in a file of their own so that app_eval.c, app_lib.c and app_stats.c all
 * take them from below rather than from one another. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cases/app_internal.h"

double app_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void *app_calloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "tcscope: out of memory\n");
        exit(2);
    }
    return p;
}
