/* reports/fleet.h: the reference GPU's outputs are kept per instruction;
 * every later GPU's are compared with them as its lines are read, so memory
 * holds one GPU's outputs, not all of them. */
#include "reports/fleet.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/oracle.h"
#include "probes/backend_corpus.h"
#include "probes/record_json.h"

typedef struct {
    size_t elements;      /* of the reference */
    uint64_t *D;          /* the reference GPU's outputs */
    uint64_t in_hash;     /* of its A, B, C */
    int ref_gpu;
    json_t *gpus, *diffs;
    bool inputs_same, seen;
    size_t listed;
} instr_cmp;

struct tc_fleet_cmp {
    size_t n;             /* catalogue entries */
    instr_cmp *it;
    bool have_ref;
    int ref_gpu;
};

static uint64_t fnv(uint64_t h, const uint64_t *w, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 64; b += 8)
            h = (h ^ ((w[i] >> b) & 0xff)) * 0x100000001b3ull;
    return h;
}

static json_t *bits(uint64_t x)
{
    char s[24];
    snprintf(s, sizeof s, "0x%llx", (unsigned long long)x);
    return json_string(s);
}

tc_fleet_cmp *tc_fleet_cmp_new(void)
{
    tc_fleet_cmp *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    tc_catalogue(&c->n);
    c->it = calloc(c->n, sizeof *c->it);
    if (!c->it) {
        free(c);
        return NULL;
    }
    return c;
}

/* One resolved line of GPU gpu. */
static int add_rec(tc_fleet_cmp *c, int gpu, tc_corpus_rec *r, char *err, size_t len)
{
    size_t cat;
    const tc_instr *first = tc_catalogue(&cat);
    const tc_instr *ins = r->ins;
    instr_cmp *it = &c->it[ins - first];
    size_t mn = (size_t)ins->m * ins->n, n = r->ntiles * mn;
    uint64_t ih = fnv(fnv(fnv(0xcbf29ce484222325ull, r->A, r->ntiles * (size_t)ins->m * ins->k), r->B,
                          r->ntiles * (size_t)ins->k * ins->n), r->C, n);
    uint64_t dh = fnv(0xcbf29ce484222325ull, r->D, n);
    size_t differing = 0;
    if (!it->seen) { /* this GPU is the instruction's reference */
        it->seen = true;
        it->elements = n;
        it->in_hash = ih;
        it->ref_gpu = gpu;
        it->inputs_same = true;
        it->gpus = json_array();
        it->diffs = json_array();
        it->D = malloc(n * sizeof *it->D + 1);
        if (!it->D) {
            snprintf(err, len, "out of memory");
            return -1;
        }
        memcpy(it->D, r->D, n * sizeof *it->D);
    } else if (n != it->elements || ih != it->in_hash) {
        it->inputs_same = false; /* not the same inputs: the outputs say nothing; counted as all differing */
        differing = n > it->elements ? n : it->elements;
    } else
        for (size_t e = 0; e < n; e++) {
            if (r->D[e] == it->D[e])
                continue;
            differing++;
            if (it->listed++ >= TC_FLEET_MAX_LISTED)
                continue;
            json_array_append_new(it->diffs,
                                  json_pack("{s:i, s:I, s:I, s:I, s:I, s:i, s:o, s:o}", "gpu", gpu, "element",
                                            (json_int_t)e, "tile", (json_int_t)(e / mn), "row",
                                            (json_int_t)(e % mn / ins->n), "col", (json_int_t)(e % ins->n),
                                            "reference_gpu", it->ref_gpu, "reference", bits(it->D[e]), "bits",
                                            bits(r->D[e])));
        }
    json_array_append_new(it->gpus, json_pack("{s:i, s:o, s:I}", "gpu", gpu, "hash", bits(dh), "differing",
                                              (json_int_t)differing));
    return 0;
}

/* A batch of a GPU's object lines, parsed at once on the cores: the parse
 * (JSON and hex, about 1 s for two GPUs' 4096 elements of every
 * instruction) was most of a node's regress after its workers; the lines
 * are independent, their twins resolved and compared in order afterwards.
 * Bounded, so that memory holds a batch's records, not a GPU's. */
#define PARSE_BATCH 64

typedef struct {
    char *line[PARSE_BATCH];
    tc_corpus_rec rec[PARSE_BATCH];
    int rc[PARSE_BATCH];
    char why[PARSE_BATCH][384];
    size_t n, bytes;
} parse_batch;

static void parse_range(void *ctx, size_t lo, size_t hi)
{
    parse_batch *b = ctx;   /* jansson parses on threads: its hash seed is set once, atomically */
    for (size_t i = lo; i < hi; i++)
        b->rc[i] = tc_corpus_parse(b->line[i], &b->rec[i], b->why[i], sizeof b->why[i]);
}

/* The batch parsed, then each record in order: its twin's inputs resolved
 * (an .rs line names an earlier line of this GPU, kept in mine), compared
 * and kept. Empties the batch. */
