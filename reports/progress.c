/* A progress bar on stderr, only when a person is watching (a terminal):
 * logs and pipes stay clean. */
#include <stdio.h>
#include <unistd.h>

#include "reports/render.h"

void tc_progress_start(tc_progress *p, const char *label, size_t total)
{
    p->label = label;
    p->total = total ? total : 1;
    p->last_permille = -1;
    p->enabled = isatty(STDERR_FILENO);
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
    fprintf(stderr, "] %5.1f%%", permille / 10.0);
    fflush(stderr);
}

void tc_progress_end(tc_progress *p)
{
    if (!p->enabled)
        return;
    tc_progress_update(p, p->total);
    fputc('\n', stderr);
}
