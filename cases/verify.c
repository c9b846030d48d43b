/* verify: model vs target, bit for bit (see verify.h). */
#include "cases/verify.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cases/hunt.h"
#include "cases/infer_internal.h"
#include "oracle/oracle.h"

static const char *dist_names[VERIFY_NDIST] = {"near1", "wide", "cancel", "bits", "adversarial"};

static const char *stage_names[VERIFY_NSTAGES] = {"draw", "execute", "model", "compare"};

const char *verify_stage_name(int i)
{
    return i >= 0 && i < VERIFY_NSTAGES ? stage_names[i] : "?";
}

/* Seconds on the monotonic clock: the stage timings. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Adds the time since *t0 to stage `stage` and restarts *t0. */
static void stage_add(verify_result *r, int stage, double *t0)
{
    double t = now_s();
    r->stage_s[stage] += t - *t0;
    *t0 = t;
}

const char *verify_dist_name(int i)
{
    if (i >= VERIFY_DIST_HUNT && i < VERIFY_NDIST)
        return hunt_family_name(i - VERIFY_DIST_HUNT);
    return i >= 0 && i < VERIFY_DIST_HUNT ? dist_names[i] : "?";
}

static int nonzero_terms(const infer_target *t, const infer_case *c)
{
    int n = 0;
    for (int i = 0; i < c->k; i++)
        n += tc_classify(t->f.a, c->a[i]) != TC_ZERO && tc_classify(t->f.b, c->b[i]) != TC_ZERO;
    return n;
}

static int copy_case(infer_case *dst, const infer_case *src)
{
    *dst = *src;
    dst->a = malloc((size_t)src->k * sizeof *dst->a);
    dst->b = malloc((size_t)src->k * sizeof *dst->b);
    if (!dst->a || !dst->b) {
        free(dst->a);
        free(dst->b);
        dst->a = dst->b = NULL;
        return -1;
    }
    memcpy(dst->a, src->a, (size_t)src->k * sizeof *dst->a);
    memcpy(dst->b, src->b, (size_t)src->k * sizeof *dst->b);
    return 0;
}

/* Keeps failures from as many distributions as it can (at most
 * VERIFY_FAILS_PER_DIST each while others wait), and within that the ones
 * with the fewest nonzero terms: a witness per region, readable. */
#define VERIFY_FAILS_PER_DIST 2

static void keep_failure(verify_result *r, const infer_target *t, const infer_case *c, uint64_t md,
                         int dist)
{
    int nz = nonzero_terms(t, c);
    const char *name = verify_dist_name(dist);
    size_t slot = r->nfails, same = 0;
    for (size_t i = 0; i < r->nfails; i++)
        same += r->fails[i].dist == name;
    if (r->nfails == VERIFY_MAX_FAILS) {
        /* replace the worst of this distribution, or of one holding more than its share */
        size_t worst = VERIFY_MAX_FAILS;
        for (size_t i = 0; i < r->nfails; i++) {
            size_t cnt = 0;
            for (size_t j = 0; j < r->nfails; j++)
                cnt += r->fails[j].dist == r->fails[i].dist;
            bool candidate = same >= VERIFY_FAILS_PER_DIST ? r->fails[i].dist == name
                                                           : cnt > VERIFY_FAILS_PER_DIST;
            if (candidate && (worst == VERIFY_MAX_FAILS ||
                              r->fails[i].nonzero_terms > r->fails[worst].nonzero_terms))
                worst = i;
        }
        if (worst == VERIFY_MAX_FAILS ||
            (same >= VERIFY_FAILS_PER_DIST && r->fails[worst].nonzero_terms <= nz))
            return;
        free(r->fails[worst].c.a);
        free(r->fails[worst].c.b);
        slot = worst;
    } else {
        r->nfails++;
    }
    verify_failure *f = &r->fails[slot];
    if (copy_case(&f->c, c)) {
        if (slot == r->nfails - 1)
            r->nfails--;
        return;
    }
    f->model_d = md;
    f->dist = name;
    f->nonzero_terms = nz;
}