static int take_batch(tc_fleet_cmp *c, int gpu, parse_batch *b, tc_corpus_rec *mine, char *err, size_t len)
{
    size_t cat;
    const tc_instr *first = tc_catalogue(&cat);
    oracle_parallel(b->n, b->bytes, parse_range, b);
    int rc = 0;
    for (size_t i = 0; i < b->n; i++) {
        tc_corpus_rec *r = &b->rec[i];
        free(b->line[i]);
        if (b->rc[i] != 0) {   /* a failed parse holds nothing */
            if (rc == 0)
                snprintf(err, len, "GPU %d: not a corpus line (%s)", gpu, b->why[i]);
            rc = -1;
            continue;
        }
        if (rc != 0) {
            tc_corpus_rec_free(r);
            continue;
        }
        const tc_instr *tw = r->inputs_of[0] ? tc_instr_by_name(r->inputs_of) : NULL;
        char why[384];
        if (r->inputs_of[0] && (!tw || tc_corpus_resolve(r, &mine[tw - first], why, sizeof why) != 0)) {
            snprintf(err, len, "GPU %d: %s", gpu, tw ? why : "a twin that is not in the catalogue");
            rc = -1;
        } else
            rc = add_rec(c, gpu, r, err, len);
        size_t k = (size_t)(r->ins - first);
        if (rc == 0 && k < c->n) {
            tc_corpus_rec_free(&mine[k]);
            mine[k] = *r;
        } else
            tc_corpus_rec_free(r);
    }
    b->n = b->bytes = 0;
    return rc;
}

int tc_fleet_cmp_add(tc_fleet_cmp *c, int gpu, const char *text, char *err, size_t len)
{
    /* this GPU's lines, kept until its .rs lines have found their twins */
    tc_corpus_rec *mine = calloc(c->n, sizeof *mine);
    parse_batch *b = calloc(1, sizeof *b);
    if (!mine || !b) {
        free(mine), free(b);
        snprintf(err, len, "out of memory");
        return -1;
    }
    int rc = 0;
    tc_lines form; /* the worker's record "corpus" (or bare lines of an older tcscope) */
    tc_lines_init(&form, "corpus");
    for (const char *l = text; rc == 0 && *l;) {
        const char *e = strchr(l, '\n');
        size_t ll = e ? (size_t)(e - l) : strlen(l);
        char *line = ll && l[0] == '{' ? strndup(l, ll) : NULL, why[384];
        int role = line ? tc_lines_next(&form, line, why, sizeof why) : 0;
        if (role < 0) {
            snprintf(err, len, "GPU %d: %s", gpu, why);
            rc = -1;
        } else if (ll && l[0] == '{' && !line) {
            snprintf(err, len, "out of memory");
            rc = -1;
        } else if (role == 1) {
            b->line[b->n++] = line, b->bytes += ll;
            line = NULL;
            if (b->n == PARSE_BATCH)
                rc = take_batch(c, gpu, b, mine, err, len);
        }
        free(line);
        l += ll + (e != NULL);
    }
    if (rc == 0 && b->n)
        rc = take_batch(c, gpu, b, mine, err, len);
    for (size_t i = 0; i < b->n; i++)   /* an error before the batch was taken */
        free(b->line[i]);
    char why[256];
    if (rc == 0 && tc_lines_end(&form, why, sizeof why) != 0) {
        snprintf(err, len, "GPU %d: %s", gpu, why);
        rc = -1;
    }
    for (size_t k = 0; k < c->n; k++)
        tc_corpus_rec_free(&mine[k]);
    free(mine), free(b);
    return rc;
}

json_t *tc_fleet_cmp_result(const tc_fleet_cmp *c)
{
    size_t cat;
    const tc_instr *first = tc_catalogue(&cat);
    json_t *out = json_array();
    for (size_t k = 0; k < c->n; k++) {
        const instr_cmp *it = &c->it[k];
        if (!it->seen)
            continue;
        size_t g = json_array_size(it->gpus), i;
        bool same = it->inputs_same;
        json_t *x;
        json_array_foreach(it->gpus, i, x) same = same && json_integer_value(json_object_get(x, "differing")) == 0;
        json_t *o = json_pack("{s:s, s:I, s:I, s:o, s:b, s:O, s:O}", "instr", first[k].name, "elements",
                              (json_int_t)it->elements, "compared", (json_int_t)g, "same",
                              g >= 2 ? json_boolean(same) : json_null(), "inputs_same", it->inputs_same, "gpus",
                              it->gpus, "differences", it->diffs);
        json_array_append_new(out, o);
    }
    return out;
}

void tc_fleet_cmp_free(tc_fleet_cmp *c)
{
    if (!c)
        return;
    for (size_t k = 0; k < c->n; k++) {
        free(c->it[k].D);
        json_decref(c->it[k].gpus);
        json_decref(c->it[k].diffs);
    }
    free(c->it);
    free(c);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

json_t *tc_fleet_spread(const double *v, size_t n)
{
    double *s = malloc((n + 1) * sizeof *s);
    size_t m = 0;
    for (size_t i = 0; s && i < n; i++)
        if (isfinite(v[i]))
            s[m++] = v[i];
    if (!m) {
        free(s);
        return json_null();
    }
    qsort(s, m, sizeof *s, by_value);
    double med = m % 2 ? s[m / 2] : (s[m / 2 - 1] + s[m / 2]) / 2;
    json_t *o = json_pack("{s:I, s:f, s:f, s:f}", "gpus", (json_int_t)m, "min", s[0], "median", med, "max", s[m - 1]);
    free(s);
    return o;
}
