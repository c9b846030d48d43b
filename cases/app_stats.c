/* The error statistics of choose's candidates (cases/app.h app_stats): each
 * output's relative error against its exact reference, their nearest-rank
 * quantiles (sweep_quantile_sorted's: median, p90, p99, max) and the
 * normwise error. Every output of an 8192 x 8192 GEMM is 6.7e7 errors, so
 * the quantiles are not found by sorting, nor by selections on one core
 * (0.86 s for 1.6e7 errors on the project VM, 0.40 s this way on its two
 * cores): the errors are non-negative doubles (or +Inf),
 * whose bit patterns order as their values, so a pass on every core counts
 * them by their top 16 bits (sign, exponent, 4 significand bits), the
 * counts name the bucket that holds each rank, a second pass gathers those
 * buckets' members, and a selection among them gives the value: the same
 * value as a selection over all. No error array: each pass computes the
 * errors again from got and ref. The normwise sums run in output order on
 * one core, as they always did (the same rounding, the same bytes). A NaN
 * error (an infinite reference) counts above +Inf. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cases/app_internal.h"
#include "oracle/oracle.h"

#define BUCKETS 65536                  /* the top 16 bits of a double */
#define SLICE_MIN ((size_t)1 << 16)    /* outputs a slice at least: a histogram is 256 KiB */
#define MAX_SLICES 64
#define NQ 4                           /* median, p90, p99, max */

/* The r-th smallest of v[0..n) (0-based; v reordered): quickselect with a
 * three-way partition (many equal errors stay linear). */
static double nth_smallest(double *v, size_t n, size_t r)
{
    size_t lo = 0, hi = n;
    while (hi - lo > 1) {
        double x = v[lo], y = v[lo + (hi - lo) / 2], z = v[hi - 1];
        double p = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);   /* median of three */
        size_t lt = lo, i = lo, gt = hi;
        while (i < gt) {
            double t = v[i];
            if (t < p)
                v[i++] = v[lt], v[lt++] = t;
            else if (t > p)
                v[i] = v[--gt], v[gt] = t;
            else
                i++;
        }
        if (r < lt)
            hi = lt;
        else if (r >= gt)
            lo = gt;
        else
            return p;
    }
    return v[r];
}

/* Output e's relative error into *rel; false when its reference is 0. */
static inline bool rel_of(const double *got, const double *ref, size_t e, double *rel)
{
    if (ref[e] == 0)
        return false;
    *rel = isfinite(got[e]) ? fabs(got[e] - ref[e]) / fabs(ref[e]) : INFINITY;
    return true;
}

static inline uint32_t bucket_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return (uint32_t)(u >> 48);
}

typedef struct {
    const double *got, *ref;
    size_t n, nslices;
    uint32_t *hist;                      /* nslices x BUCKETS */
    size_t counted[MAX_SLICES], zero[MAX_SLICES], nonfinite[MAX_SLICES];
    int nb;                              /* distinct buckets holding a wanted rank */
    uint32_t bucket[NQ];
    double *members[NQ];
    size_t filled[NQ];                   /* atomic */
} select_job;

static void count_slices(void *ctx, size_t s0, size_t s1)
{
    select_job *j = ctx;
    for (size_t s = s0; s < s1; s++) {
        uint32_t *h = j->hist + s * BUCKETS;
        size_t lo = j->n * s / j->nslices, hi = j->n * (s + 1) / j->nslices, c = 0, z = 0, nf = 0;
        for (size_t e = lo; e < hi; e++) {
            double r;
            nf += !isfinite(j->got[e]);
            if (!rel_of(j->got, j->ref, e, &r)) {
                z++;
                continue;
            }
            h[bucket_of(r)]++;
            c++;
        }
        j->counted[s] = c, j->zero[s] = z, j->nonfinite[s] = nf;
    }
}

static void gather_slices(void *ctx, size_t s0, size_t s1)
{
    select_job *j = ctx;
    for (size_t s = s0; s < s1; s++) {
        size_t lo = j->n * s / j->nslices, hi = j->n * (s + 1) / j->nslices;
        for (size_t e = lo; e < hi; e++) {
            double r;
            if (!rel_of(j->got, j->ref, e, &r))
                continue;
            uint32_t b = bucket_of(r);
            for (int q = 0; q < j->nb; q++)
                if (b == j->bucket[q]) {
                    j->members[q][__atomic_fetch_add(&j->filled[q], 1, __ATOMIC_RELAXED)] = r;
                    break;
                }
        }
    }
}