/* Zeroes terms of a failing case while it keeps failing: a readable witness. */
static int shrink(const infer_target *t, const model *m, verify_failure *f, char *err, size_t errlen)
{
    int k = f->c.k;
    uint64_t za = tc_encode_f64(t->f.a, 0.0, (tc_rounding){TC_RNE, TC_OVF_INF, false, 0, false});
    uint64_t zb = tc_encode_f64(t->f.b, 0.0, (tc_rounding){TC_RNE, TC_OVF_INF, false, 0, false});
    for (int round = 0; round < k; round++) {
        cset s = {0};
        int *pos = malloc((size_t)k * sizeof *pos);
        if (!pos)
            return -1;
        int np = 0;
        for (int i = 0; i < k; i++) {
            if (f->c.a[i] == za && f->c.b[i] == zb)
                continue;
            uint64_t a0 = f->c.a[i], b0 = f->c.b[i];
            f->c.a[i] = za;
            f->c.b[i] = zb;
            int rc = cset_add_bits(&s, f->c.family, k, f->c.a, f->c.b, f->c.c);
            f->c.a[i] = a0;
            f->c.b[i] = b0;
            if (rc) {
                free(pos);
                cset_free(&s);
                return -1;
            }
            pos[np++] = i;
        }
        bool progressed = false;
        if (np > 0 && infer_run_cases(t, s.v, s.n, err, errlen) == 0) {
            for (size_t i = 0; i < s.n; i++) {
                uint64_t md = model_dot(m, k, s.v[i].a, s.v[i].b, s.v[i].c);
                if (md != s.v[i].d) {
                    f->c.a[pos[i]] = za;
                    f->c.b[pos[i]] = zb;
                    f->c.d = s.v[i].d;
                    f->model_d = md;
                    f->nonzero_terms = nonzero_terms(t, &f->c);
                    progressed = true;
                    break;
                }
            }
        }
        free(pos);
        cset_free(&s);
        if (!progressed)
            break;
    }
    return 0;
}

/* Fills tile q of a batch (A m x k, B k x n, C m x n) and says which
 * distribution it belongs to. */
typedef int (*tile_fill_fn)(const infer_target *t, void *arg, size_t q, uint64_t *st, uint64_t *A, uint64_t *B,
                            uint64_t *C, uint64_t *ka, uint64_t *kb);

/* nt tiles (A, B, C) through the target (answers into D) and the model
 * (into M), every element compared; tile q is of distribution dist[q], or
 * all of dist1 when dist is NULL. ka and kb hold k elements. */
static int check_tiles(const infer_target *t, const model *m, size_t nt, const uint64_t *A, const uint64_t *B,
                       const uint64_t *C, uint64_t *D, uint64_t *M, const int *dist, int dist1, uint64_t *ka,
                       uint64_t *kb, verify_result *r, char *err, size_t errlen)
{
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, tcn = (size_t)t->m * t->n;
    double t0 = now_s();
    if (t->run(t->ctx, nt, A, B, C, D, err, errlen))
        return -1;
    stage_add(r, VERIFY_STAGE_EXECUTE, &t0);
    if (t->model_run) {
        if (t->model_run(t->model_ctx, m, t->m, t->n, t->k, nt, A, B, C, M, err, errlen))
            return -1;
    } else {
        model_mma(m, t->m, t->n, t->k, nt, A, B, C, M);
    }
    stage_add(r, VERIFY_STAGE_MODEL, &t0);
    for (size_t q = 0; q < nt; q++) {
        int dq = dist ? dist[q] : dist1;
        for (size_t e = 0; e < tcn; e++) {
            size_t o = q * tcn + e;
            r->n++;
            r->dist_n[dq]++;
            if (D[o] == M[o])
                continue;
            r->mismatches++;
            r->dist_mismatches[dq]++;
            int i = (int)(e / (size_t)t->n), j = (int)(e % (size_t)t->n);
            infer_case c = {verify_dist_name(dq), t->k, ka, kb, C[o], D[o]};
            for (int kk = 0; kk < t->k; kk++) {
                ka[kk] = A[q * ta + (size_t)i * t->k + kk];
                kb[kk] = B[q * tb + (size_t)kk * t->n + j];
            }
            keep_failure(r, t, &c, M[o], dq);
        }
    }
    stage_add(r, VERIFY_STAGE_COMPARE, &t0);
    return 0;
}

