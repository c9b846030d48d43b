/* The MPFR-built grid reference for float32 -> format conversions, shared by
 * tools/exhaustive_f32.c (all 2^32 inputs, all cores) and
 * tests/test_cvt_sweep.c (2^24 inputs in CI).
 *
 * MPFR per input would take days, but rounding is monotone: MPFR builds each
 * format's grid once (every representable value from its fields, and every
 * midpoint, each checked to be exactly a float32), and the reference for an
 * input is an exact float comparison against that grid, walked in input
 * order. The rounding rules (formats.h's documented policy) are written out
 * here again, not taken from formats/.
 *
 * grid_sweep(f, log2n, threads, self_test, out): 2^log2n inputs (2^(log2n-1)
 * magnitudes spread evenly, both signs) through tc_encode_f32_array for every
 * combination; self_test flips the reference's tie-breaking bit, so the
 * sweep must then report mismatches (it can fail).
 */
#ifndef TC_TEST_FORMATS_GRID_H
#define TC_TEST_FORMATS_GRID_H

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <mpfr.h>

#include "formats/formats.h"
#include "tests/test_formats_ref.h"

/* Combinations: 7 modes x 3 overflow modes, then 7 modes with ftz, then 7
 * with daz (subnormal float32 inputs read as zero). The numbering of the
 * first 28 is that of the recorded runs (their hashes are per combination). */
#define NCOMBO 35
static inline tc_rounding combo(int c)
{
    tc_rounding r = {.mode = (tc_round)(c % 7), .ovf = (tc_overflow)(c < 21 ? c / 7 : 0),
                     .ftz = c >= 21 && c < 28, .daz = c >= 28};
    return r;
}

/* The random bits of input u for stochastic rounding: a fixed mix. */
static inline uint32_t rbits_of(uint32_t u)
{
    uint32_t h = u * 0x9E3779B1u;
    return h ^ (h >> 15) ^ (u << 7);
}

/* A format's nonnegative grid: values g[0] < g[1] < ... < g[n-1] (finite,
 * as floats), their codes, and mid[k] between g[k] and g[k+1]; g[n-1] is the
 * first point beyond max finite (unbounded exponent range), a float too. */
typedef struct {
    const tc_format *f;
    int n;
    float *g, *mid;
    uint32_t *code;
    int *log2ulp;   /* exponent of g[k+1] - g[k] */
    bool *odd;      /* last significand bit of g[k] */
    int nmax;       /* index of max finite */
} grid;

static inline int check_float(const mpfr_t v, float *out)
{
    *out = mpfr_get_flt(v, MPFR_RNDN);
    return mpfr_cmp_d(v, (double)*out) == 0 && isfinite(*out);
}

