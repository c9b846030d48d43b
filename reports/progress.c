/* Progress on stderr for runs that can last (the rule: doc/commands.md
 * "Progress"). On a terminal, one line redrawn: a bar, the count done of
 * total, the time left. Off a terminal (a log), plain lines, so a log shows
 * a long run alive: none before the run has lasted 10 s, then at most one
 * every 30 s (TCSCOPE_PROGRESS_S=S: every S seconds, the first after
 * min(10, S)), so a quick run, and every test, writes nothing.
 * TCSCOPE_QUIET (set by --quiet, inherited by child runs): nothing at all. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "reports/render.h"

enum { OFF, BAR, LOG };

#define LOG_EVERY_S 30.0
#define LOG_FIRST_S 10.0

static double mono_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* The seconds between plain lines: TCSCOPE_PROGRESS_S when it is a number
 * > 0, else 30. */
static double log_every_s(void)
{
    const char *s = getenv("TCSCOPE_PROGRESS_S");
    char *end;
    double v = s ? strtod(s, &end) : 0;
    return s && end != s && !*end && v > 0 && v < 1e6 ? v : LOG_EVERY_S;
}

/* "2m10s", "1h05m": seconds as a person reads a duration. */
static void duration(double s, char *buf, size_t len)
{
    long t = (long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else
        snprintf(buf, len, "%ldm%02lds", t / 60, t % 60);
}

void tc_progress_start(tc_progress *p, const char *label, size_t total)
{
    p->label = label;
    p->total = total ? total : 1;
    p->last_permille = -1;
    p->enabled = getenv("TCSCOPE_QUIET") ? OFF : isatty(STDERR_FILENO) ? BAR : LOG;
    p->t0 = mono_s();
    p->every = log_every_s();
    p->next_log = p->t0 + (p->every < LOG_FIRST_S ? p->every : LOG_FIRST_S);
    p->logged = 0;
    tc_progress_update(p, 0);
}

/* Off a terminal: "audit: 1200/6804 (17.6%), 1m02s so far, ETA 4m51s",
 * when the next line is due. */
static void log_line(tc_progress *p, size_t done)
{
    double now = mono_s();
    if (now < p->next_log)
        return;
    p->next_log = now + p->every;
    p->logged = 1;
    char el[32], left[48] = "";
    duration(now - p->t0, el, sizeof el);
    if (done > 0 && done < p->total) {
        char d[32];
        duration((now - p->t0) * (double)(p->total - done) / (double)done, d, sizeof d);
        snprintf(left, sizeof left, ", ETA %s", d);
    }
    fprintf(stderr, "%s: %zu/%zu (%.1f%%), %s so far%s\n", p->label, done, p->total,
            100.0 * (double)done / (double)p->total, el, left);
    fflush(stderr);
}

void tc_progress_update(tc_progress *p, size_t done)
{
    if (p->enabled == OFF)
        return;
    done = done > p->total ? p->total : done;
    if (p->enabled == LOG) {
        log_line(p, done);
        return;
    }
    int permille = (int)(1000.0 * (double)done / (double)p->total);
    if (permille / 5 == p->last_permille / 5 && p->last_permille >= 0)
        return;   /* redraw every 0.5%: cheap even in tight loops */
    p->last_permille = permille;
    enum { WIDTH = 40 };
    int fill = permille * WIDTH / 1000;
    fprintf(stderr, "\r%-24.24s [", p->label);
    for (int i = 0; i < WIDTH; i++)
        fputc(i < fill ? '#' : '.', stderr);
    fprintf(stderr, "] %5.1f%% %zu/%zu", permille / 10.0, done, p->total);
    double el = mono_s() - p->t0;
    char d[32];
    if (done > 0 && done < p->total) {
        duration(el * (double)(p->total - done) / (double)done, d, sizeof d);
        fprintf(stderr, "  ETA %s  ", d);
    } else
        fprintf(stderr, "  %.0f s        ", el);
    fflush(stderr);
}

void tc_progress_clear(tc_progress *p)
{
    if (p->enabled != BAR || p->last_permille < 0)
        return;
    fputs("\r\033[K", stderr);   /* to the line's start, the line erased */
    fflush(stderr);
    p->last_permille = -1;        /* drawn again at the next update */
}

void tc_progress_end(tc_progress *p)
{
    if (p->enabled == BAR) {
        tc_progress_update(p, p->total);
        fputc('\n', stderr);
    } else if (p->enabled == LOG && p->logged) {   /* a log that showed the run going shows it ended */
        char el[32];
        duration(mono_s() - p->t0, el, sizeof el);
        fprintf(stderr, "%s: %zu/%zu done in %s\n", p->label, p->total, p->total, el);
    }
}