/* Tiles per call of check_tiles: VERIFY_MAX_N's memory bound (at most 2^21
 * outputs at once, shared by `ways` streams drawn side by side), at most
 * 4096 tiles. */
static size_t chunk_tiles(const infer_target *t, size_t ways)
{
    size_t chunk = ((size_t)1 << 21) / ((size_t)t->m * t->n) / ways;
    return chunk > 4096 ? 4096 : chunk < 1 ? 1 : chunk;
}

/* ntiles tiles through the target and the model, every element compared. */
static int run_tiles(const infer_target *t, const model *m, size_t ntiles, uint64_t seed, tile_fill_fn fill,
                     void *arg, verify_result *r, char *err, size_t errlen)
{
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, tcn = (size_t)t->m * t->n;
    size_t chunk = chunk_tiles(t, 1);
    uint64_t *A = malloc(chunk * ta * sizeof *A), *B = malloc(chunk * tb * sizeof *B);
    uint64_t *C = malloc(chunk * tcn * sizeof *C), *D = malloc(chunk * tcn * sizeof *D);
    uint64_t *M = malloc(chunk * tcn * sizeof *M);
    uint64_t *ka = malloc((size_t)t->k * sizeof *ka), *kb = malloc((size_t)t->k * sizeof *kb);
    int *dist = malloc(chunk * sizeof *dist);
    int rc = 0;
    if (!A || !B || !C || !D || !M || !ka || !kb || !dist) {
        snprintf(err, errlen, "verify: out of memory");
        rc = -1;
        goto out;
    }
    uint64_t st = seed;
    for (size_t done = 0; done < ntiles && rc == 0;) {
        size_t nt = ntiles - done < chunk ? ntiles - done : chunk;
        double t0 = now_s();
        for (size_t q = 0; q < nt; q++)
            dist[q] = fill(t, arg, done + q, &st, A + q * ta, B + q * tb, C + q * tcn, ka, kb);
        stage_add(r, VERIFY_STAGE_DRAW, &t0);
        rc = check_tiles(t, m, nt, A, B, C, D, M, dist, 0, ka, kb, r, err, errlen);
        done += nt;
        if (t->progress)
            t->progress(t->progress_ctx, nt * tcn);
    }
out:
    free(A);
    free(B);
    free(C);
    free(D);
    free(M);
    free(ka);
    free(kb);
    free(dist);
    return rc;
}

/* The four random distributions in turn: rows of A from one random
 * element's a, columns of B likewise. */
static int fill_random(const infer_target *t, void *arg, size_t q, uint64_t *st, uint64_t *A, uint64_t *B,
                       uint64_t *C, uint64_t *ka, uint64_t *kb)
{
    int dd = (int)(q % 4);
    for (int i = 0; i < t->m; i++) {
        uint64_t c0;
        infer_rnd_case(t, st, dd, ka, kb, &c0);
        memcpy(A + (size_t)i * t->k, ka, (size_t)t->k * sizeof *ka);
        if (i < t->n)
            for (int kk = 0; kk < t->k; kk++)
                B[(size_t)kk * t->n + i] = kb[kk];
        for (int j = 0; j < t->n; j++) {
            infer_rnd_case(t, st, dd, ka, kb, &c0);
            C[(size_t)i * t->n + j] = c0;
        }
    }
    for (int j = t->m; j < t->n; j++) {
        uint64_t c0;
        infer_rnd_case(t, st, dd, ka, kb, &c0);
        for (int kk = 0; kk < t->k; kk++)
            B[(size_t)kk * t->n + j] = kb[kk];
    }
    return dd;
}

