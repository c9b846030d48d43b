/* regress's checks (cli/regress.h regress_verify): the items dealt into
 * one slice per job, item i to slice i mod S (the catalogue is grouped by
 * shape and type, so each slice gets a share of the costly ones), and one
 * `tcscope verify --instr A,B,.. --json` child per slice: one CUDA context
 * and one GPU model a slice instead of one an instruction (252 contexts of
 * a few hundred ms each before). A child prints one record per instruction,
 * the same as a child of one instruction would; they are split here and
 * read into their items. The instructions of a slice that left no record
 * (its child stopped on a device error or a crash) are checked again, one
 * child each, as before slices: one instruction's fault loses no other's
 * result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/pool.h"
#include "cli/regress.h"

static char **row(regress_ctx *c, size_t r)
{
    return c->argv + r * REGRESS_NARGS;
}

/* The verify arguments of row r for the instructions list. */
static void set_verify_args(regress_ctx *c, size_t r, const char *ppath, const char *list)
{
    const char *v[] = {"verify", "--backend", c->backend, "--profile", ppath, "--instr", list,
                       "--count", c->args[0], "--hunt-count", c->args[1], "--seed", c->args[2], "--json",
                       c->a->model_on ? "--model-on" : NULL, c->a->model_on, NULL};
    char **dst = row(c, r);
    memset(dst, 0, REGRESS_NARGS * sizeof *dst);
    for (int k = 0; v[k] && k < REGRESS_NARGS - 1; k++)
        dst[k] = (char *)v[k];
}

static char **slice_argv(void *vc, size_t s)
{
    return row(vc, s);
}

/* One record of a slice's output read into the item it names. */
static void take_record(regress_ctx *c, size_t s, const char *text, size_t len)
{
    char *t = strndup(text, len), err[512];
    tc_record rec;
    if (!t || tc_record_parse(t, "verify", &rec, err, sizeof err) != 0) {
        free(t);
        return;
    }
    const char *name = json_string_value(json_object_get(json_array_get(rec.objects, 0), "instr"));
    for (size_t i = s; name && i < c->n; i += c->nslices)
        if (!c->answered[i] && !strcmp(c->it[i].ins->name, name)) {
            regress_verify_done(c, i, -1, t, 0);
            c->answered[i] = true;
            break;
        }
    tc_record_free(&rec);
    free(t);
}

/* A slice's child ended: its output split at each record's trailer line. */
static bool slice_done(void *vc, size_t s, int status, const char *out, double secs)
{
    regress_ctx *c = vc;
    if (c->slice_s[1] == 0 || secs < c->slice_s[0])
        c->slice_s[0] = secs;
    if (secs > c->slice_s[1])
        c->slice_s[1] = secs;
    const char *p = out, *start = out;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        json_t *line = json_loadb(p, len, 0, NULL);
        const char *kind = json_string_value(json_object_get(line, "kind"));
        bool trailer = kind && (!strcmp(kind, "end") || !strcmp(kind, "partial"));
        json_decref(line);
        p += len + (nl != NULL);
        if (trailer) {
            take_record(c, s, start, (size_t)(p - start));
            start = p;
        }
    }
    if (status != 0 && status != 1)
        cli_warn(REGRESS_CMD, "a check of %zu instructions ended with %d: those without an answer are checked "
                              "again, one child each", (c->n - s + c->nslices - 1) / c->nslices, status);
    return true;
}

static char **retry_argv(void *vc, size_t q)
{
    return row(vc, q);
}

static bool retry_done(void *vc, size_t q, int status, const char *out, double secs)
{
    regress_ctx *c = vc;
    return regress_verify_done(c, c->idx[q], status, out, secs);
}

/* The slices, a child's arguments each. 0, or -1 after a warning. */
static int make_slices(regress_ctx *c, const char *ppath, unsigned jobs)
{
    if (c->lists)   /* made before: by regress_verify_start, or failed then (out of memory) */
        return c->answered ? 0 : -1;
    c->nslices = jobs < c->n ? jobs : c->n;
    c->lists = calloc(c->nslices, sizeof *c->lists);
    bool *answered = calloc(c->n, sizeof *answered);
    bool ok = c->lists && answered;
    for (size_t i = 0; ok && i < c->n; i++)
        ok = cli_list_add(&c->lists[i % c->nslices], c->it[i].ins->name) == 0;
    if (!ok) {
        free(answered);
        cli_warn(REGRESS_CMD, "out of memory");
        return -1;
    }
    c->answered = answered;   /* set last: the slices are whole */
    for (size_t s = 0; s < c->nslices; s++)
        set_verify_args(c, s, ppath, c->lists[s]);
    return 0;
}

static void *early_thread(void *vc)
{
    regress_ctx *c = vc;   /* every slice at once: nslices <= jobs */
    c->early_left = tc_pool_run(&c->early, (unsigned)c->nslices);
    return NULL;
}

static void early_started(void *vc)
{
    tc_pool_gate_started(&((regress_ctx *)vc)->gate);
}

static char **early_env(void *vc, size_t s)
{
    (void)s;
    return ((regress_ctx *)vc)->gate.env;
}

int regress_verify_start(regress_ctx *c, const char *ppath, unsigned jobs)
{
    if (make_slices(c, ppath, jobs) != 0 || tc_pool_gate_make(&c->gate) != 0)
        return -1;
    /* quiet: the timing's bar is the one on the terminal */
    c->early = (tc_pool){c->nslices, "verify", slice_argv, slice_done, c, early_env, early_started, c->gate.pass, true};
    if (pthread_create(&c->pool_th, NULL, early_thread, c) != 0) {
        tc_pool_gate_free(&c->gate);
        return -1;
    }
    c->early_on = true;
    return 0;
}

void regress_gate_ready(regress_ctx *c)
{
    if (c->early_on)
        tc_pool_gate_wait_ready(&c->gate);
}

void regress_gate_open(regress_ctx *c)
{
    if (c->early_on)
        tc_pool_gate_open(&c->gate);
}

void regress_verify_join(regress_ctx *c)
{
    if (!c->early_on)
        return;
    tc_pool_gate_open(&c->gate);
    pthread_join(c->pool_th, NULL);
    tc_pool_gate_free(&c->gate);
    c->early_on = false;
}

int regress_verify(regress_ctx *c, const char *ppath, unsigned jobs)
{
    if (c->early_on) {
        regress_verify_join(c);
        if (c->early_left != 0)
            return -1;
    } else {
        if (make_slices(c, ppath, jobs) != 0)
            return -1;
        tc_pool sp = {c->nslices, "verify", slice_argv, slice_done, c, NULL};
        if (tc_pool_run(&sp, jobs) != 0)
            return -1;
    }
    size_t nretry = 0;
    for (size_t i = 0; i < c->n; i++)
        if (!c->answered[i]) {
            set_verify_args(c, nretry, ppath, c->it[i].ins->name);
            c->idx[nretry++] = i;
        }
    c->nretried = nretry;
    if (nretry == 0)
        return 0;
    cli_warn(REGRESS_CMD, "%zu instructions without an answer from their slice's child: checked again, one child each",
             nretry);
    tc_pool rp = {nretry, "verify", retry_argv, retry_done, c, NULL};
    return tc_pool_run(&rp, jobs) != 0 ? -1 : 0;
}