static inline grid build_grid(const tc_format *f)
{
    grid G = {.f = f};
    uint64_t ncodes = 1ull << (f->ebits + f->mbits);
    G.g = calloc(ncodes + 2, sizeof(float));
    G.mid = calloc(ncodes + 2, sizeof(float));
    G.code = calloc(ncodes + 2, sizeof(uint32_t));
    G.log2ulp = calloc(ncodes + 2, sizeof(int));
    G.odd = calloc(ncodes + 2, sizeof(bool));
    mpfr_t v, w, m;
    mpfr_inits2(256, v, w, m, (mpfr_ptr)0);
    int n = 0;
    for (uint64_t c = 0; c < ncodes; c++) {
        if (ref_read_fields(f, c << f->shift, v) != REF_FIN)
            break;   /* codes are ordered: the first non-finite ends the finite ones */
        if (!check_float(v, &G.g[n])) {
            fprintf(stderr, "exhaustive_f32: %s code 0x%llx is not a float32\n", f->name,
                    (unsigned long long)c);
            exit(2);
        }
        if (n && !(G.g[n] > G.g[n - 1])) {
            fprintf(stderr, "exhaustive_f32: %s codes not increasing at 0x%llx\n", f->name,
                    (unsigned long long)c);
            exit(2);
        }
        G.code[n] = (uint32_t)c;
        G.odd[n] = ref_odd(f, v);
        n++;
    }
    G.nmax = n - 1;
    /* One point beyond max: max + its ulp (exact in bz; as a float it may be
     * +inf, which still bounds every finite input). */
    mpfr_t bz;
    mpfr_init2(bz, 256);
    mpfr_set_flt(v, G.g[G.nmax], MPFR_RNDN);
    mpfr_set_ui_2exp(w, 1, ref_ulp_exp(f, v), MPFR_RNDN);
    mpfr_add(bz, v, w, MPFR_RNDN);
    G.g[n] = mpfr_get_flt(bz, MPFR_RNDN);
    G.code[n] = UINT32_MAX;
    n++;
    for (int k = 0; k + 1 < n; k++) {
        mpfr_set_flt(v, G.g[k], MPFR_RNDN);
        if (k + 1 == n - 1)
            mpfr_set(w, bz, MPFR_RNDN);
        else
            mpfr_set_flt(w, G.g[k + 1], MPFR_RNDN);
        mpfr_sub(m, w, v, MPFR_RNDN);
        long e = mpfr_get_exp(m) - 1;
        mpfr_set_ui_2exp(v, 1, e, MPFR_RNDN);
        if (!mpfr_equal_p(m, v)) {
            fprintf(stderr, "exhaustive_f32: %s step %d is not a power of two\n", f->name, k);
            exit(2);
        }
        G.log2ulp[k] = (int)e;
        mpfr_set_flt(v, G.g[k], MPFR_RNDN);
        mpfr_add(m, v, w, MPFR_RNDN);
        mpfr_div_2ui(m, m, 1, MPFR_RNDN);
        if (!check_float(m, &G.mid[k])) {
            fprintf(stderr, "exhaustive_f32: %s midpoint %d is not a float32\n", f->name, k);
            exit(2);
        }
    }
    mpfr_clear(bz);
    G.n = n;
    mpfr_clears(v, w, m, (mpfr_ptr)0);
    return G;
}

/* The documented policy (formats.h), written out once more here. */
static inline uint64_t sgnbit(const tc_format *f, bool s)
{
    return f->has_sign && s ? (1ull << (f->ebits + f->mbits)) << f->shift : 0;
}

static inline uint64_t expect_overflow(const grid *G, bool s, tc_rounding r)
{
    const tc_format *f = G->f;
    uint64_t maxb = sgnbit(f, s) | ((uint64_t)G->code[G->nmax] << f->shift);
    if (f->specials == TC_SPECIALS_NONE || r.ovf == TC_OVF_SAT)
        return maxb;
    if (f->specials == TC_SPECIALS_E8M0)
        return f->nan_bits;
    if (r.ovf == TC_OVF_NAN)
        return sgnbit(f, s) | f->nan_bits;
    bool away = r.mode == TC_RNE || r.mode == TC_RNA || r.mode == TC_RS ||
                (r.mode == TC_RU && !s) || (r.mode == TC_RD && s);
    if (!away)
        return maxb;
    if (f->specials == TC_SPECIALS_IEEE)
        return sgnbit(f, s) | ((((1ull << f->ebits) - 1) << f->mbits) << f->shift);
    return sgnbit(f, s) | f->nan_bits;
}

static inline uint64_t expect_inf(const grid *G, bool s, tc_rounding r)
{
    const tc_format *f = G->f;
    if (f->specials == TC_SPECIALS_NONE || r.ovf == TC_OVF_SAT)
        return sgnbit(f, s) | ((uint64_t)G->code[G->nmax] << f->shift);
    if (f->specials == TC_SPECIALS_IEEE)
        return sgnbit(f, s) | ((((1ull << f->ebits) - 1) << f->mbits) << f->shift);
    if (f->specials == TC_SPECIALS_E8M0)
        return f->nan_bits;
    return sgnbit(f, s) | f->nan_bits;
}

/* Where a finite magnitude x lies: g[k] <= x < g[k+1]; rel = -1/0/+1 against
 * mid[k] (or 2 when x == g[k]); frac = first 32 bits of (x - g[k]) / ulp. */
typedef struct {
    int k;
    int rel;
    uint32_t frac;
} where;

