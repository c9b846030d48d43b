/* The SASS read on a thread of its own (probes/sass_reader.h). One struct,
 * two references: the caller's (the handle) and the thread's. The thread
 * touches only the read's fields and its own reference; the caller reads
 * the fields only after joining. Closing detaches the thread: whichever of
 * the two drops the last reference frees the struct, so neither uses it
 * freed and the caller never waits for a read it did not use. */
#include "probes/sass_reader.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "probes/clock.h"

struct tc_sass_reader {
    atomic_int refs;          /* the caller's and the thread's */
    /* the read's, written by the thread */
    char *path, *arch, *prefix; /* copies: the thread may outlive the caller's strings */
    tc_sass *sass;
    char err[400];
    char from[PATH_MAX + 8];
    double seconds;
    /* the caller's */
    pthread_t thread;
    bool running;             /* not yet joined: join before the read's fields are read */
};

static void release(tc_sass_reader *r)
{
    if (atomic_fetch_sub(&r->refs, 1) != 1)
        return;
    tc_sass_free(r->sass);
    free(r->path);
    free(r->arch);
    free(r->prefix);
    free(r);
}

/* The thread: reads, parses, and lets go of its reference. */
static void *read_parse(void *arg)
{
    tc_sass_reader *r = arg;
    double t0 = tc_now_s();
    char *text = tc_sass_dump(r->path, r->arch, r->prefix, r->from, sizeof r->from, r->err, sizeof r->err);
    if (text) {
        r->sass = tc_sass_parse(text, r->err, sizeof r->err);
        free(text);
    }
    if (!r->sass)
        r->from[0] = '\0';
    r->seconds = tc_now_s() - t0;
    release(r);
    return NULL;
}

static char *copy(const char *s)
{
    char *c = s ? strdup(s) : NULL;
    if (s && !c)
        abort();
    return c;
}

tc_sass_reader *tc_sass_reader_start(const char *path, const char *arch, const char *prefix)
{
    tc_sass_reader *r = calloc(1, sizeof *r);
    if (!r)
        abort();
    r->path = copy(path);
    r->arch = copy(arch);
    r->prefix = copy(prefix);
    atomic_init(&r->refs, 2);
    r->running = pthread_create(&r->thread, NULL, read_parse, r) == 0;
    if (!r->running)
        read_parse(r);
    return r;
}

const tc_sass *tc_sass_reader_wait(tc_sass_reader *r)
{
    if (r->running) {
        if (pthread_join(r->thread, NULL) != 0)
            abort();   /* a thread of ours, joined once: cannot fail */
        r->running = false;
    }
    return r->sass;
}

const char *tc_sass_reader_error(tc_sass_reader *r)
{
    tc_sass_reader_wait(r);
    return r->err;
}

const char *tc_sass_reader_source(tc_sass_reader *r)
{
    tc_sass_reader_wait(r);
    return r->from;
}

double tc_sass_reader_seconds(tc_sass_reader *r)
{
    tc_sass_reader_wait(r);
    return r->seconds;
}

void tc_sass_reader_close(tc_sass_reader *r)
{
    if (!r)
        return;
    if (r->running && pthread_detach(r->thread) != 0)
        abort();   /* likewise */
    release(r);
}