/* The nearest ranks of median, p90, p99 and max among the counted errors. */
static void quantiles(select_job *j, size_t counted, app_stats *s)
{
    static const double qs[NQ] = {0.5, 0.9, 0.99, 1.0};
    double *out[NQ] = {&s->median, &s->p90, &s->p99, &s->max};
    if (counted == 0) {
        for (int q = 0; q < NQ; q++)
            *out[q] = NAN;
        return;
    }
    /* merged counts, the bucket of each rank and the rank within it */
    uint32_t *h = j->hist;
    for (size_t t = 1; t < j->nslices; t++)
        for (size_t b = 0; b < BUCKETS; b++)
            h[b] += j->hist[t * BUCKETS + b];
    size_t rank[NQ], within[NQ], size[NQ];
    int which[NQ];
    for (int q = 0; q < NQ; q++) {
        size_t r = (size_t)ceil(qs[q] * (double)counted);
        rank[q] = r < 1 ? 0 : r - 1;
        size_t below = 0, b = 0;
        while (below + h[b] <= rank[q])
            below += h[b++];
        within[q] = rank[q] - below, size[q] = h[b];
        int w = 0;
        while (w < j->nb && j->bucket[w] != b)
            w++;
        if (w == j->nb)
            j->bucket[j->nb++] = (uint32_t)b;
        which[q] = w;
    }
    for (int w = 0; w < j->nb; w++) {
        size_t sz = 0;
        for (int q = 0; q < NQ; q++)
            sz = which[q] == w ? size[q] : sz;
        j->members[w] = app_calloc(sz, sizeof *j->members[w]);
        j->filled[w] = 0;
    }
    oracle_parallel(j->nslices, j->n, gather_slices, j);
    for (int q = 0; q < NQ; q++)
        *out[q] = nth_smallest(j->members[which[q]], size[q], within[q]);
    for (int w = 0; w < j->nb; w++)
        free(j->members[w]);
}

void app_stats_of(const double *got, const double *ref, size_t n, app_stats *s)
{
    memset(s, 0, sizeof *s);
    select_job *j = app_calloc(1, sizeof *j);
    j->got = got, j->ref = ref, j->n = n;
    j->nslices = n / SLICE_MIN < 1 ? 1 : n / SLICE_MIN > MAX_SLICES ? MAX_SLICES : n / SLICE_MIN;
    j->hist = app_calloc(j->nslices * BUCKETS, sizeof *j->hist);
    oracle_parallel(j->nslices, n, count_slices, j);
    size_t counted = 0;
    for (size_t t = 0; t < j->nslices; t++)
        counted += j->counted[t], s->zero_ref += j->zero[t], s->nonfinite += j->nonfinite[t];
    s->n = counted;
    quantiles(j, counted, s);
    double num = 0, den = 0;
    for (size_t i = 0; i < n; i++) {   /* in output order: the sums' rounding as before */
        double d = got[i] - ref[i];
        num += d * d;
        den += ref[i] * ref[i];
    }
    s->normwise = s->nonfinite ? INFINITY : den > 0 ? sqrt(num) / sqrt(den) : NAN;
    free(j->hist);
    free(j);
}

/* The two comparisons of app_stats_both, one a thread (each spreads its
 * passes over the cores when it runs alone). */
typedef struct {
    const double *got, *ref[2];
    size_t n;
    app_stats *out[2];
} both_job;

static void both_range(void *ctx, size_t lo, size_t hi)
{
    const both_job *j = ctx;
    for (size_t i = lo; i < hi; i++)
        app_stats_of(j->got, j->ref[i], j->n, j->out[i]);
}

void app_stats_both(const double *got, const double *ref_o, const double *ref_r, size_t n, app_result *r)
{
    double t0 = app_now_s();
    both_job j = {got, {ref_o, ref_r}, n, {&r->vs_orig, &r->vs_rounded}};
    /* large: one after the other, each on every core; small: side by side */
    if (n >= SLICE_MIN * 4)
        both_range(&j, 0, 2);
    else
        oracle_parallel(2, 2 * n, both_range, &j);
    r->stages.metrics_s += app_now_s() - t0;
}

bool app_metric_ok(const char *m)
{
    return !strcmp(m, "median") || !strcmp(m, "p90") || !strcmp(m, "p99") || !strcmp(m, "max") ||
           !strcmp(m, "normwise");
}

double app_stats_get(const app_stats *s, const char *m)
{
    return !strcmp(m, "median") ? s->median
           : !strcmp(m, "p90")  ? s->p90
           : !strcmp(m, "p99")  ? s->p99
           : !strcmp(m, "max")  ? s->max
           : !strcmp(m, "normwise") ? s->normwise
                                    : NAN;
}
