/* The application's inputs: distributions with parameters, the sampled
 * rows of A and columns of B, and the amax of the whole tensors that a
 * per-tensor scale needs. Random streams are the sweep's (reproducible per
 * seed and stream name). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/app.h"
#include "cases/sweep_internal.h"
#include "oracle/oracle.h"

static bool two_numbers(const char *s, double *a, double *b)
{
    char *end;
    *a = strtod(s, &end);
    if (end == s || *end != ',')
        return false;
    const char *t = end + 1;
    *b = strtod(t, &end);
    return end != t && !*end && isfinite(*a) && isfinite(*b);
}

/* The sweep's distributions by the sweep's names and ranges (cases/sweep.h). */
static bool sweep_kind(const char *s, app_dist *d, char *err, size_t len)
{
    bool logu = !strncmp(s, "loguniform", 10) && (!s[10] || s[10] == ':');
    if (!logu && strcmp(s, "ints"))
        return false;
    d->kind = logu ? APP_LOGUNIFORM : APP_INTS;
    d->p1 = 16;
    if (logu && s[10]) {
        char *end;
        long r = strtol(s + 11, &end, 10);
        if (end == s + 11 || *end || r < 1 || r > SWEEP_MAX_LOG_RANGE) {
            snprintf(err, len, "bad --dist '%s' (loguniform:R with R 1..%d)", s, SWEEP_MAX_LOG_RANGE);
            return false;
        }
        d->p1 = (double)r;
    }
    if (logu)
        snprintf(d->desc, sizeof d->desc, "loguniform(2^-%g..2^%g, random sign)", d->p1, d->p1);
    else
        snprintf(d->desc, sizeof d->desc, "ints(-2..2)");
    return true;
}

bool app_dist_parse(const char *s, app_dist *d, char *err, size_t len)
{
    static const struct {
        const char *name;
        app_dist_kind kind;
        double p1, p2;
        const char *params;
    } kinds[] = {{"normal", APP_NORMAL, 0, 1, "MU,SIGMA"},
                 {"uniform", APP_UNIFORM, -1, 1, "LO,HI"},
                 {"lognormal", APP_LOGNORMAL, 0, 1, "MU,SIGMA"}};
    memset(d, 0, sizeof *d);
    err[0] = '\0';
    if (sweep_kind(s, d, err, len))
        return true;
    if (err[0])
        return false;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        size_t n = strlen(kinds[i].name);
        if (strncmp(s, kinds[i].name, n) || (s[n] && s[n] != ':'))
            continue;
        d->kind = kinds[i].kind;
        d->p1 = kinds[i].p1;
        d->p2 = kinds[i].p2;
        bool ok = !s[n] || two_numbers(s + n + 1, &d->p1, &d->p2);
        if (ok && d->kind == APP_UNIFORM)
            ok = d->p1 < d->p2;
        else if (ok)
            ok = d->p2 > 0 && (d->kind != APP_LOGNORMAL || fabs(d->p1) + 10 * d->p2 < 700);
        if (!ok) {
            snprintf(err, len, "bad --dist '%s' (%s:%s with %s)", s, kinds[i].name, kinds[i].params,
                     d->kind == APP_UNIFORM ? "LO < HI" : "SIGMA > 0, finite");
            return false;
        }
        if (d->kind == APP_UNIFORM)
            snprintf(d->desc, sizeof d->desc, "uniform(lo=%g, hi=%g)", d->p1, d->p2);
        else
            snprintf(d->desc, sizeof d->desc, "%s(mu=%g, sigma=%g)", kinds[i].name, d->p1, d->p2);
        return true;
    }
    snprintf(err, len, "bad --dist '%s' (normal[:MU,SIGMA], uniform[:LO,HI], lognormal[:MU,SIGMA], loguniform[:R], ints)", s);
    return false;
}

void app_dist_free(app_dist *d)
{
    free(d->samples);
    d->samples = NULL;
}