static int run_random(const infer_target *t, const model *m, size_t n, uint64_t seed, verify_result *r,
                      char *err, size_t errlen)
{
    size_t per_tile = (size_t)t->m * t->n;
    size_t ntiles = (n + per_tile - 1) / per_tile;
    if (ntiles < VERIFY_NDIST_RANDOM)
        ntiles = VERIFY_NDIST_RANDOM;
    return run_tiles(t, m, ntiles, seed ? seed : 0xC0FFEE1234ull, fill_random, NULL, r, err, errlen);
}

/* The hunt families' next nt tiles, each family its own stream (st[f]),
 * drawn side by side: the families are independent, so each is the same
 * stream whichever thread draws it (oracle_parallel). Family f's tiles are
 * tiles f*nt.. of A, B and C: one round is one batch for the target and the
 * model, every family in it. */
typedef struct {
    const infer_target *t;
    size_t nt;
    uint64_t st[HUNT_NFAMILIES];
    uint64_t *A, *B, *C;
} hunt_draw;

static void draw_families(void *ctx, size_t lo, size_t hi)
{
    hunt_draw *h = ctx;
    const infer_target *t = h->t;
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, tcn = (size_t)t->m * t->n;
    for (size_t f = lo; f < hi; f++)
        for (size_t q = f * h->nt; q < (f + 1) * h->nt; q++)
            hunt_fill_tile(t, (int)f, &h->st[f], h->A + q * ta, h->B + q * tb, h->C + q * tcn);
}

/* The next round of every family (h->nt tiles each) on all cores. */
static void draw_round(hunt_draw *h)
{
    const infer_target *t = h->t;
    oracle_parallel(HUNT_NFAMILIES, h->nt * (size_t)t->m * t->n * (size_t)t->k * HUNT_NFAMILIES, draw_families, h);
}

static void *draw_thread(void *arg)
{
    draw_round(arg);
    return NULL;
}

