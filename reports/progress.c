/* A progress bar on stderr, only when a person is watching (a terminal):
 * logs and pipes stay clean. */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "reports/render.h"

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void tc_progress_start(tc_progress *p, const char *label, size_t total)
{
    p->label = label;
    p->total = total ? total : 1;
    p->last_permille = -1;
    p->enabled = isatty(STDERR_FILENO);
    p->t0 = mono_s();
    tc_progress_update(p, 0);
}

void tc_progress_update(tc_progress *p, size_t done)
{
    if (!p->enabled)
        return;
    int permille = (int)(1000.0 * (double)(done > p->total ? p->total : done) / (double)p->total);
    if (permille / 5 == p->last_permille / 5 && p->last_permille >= 0)
        return;   /* redraw every 0.5%: cheap even in tight loops */
    p->last_permille = permille;
    enum { WIDTH = 40 };
    int fill = permille * WIDTH / 1000;
    fprintf(stderr, "\r%-24.24s [", p->label);
    for (int i = 0; i < WIDTH; i++)
        fputc(i < fill ? '#' : '.', stderr);
    fprintf(stderr, "] %5.1f%% %zu/%zu", permille / 10.0, done > p->total ? p->total : done, p->total);
    double el = mono_s() - p->t0;
    if (done > 0 && done < p->total) {
        long left = (long)(el * (double)(p->total - done) / (double)done + 0.5);
        fprintf(stderr, "  ETA %ldm%02lds  ", left / 60, left % 60);
    } else
        fprintf(stderr, "  %.0f s        ", el);
    fflush(stderr);
}

void tc_progress_clear(tc_progress *p)
{
    if (!p->enabled || p->last_permille < 0)
        return;
    fputs("\r\033[K", stderr);   /* to the line's start, the line erased */
    fflush(stderr);
    p->last_permille = -1;        /* drawn again at the next update */
}

void tc_progress_end(tc_progress *p)
{
    if (!p->enabled)
        return;
    tc_progress_update(p, p->total);
    fputc('\n', stderr);
}