static double unit(sweep_rng *r)   /* [0, 1) */
{
    return (double)(sweep_rng_next(r) >> 11) * 0x1p-53;
}

static double draw(sweep_rng *r, const app_dist *d)
{
    switch (d->kind) {
    case APP_NORMAL: return d->p1 + d->p2 * sweep_draw(r, SWEEP_NORMAL, 0);
    case APP_UNIFORM: return d->p1 + (d->p2 - d->p1) * unit(r);
    case APP_LOGNORMAL: return exp(d->p1 + d->p2 * sweep_draw(r, SWEEP_NORMAL, 0));
    case APP_LOGUNIFORM: return sweep_draw(r, SWEEP_LOGUNIFORM, (int)d->p1);
    case APP_INTS: return sweep_draw(r, SWEEP_INTS, 0);
    case APP_SAMPLES: return d->samples[sweep_rng_next(r) % d->nsamples];
    }
    return 0;
}

const char *app_scaling_name(app_scaling s)
{
    static const char *const names[] = {"none", "per-tensor", "per-row", "block32"};
    return names[s];
}

bool app_scaling_parse(const char *s, app_scaling *out)
{
    for (int i = APP_SCALE_NONE; i <= APP_SCALE_BLOCK32; i++)
        if (!strcmp(s, app_scaling_name((app_scaling)i))) {
            *out = (app_scaling)i;
            return true;
        }
    return false;
}

/* `count` values into out (when not NULL); returns the largest |x| of all. */
static double fill(sweep_rng *r, const app_dist *d, double *out, size_t count, size_t total)
{
    double amax = 0;
    for (size_t i = 0; i < total; i++) {
        double x = draw(r, d);
        if (i < count && out)
            out[i] = x;
        amax = fmax(amax, fabs(x));
    }
    return amax;
}

/* A (item 0) and B (item 1) of app_data_make: two streams of their own,
 * drawn side by side (each the same values as drawn alone). */
typedef struct {
    const app_dist *dist;
    sweep_rng rng[2];
    double *out[2], amax[2];
    size_t count[2], total[2];
} fill_job;

static void fill_items(void *ctx, size_t lo, size_t hi)
{
    fill_job *j = ctx;
    for (size_t t = lo; t < hi; t++)
        j->amax[t] = fill(&j->rng[t], j->dist, j->out[t], j->count[t], j->total[t]);
}

bool app_data_make(app_data *d, const app_dist *dist, int m, int n, int k, int rows, int cols, uint64_t seed,
                   bool whole_amax, char *err, size_t len)
{
    memset(d, 0, sizeof *d);
    *d = (app_data){.m = m, .n = n, .k = k, .rows = rows, .cols = cols, .seed = seed};
    d->A = malloc((size_t)rows * (size_t)k * sizeof *d->A);
    d->B = malloc((size_t)cols * (size_t)k * sizeof *d->B);
    if (!d->A || !d->B) {
        app_data_free(d);
        snprintf(err, len, "out of memory for %d x %d sampled inputs", rows + cols, k);
        return false;
    }
    fill_job j = {.dist = dist, .out = {d->A, d->B}};
    sweep_rng_seed(&j.rng[0], seed, "app.A");
    sweep_rng_seed(&j.rng[1], seed, "app.B");
    /* A row-major (rows first), B column by column: the first rows / columns
     * of the same streams that the whole tensors' amax is taken from. */
    size_t sa = (size_t)rows * (size_t)k, sb = (size_t)cols * (size_t)k;
    j.count[0] = sa, j.count[1] = sb;
    j.total[0] = whole_amax && m > rows ? (size_t)m * (size_t)k : sa;
    j.total[1] = whole_amax && n > cols ? (size_t)n * (size_t)k : sb;
    oracle_parallel(2, j.total[0] + j.total[1], fill_items, &j);
    d->amax_a = j.amax[0], d->amax_b = j.amax[1];
    return true;
}

void app_data_free(app_data *d)
{
    free(d->A);
    free(d->B);
    d->A = d->B = NULL;
}