int verify_hunt(const infer_target *t, const model *m, size_t n_per_family, uint64_t seed, verify_result *r,
                char *err, size_t errlen)
{
    if (!hunt_applies(t))
        return 0;
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, tcn = (size_t)t->m * t->n;
    /* two rounds in memory (one drawn while the other is checked) within
     * the bound of one: chunks of half the size */
    size_t ntiles = (n_per_family + tcn - 1) / tcn, chunk = chunk_tiles(t, 2 * HUNT_NFAMILIES);
    chunk = chunk < ntiles ? chunk : ntiles;
    size_t most = chunk * HUNT_NFAMILIES;   /* tiles of a round */
    hunt_draw h[2] = {{.t = t}, {.t = t}};
    uint64_t *D = malloc(most * tcn * sizeof *D), *M = malloc(most * tcn * sizeof *M);
    uint64_t *ka = malloc((size_t)t->k * sizeof *ka), *kb = malloc((size_t)t->k * sizeof *kb);
    int *dist = malloc(most * sizeof *dist);
    bool ok = D && M && ka && kb && dist;
    for (int w = 0; w < 2; w++) {
        h[w].A = malloc(most * ta * sizeof *h[w].A);
        h[w].B = malloc(most * tb * sizeof *h[w].B);
        h[w].C = malloc(most * tcn * sizeof *h[w].C);
        ok = ok && h[w].A && h[w].B && h[w].C;
    }
    int rc = ok ? 0 : -1;
    if (!ok)
        snprintf(err, errlen, "verify: out of memory");
    for (int f = 0; f < HUNT_NFAMILIES; f++)
        h[0].st[f] = hunt_family_seed(seed, f);
    /* Each family's stream goes on from round to round (the same tiles
     * whatever the chunk); a round draws every family's next chunk, then
     * checks them in family order, one batch, while the next round is drawn
     * on a thread of its own (the "draw" stage: the wait for it). */
    int cur = 0;
    double t0 = now_s();
    if (rc == 0 && ntiles) {
        h[0].nt = chunk;
        draw_round(&h[0]);
    }
    stage_add(r, VERIFY_STAGE_DRAW, &t0);
    for (size_t done = 0; done < ntiles && rc == 0;) {
        hunt_draw *now = &h[cur], *next = &h[cur ^ 1];
        size_t after = done + now->nt;
        pthread_t th;
        bool drawing = false;
        if (after < ntiles) {
            memcpy(next->st, now->st, sizeof next->st);
            next->nt = ntiles - after < chunk ? ntiles - after : chunk;
            drawing = pthread_create(&th, NULL, draw_thread, next) == 0;
            if (!drawing) {
                t0 = now_s();
                draw_round(next);
                stage_add(r, VERIFY_STAGE_DRAW, &t0);
            }
        }
        for (size_t q = 0; q < now->nt * HUNT_NFAMILIES; q++)
            dist[q] = VERIFY_DIST_HUNT + (int)(q / now->nt);
        rc = check_tiles(t, m, now->nt * HUNT_NFAMILIES, now->A, now->B, now->C, D, M, dist, 0, ka, kb, r, err,
                         errlen);
        if (drawing) {
            t0 = now_s();
            pthread_join(th, NULL);
            stage_add(r, VERIFY_STAGE_DRAW, &t0);
        }
        if (t->progress)
            t->progress(t->progress_ctx, now->nt * tcn * HUNT_NFAMILIES);
        done = after;
        cur ^= 1;
    }
    for (int w = 0; w < 2; w++) {
        free(h[w].A);
        free(h[w].B);
        free(h[w].C);
    }
    free(D);
    free(M);
    free(ka);
    free(kb);
    free(dist);
    return rc;
}

int verify_run(const infer_target *t, const model_params *p, size_t n, size_t n_hunt, uint64_t seed,
               verify_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    model *m = model_new(p, t->f, err, errlen);
    if (!m)
        return -1;
    int rc = n ? run_random(t, m, n, seed, out, err, errlen) : 0;
    if (rc == 0 && n_hunt)
        rc = verify_hunt(t, m, n_hunt, seed, out, err, errlen);
    if (rc == 0) {
        cset s = {0};
        infer_target t2 = *t;
        t2.random_cases = 1;
        rc = infer_build_cases(&t2, &s);
        if (rc)
            snprintf(err, errlen, "verify: out of memory");
        if (rc == 0)
            rc = infer_run_cases(t, s.v, s.n, err, errlen);
        for (size_t i = 0; rc == 0 && i < s.n; i++) {
            uint64_t md = model_dot(m, s.v[i].k, s.v[i].a, s.v[i].b, s.v[i].c);
            out->n++;
            out->dist_n[VERIFY_DIST_ADVERSARIAL]++;
            if (md != s.v[i].d) {
                out->mismatches++;
                out->dist_mismatches[VERIFY_DIST_ADVERSARIAL]++;
                keep_failure(out, t, &s.v[i], md, VERIFY_DIST_ADVERSARIAL);
            }
        }
        cset_free(&s);
    }
    for (size_t i = 0; rc == 0 && i < out->nfails && i < 4; i++)
        rc = shrink(t, m, &out->fails[i], err, errlen);
    model_free(m);
    if (rc)
        verify_result_free(out);
    return rc;
}

void verify_result_free(verify_result *r)
{
    for (size_t i = 0; i < r->nfails; i++) {
        free(r->fails[i].c.a);
        free(r->fails[i].c.b);
    }
    memset(r, 0, sizeof *r);
}
