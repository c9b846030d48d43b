/* regress's baseline record, read on a thread of its own while the
 * process makes its GPU context (cli/regress.h regress_base). The H200's
 * audit record is slim: reading it reads the full H100 record beside it
 * (18.6 MB of JSON, 0.42 s on the 2-core VM), and regress read it twice
 * before its timing could start (once to check --record, once for the
 * timing) while its context, made one at a time with its children's on
 * the whole machine, waited in the driver. */
#include <stdio.h>

#include "cli/regress.h"

static void *load(void *vb)
{
    regress_base *b = vb;
    b->rc = tc_record_load_any(b->path, &b->rec, b->err, sizeof b->err);
    return NULL;
}

void regress_base_start(regress_base *b, const char *path)
{
    *b = (regress_base){.path = path, .started = true};
    if (pthread_create(&b->th, NULL, load, b) == 0)
        b->threaded = true;
    else
        load(b);   /* no thread to be had: read now, as before */
}

const tc_record *regress_base_wait(regress_base *b)
{
    if (!b->started) {
        snprintf(b->err, sizeof b->err, "no baseline record was read");
        return NULL;
    }
    if (b->threaded) {
        pthread_join(b->th, NULL);
        b->threaded = false;
    }
    return b->rc == 0 ? &b->rec : NULL;
}

void regress_base_free(regress_base *b)
{
    if (b->started && regress_base_wait(b))
        tc_record_free(&b->rec);
    *b = (regress_base){.started = false};
}