static inline uint64_t expect_finite(const grid *G, where w, bool s, tc_rounding r, uint32_t rb)
{
    const tc_format *f = G->f;
    bool e8m0 = f->specials == TC_SPECIALS_E8M0;
    if (e8m0)
        s = false;
    int j = w.k;
    if (w.k < 0) {
        j = 0;   /* below the smallest grid point: only E8M0 (no zero) */
    } else if (w.rel != 2) {
        bool up;
        switch (r.mode) {
        case TC_RNE: up = w.rel > 0 || (w.rel == 0 && G->odd[w.k]); break;
        case TC_RNA: up = w.rel >= 0; break;
        case TC_RZ: up = false; break;
        case TC_RU: up = !s; break;
        case TC_RD: up = s; break;
        case TC_RO: up = !G->odd[w.k]; break;
        default: up = (uint64_t)w.frac + rb >= (1ull << 32); break;
        }
        j = w.k + up;
    }
    if (j > G->nmax)
        return expect_overflow(G, s, r);
    uint32_t code = G->code[j];
    if (r.ftz && !e8m0 && code != 0 && code < (1u << f->mbits))
        code = 0;
    return sgnbit(f, s) | ((uint64_t)code << f->shift);
}

static inline uint64_t fnv(uint64_t h, uint64_t v)
{
    return (h ^ v) * 0x100000001b3ull;
}

typedef struct {
    uint32_t in;
    uint64_t got, want;
} mismatch;

typedef struct {
    const grid *G;
    uint32_t lo, hi;     /* magnitudes [lo, hi) of this thread (bits of |x|) */
    uint32_t stride;
    uint64_t mism[NCOMBO];
    uint64_t *hash;      /* per 2^16-magnitude block and combo */
    mismatch first[NCOMBO][4];
    int nfirst[NCOMBO];
    atomic_uint_fast64_t blocks_done;   /* read by grid_sweep_progress's caller thread */
} job;

#define BLK 4096u

static inline void *run_job(void *arg)
{
    job *J = arg;
    const grid *G = J->G;
    float in[2 * BLK];
    uint32_t rb[2 * BLK];
    where wh[BLK];
    uint64_t out[2 * BLK];
    /* Start: the first k with g[k] <= lo. */
    int k = -1;
    for (uint32_t u0 = J->lo; u0 < J->hi; u0 += BLK * J->stride) {
        uint32_t m = 0;
        for (uint32_t u = u0; u < J->hi && m < BLK; u += J->stride, m++) {
            uint32_t neg = u | 0x80000000u;
            memcpy(&in[2 * m], &u, 4);
            memcpy(&in[2 * m + 1], &neg, 4);
            rb[2 * m] = rbits_of(u);
            rb[2 * m + 1] = rbits_of(neg);
            float x = in[2 * m];
            if (u > 0x7f800000u)
                continue;   /* NaN: expected set below */
            while (k + 1 < G->n && G->g[k + 1] <= x)
                k++;
            where w = {.k = k, .rel = 2, .frac = 0};
            if (k >= 0 && x != G->g[k]) {
                w.rel = x < G->mid[k] ? -1 : (x > G->mid[k] ? 1 : 0);
                double d = (double)x - (double)G->g[k];
                w.frac = (uint32_t)floor(ldexp(d, 32 - G->log2ulp[k]));
            } else if (k < 0) {
                w.rel = -1;
            }
            wh[m] = w;
        }
        uint64_t blockidx = (u0 - J->lo) / (BLK * J->stride);
        for (int c = 0; c < NCOMBO; c++) {
            tc_rounding r = combo(c);
            tc_encode_f32_array(G->f, in, out, 2 * m, r, r.mode == TC_RS ? rb : NULL);
            uint64_t h = 0xcbf29ce484222325ull;
            for (uint32_t i = 0; i < 2 * m; i++) {
                uint32_t u;
                memcpy(&u, &in[i], 4);
                uint32_t a = u & 0x7fffffffu;
                bool s = u >> 31;
                uint64_t want;
                if (a > 0x7f800000u)
                    want = G->f->specials == TC_SPECIALS_NONE
                               ? (uint64_t)G->code[G->nmax] << G->f->shift
                               : G->f->nan_bits;
                else if (a == 0x7f800000u)
                    want = expect_inf(G, s, r);
                else if (a == 0 || (r.daz && a < 0x00800000u))   /* zero, or a subnormal read as zero */
                    want = G->f->specials == TC_SPECIALS_E8M0 ? 0 : sgnbit(G->f, s);
                else if (wh[i / 2].k >= G->n - 1)
                    want = expect_overflow(G, G->f->specials == TC_SPECIALS_E8M0 ? false : s, r);
                else
                    want = expect_finite(G, wh[i / 2], s, r, rb[i]);
                h = fnv(h, out[i]);
                if (out[i] != want) {
                    J->mism[c]++;
                    if (J->nfirst[c] < 4)
                        J->first[c][J->nfirst[c]++] = (mismatch){u, out[i], want};
                }
            }
            J->hash[blockidx * NCOMBO + c] = h;
        }
        atomic_fetch_add_explicit(&J->blocks_done, 1, memory_order_relaxed);
    }
    return NULL;
}

/* One combination's outcome over all threads. */
typedef struct {
    uint64_t inputs, mismatches, hash;
    mismatch first[4];
    int nfirst;
} grid_result;

/* Sweeps f (see the top of this file); 0, or -1 when log2n or threads are
 * out of range. tick (NULL: none) hears the inputs done so far, about
 * every 0.2 s, from the calling thread. */
static inline int grid_sweep_progress(const tc_format *f, int log2n, int threads, bool self_test,
                                      grid_result out[NCOMBO], void (*tick)(void *ctx, uint64_t inputs), void *ctx)
{
    if (threads < 1 || threads > 256 || log2n < 16 || log2n > 32)
        return -1;
    uint32_t stride = 1u << (32 - log2n);
    uint64_t nmag = 1ull << (log2n - 1);
    grid G = build_grid(f);
    if (self_test)
        for (int k = 0; k < G.n; k++)
            G.odd[k] = !G.odd[k];
    job *jobs = calloc((size_t)threads, sizeof *jobs);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    /* Each thread gets whole blocks, so the hash layout does not depend
     * on the thread count. */
    uint64_t nblocks = (nmag + BLK - 1) / BLK;
    for (int t = 0; t < threads; t++) {
        uint64_t b0 = nblocks * (uint64_t)t / (uint64_t)threads;
        uint64_t b1 = nblocks * (uint64_t)(t + 1) / (uint64_t)threads;
        jobs[t].G = &G;
        jobs[t].stride = stride;
        jobs[t].lo = (uint32_t)(b0 * BLK * stride);
        jobs[t].hi = (uint32_t)(b1 * BLK * stride < (1ull << 31) ? b1 * BLK * stride : (1ull << 31));
        jobs[t].hash = calloc((size_t)(b1 - b0 + 1) * NCOMBO, sizeof(uint64_t));
        pthread_create(&tid[t], NULL, run_job, &jobs[t]);
    }
    for (uint64_t done = 0; tick && done < nblocks;) {
        struct timespec nap = {0, 200 * 1000 * 1000};
        nanosleep(&nap, NULL);
        done = 0;
        for (int t = 0; t < threads; t++)
            done += atomic_load_explicit(&jobs[t].blocks_done, memory_order_relaxed);
        tick(ctx, done * BLK * 2 < 2 * nmag ? done * BLK * 2 : 2 * nmag);
    }
    for (int t = 0; t < threads; t++)
        pthread_join(tid[t], NULL);
    for (int c = 0; c < NCOMBO; c++) {
        grid_result *o = &out[c];
        memset(o, 0, sizeof *o);
        o->inputs = 2 * nmag;
        o->hash = 0xcbf29ce484222325ull;
        for (int t = 0; t < threads; t++) {
            o->mismatches += jobs[t].mism[c];
            uint64_t nb = (jobs[t].hi - jobs[t].lo + (uint64_t)BLK * stride - 1) / ((uint64_t)BLK * stride);
            for (uint64_t b = 0; b < nb; b++)
                o->hash = fnv(o->hash, jobs[t].hash[b * NCOMBO + c]);
            for (int i = 0; i < jobs[t].nfirst[c] && o->nfirst < 4; i++)
                o->first[o->nfirst++] = jobs[t].first[c][i];
        }
    }
    for (int t = 0; t < threads; t++)
        free(jobs[t].hash);
    free(jobs);
    free(tid);
    free(G.g);
    free(G.mid);
    free(G.code);
    free(G.log2ulp);
    free(G.odd);
    return 0;
}

static inline int grid_sweep(const tc_format *f, int log2n, int threads, bool self_test, grid_result out[NCOMBO])
{
    return grid_sweep_progress(f, log2n, threads, self_test, out, NULL, NULL);
}

#endif
