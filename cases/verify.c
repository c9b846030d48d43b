/* verify: model vs target, bit for bit (see verify.h). */
#include "cases/verify.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cases/hunt.h"
#include "cases/infer_internal.h"
#include "cases/random_draw.h"
#include "oracle/oracle.h"
#include "probes/clock.h"

/* "cancel_pairs", not "cancel": that is a hunt family's name, and records
 * key the distributions by name (until 2026-11-30 the family's count
 * replaced this one's there). */
static const char *dist_names[VERIFY_NDIST] = {"near1", "wide", "cancel_pairs", "bits", "adversarial"};

static const char *stage_names[VERIFY_NSTAGES] = {"draw", "execute", "model", "compare"};

const char *verify_stage_name(int i)
{
    return i >= 0 && i < VERIFY_NSTAGES ? stage_names[i] : "?";
}

const char *verify_hunt_path(const verify_result *r)
{
    return !r->hunt_gpu ? NULL : r->hunt_host_draw ? "host" : "gpu";
}

const char *verify_random_path(const verify_result *r)
{
    return r->random_gpu ? "gpu" : NULL;
}

void verify_stage_add(verify_result *r, int stage, double *t0)
{
    double t = tc_now_s();
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

/* Failures of one distribution: by name, not by the name's address (the
 * linker may merge equal strings of two tables, or keep two copies). */
static bool same_dist(const char *a, const char *b)
{
    return !strcmp(a, b);
}

void verify_keep_failure(verify_result *r, const infer_target *t, const infer_case *c, uint64_t md, int dist)
{
    int nz = nonzero_terms(t, c);
    const char *name = verify_dist_name(dist);
    size_t slot = r->nfails, same = 0;
    for (size_t i = 0; i < r->nfails; i++)
        same += same_dist(r->fails[i].dist, name);
    if (r->nfails == VERIFY_MAX_FAILS) {
        /* replace the worst of this distribution, or of one holding more than its share */
        size_t worst = VERIFY_MAX_FAILS;
        for (size_t i = 0; i < r->nfails; i++) {
            size_t cnt = 0;
            for (size_t j = 0; j < r->nfails; j++)
                cnt += same_dist(r->fails[j].dist, r->fails[i].dist);
            bool candidate = same >= VERIFY_FAILS_PER_DIST ? same_dist(r->fails[i].dist, name)
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

/* nt tiles (A, B, C) through the target (answers into D) and the model
 * (into M), every element compared; tile q is of distribution dist[q].
 * ka and kb hold k elements. */
static int check_tiles(const infer_target *t, const model *m, size_t nt, const uint64_t *A, const uint64_t *B,
                       const uint64_t *C, uint64_t *D, uint64_t *M, const int *dist, uint64_t *ka,
                       uint64_t *kb, verify_result *r, char *err, size_t errlen)
{
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, tcn = (size_t)t->m * t->n;
    double t0 = tc_now_s();
    if (t->run(t->ctx, nt, A, B, C, D, err, errlen))
        return -1;
    verify_stage_add(r, VERIFY_STAGE_EXECUTE, &t0);
    if (t->model_run) {
        if (t->model_run(t->model_ctx, m, t->m, t->n, t->k, nt, A, B, C, M, err, errlen))
            return -1;
    } else {
        model_mma(m, t->m, t->n, t->k, nt, A, B, C, M);
    }
    verify_stage_add(r, VERIFY_STAGE_MODEL, &t0);
    for (size_t q = 0; q < nt; q++) {
        int dq = dist[q];
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
            verify_keep_failure(r, t, &c, M[o], dq);
        }
    }
    verify_stage_add(r, VERIFY_STAGE_COMPARE, &t0);
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

/* ---- rounds: the next batch of tiles drawn while one is checked ----
 *
 * A drawer fills a round (a batch of tiles and the distribution of each)
 * going on from where its round before ended; rounds are drawn one after
 * another, never two at once, so a drawer's state needs no lock. Round i+1
 * is drawn on a thread of its own (the drawer spreads it over the cores)
 * while round i goes through the target and the model: the wall time tends
 * to the slower of the two, and the tiles, and so the results, are the ones
 * a single stream drawn in turn gives. */
typedef struct {
    size_t nt;            /* tiles in it; 0: the drawer is done */
    uint64_t *A, *B, *C;
    int *dist;
} round_tiles;

typedef void (*round_draw_fn)(void *drawer, round_tiles *rt);

typedef struct {
    round_draw_fn draw;
    void *drawer;
    round_tiles *rt;
} round_job;

static void *draw_thread(void *arg)
{
    round_job *j = arg;
    j->draw(j->drawer, j->rt);
    return NULL;
}

/* The two rounds' memory, the answers' and the drawer; `pending`: round 0
 * is being drawn on thread `th` (rounds_start). */
typedef struct {
    round_tiles rt[2];
    uint64_t *D, *M, *ka, *kb;
    round_draw_fn draw;
    void *drawer;
    round_job first;
    pthread_t th;
    bool pending;
} rounds;

static void rounds_free(rounds *rs)
{
    if (rs->pending)
        pthread_join(rs->th, NULL);
    rs->pending = false;
    for (int w = 0; w < 2; w++) {
        free(rs->rt[w].A);
        free(rs->rt[w].B);
        free(rs->rt[w].C);
        free(rs->rt[w].dist);
    }
    free(rs->D);
    free(rs->M);
    free(rs->ka);
    free(rs->kb);
    memset(rs, 0, sizeof *rs);
}

/* Memory for rounds of at most `most` tiles of t, and round 0 started on a
 * thread of its own (drawn here if none starts). 0, or -1 with err. */
static int rounds_start(const infer_target *t, size_t most, round_draw_fn draw, void *drawer, rounds *rs,
                        char *err, size_t errlen)
{
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, tcn = (size_t)t->m * t->n;
    memset(rs, 0, sizeof *rs);
    rs->D = malloc(most * tcn * sizeof *rs->D);
    rs->M = malloc(most * tcn * sizeof *rs->M);
    rs->ka = malloc((size_t)t->k * sizeof *rs->ka);
    rs->kb = malloc((size_t)t->k * sizeof *rs->kb);
    bool ok = rs->D && rs->M && rs->ka && rs->kb;
    for (int w = 0; w < 2; w++) {
        rs->rt[w] = (round_tiles){0, malloc(most * ta * sizeof *rs->rt[w].A), malloc(most * tb * sizeof *rs->rt[w].B),
                                  malloc(most * tcn * sizeof *rs->rt[w].C), malloc(most * sizeof *rs->rt[w].dist)};
        ok = ok && rs->rt[w].A && rs->rt[w].B && rs->rt[w].C && rs->rt[w].dist;
    }
    if (!ok) {
        rounds_free(rs);
        snprintf(err, errlen, "verify: out of memory");
        return -1;
    }
    rs->draw = draw;
    rs->drawer = drawer;
    rs->first = (round_job){draw, drawer, &rs->rt[0]};
    rs->pending = pthread_create(&rs->th, NULL, draw_thread, &rs->first) == 0;
    if (!rs->pending)
        draw(drawer, &rs->rt[0]);
    return 0;
}

/* Every round of rs through the target and the model, every element
 * compared, rs freed. The "draw" stage is the wait for round 0 and for
 * each next one. */
static int rounds_run(const infer_target *t, const model *m, rounds *rs, verify_result *r, char *err,
                      size_t errlen)
{
    size_t tcn = (size_t)t->m * t->n;
    double t0 = tc_now_s();
    if (rs->pending)
        pthread_join(rs->th, NULL);
    rs->pending = false;
    verify_stage_add(r, VERIFY_STAGE_DRAW, &t0);
    int rc = 0, cur = 0;
    round_tiles *rt = rs->rt;
    while (rc == 0 && rt[cur].nt) {
        round_job j = {rs->draw, rs->drawer, &rt[cur ^ 1]};
        pthread_t th;
        bool drawing = pthread_create(&th, NULL, draw_thread, &j) == 0;
        if (!drawing) {   /* no thread: drawn here, in turn */
            t0 = tc_now_s();
            j.draw(j.drawer, j.rt);
            verify_stage_add(r, VERIFY_STAGE_DRAW, &t0);
        }
        rc = check_tiles(t, m, rt[cur].nt, rt[cur].A, rt[cur].B, rt[cur].C, rs->D, rs->M, rt[cur].dist, rs->ka,
                         rs->kb, r, err, errlen);
        if (drawing) {
            t0 = tc_now_s();
            pthread_join(th, NULL);
            verify_stage_add(r, VERIFY_STAGE_DRAW, &t0);
        }
        if (t->progress)
            t->progress(t->progress_ctx, rt[cur].nt * tcn);
        cur ^= 1;
    }
    rounds_free(rs);
    return rc;
}

/* ---- the random tiles ---- */

rd_shape verify_random_shape(const infer_target *t)
{
    return infer_rnd_shape(t);
}

size_t verify_random_tiles(const infer_target *t, size_t n)
{
    size_t per_tile = (size_t)t->m * t->n, ntiles = (n + per_tile - 1) / per_tile;
    return ntiles < VERIFY_NDIST_RANDOM ? VERIFY_NDIST_RANDOM : ntiles;
}

/* The random stream's drawer: each tile of a round gets its state from a
 * cheap pass (rd_skip_tile), then the tiles are drawn on every core. */
typedef struct {
    const infer_target *t;
    rd_shape s;                   /* t for the draw */
    size_t ntiles, done, chunk;   /* tiles: all, drawn, a round's */
    uint64_t st;                  /* the stream at tile `done` */
    uint64_t *start;              /* the round's tiles' states (chunk) */
    round_tiles *rt;              /* the round being drawn */
} random_drawer;

static void draw_random_range(void *ctx, size_t lo, size_t hi)
{
    const random_drawer *d = ctx;
    const infer_target *t = d->t;
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, tcn = (size_t)t->m * t->n;
    for (size_t q = lo; q < hi; q++) {
        uint64_t st = d->start[q];
        d->rt->dist[q] = rd_fill_tile(&d->s, d->done + q, &st, d->rt->A + q * ta, d->rt->B + q * tb,
                                      d->rt->C + q * tcn);
    }
}

static void draw_random_round(void *drawer, round_tiles *rt)
{
    random_drawer *d = drawer;
    const infer_target *t = d->t;
    size_t nt = d->ntiles - d->done < d->chunk ? d->ntiles - d->done : d->chunk;
    for (size_t q = 0; q < nt; q++) {
        d->start[q] = d->st;
        rd_skip_tile(&d->s, d->done + q, &d->st);
    }
    d->rt = rt;
    rt->nt = nt;
    oracle_parallel(nt, nt * (size_t)t->m * t->n * (size_t)t->k, draw_random_range, d);
    d->done += nt;
}

static int run_random(const infer_target *t, const model *m, size_t n, uint64_t seed, verify_result *r,
                      char *err, size_t errlen)
{
    size_t ntiles = verify_random_tiles(t, n);
    if (t->k > INFER_KMAX) {
        snprintf(err, errlen, "verify: K %d over %d", t->k, INFER_KMAX);
        return -1;
    }
    size_t chunk = chunk_tiles(t, 2);   /* two rounds in the memory one took */
    random_drawer d = {t, verify_random_shape(t), ntiles, 0, chunk, seed ? seed : RD_SEED_DEFAULT,
                       malloc(chunk * sizeof *d.start), NULL};
    if (!d.start) {
        snprintf(err, errlen, "verify: out of memory");
        return -1;
    }
    rounds rs;
    int rc = rounds_start(t, chunk, draw_random_round, &d, &rs, err, errlen);
    rc = rc ? rc : rounds_run(t, m, &rs, r, err, errlen);
    free(d.start);
    return rc;
}

/* ---- the hunt families ---- */

/* Every family's next tiles, each family its own stream (st[f]) going on
 * from round to round (the same tiles whatever the round's size), drawn
 * side by side: the families are independent, so each is the same stream
 * whichever thread draws it (oracle_parallel). Family f's tiles are tiles
 * f*nt.. of a round: one batch for the target and the model. */
typedef struct {
    const infer_target *t;
    size_t ntiles, done, chunk, nt;   /* tiles per family: all, drawn, a round's most, this round's */
    hunt_draw draw;                   /* HUNT_DRAW_TILE: tile q's state from hunt_tile_seed, st unused */
    uint64_t seed;
    uint64_t st[HUNT_NFAMILIES];
    round_tiles *rt;                  /* the round being drawn */
} hunt_drawer;

static void draw_families(void *ctx, size_t lo, size_t hi)
{
    hunt_drawer *h = ctx;   /* a range advances only its own families' streams */
    const infer_target *t = h->t;
    size_t ta = (size_t)t->m * t->k, tb = (size_t)t->k * t->n, tcn = (size_t)t->m * t->n;
    for (size_t f = lo; f < hi; f++)
        for (size_t q = f * h->nt; q < (f + 1) * h->nt; q++) {
            if (h->draw == HUNT_DRAW_TILE)
                h->st[f] = hunt_tile_seed(h->seed, (int)f, h->done + (q - f * h->nt));
            hunt_fill_tile(t, (int)f, &h->st[f], h->rt->A + q * ta, h->rt->B + q * tb, h->rt->C + q * tcn);
        }
}

static void draw_hunt_round(void *drawer, round_tiles *rt)
{
    hunt_drawer *h = drawer;
    const infer_target *t = h->t;
    h->nt = h->ntiles - h->done < h->chunk ? h->ntiles - h->done : h->chunk;
    h->rt = rt;
    rt->nt = h->nt * HUNT_NFAMILIES;
    oracle_parallel(HUNT_NFAMILIES, rt->nt * (size_t)t->m * t->n * (size_t)t->k, draw_families, h);
    for (size_t q = 0; q < rt->nt; q++)
        rt->dist[q] = VERIFY_DIST_HUNT + (int)(q / h->nt);
    h->done += h->nt;
}

struct verify_hunt_ahead {
    infer_target t;   /* the drawer's copy: its shape and formats */
    hunt_drawer h;
    rounds rs;
};

verify_hunt_ahead *verify_hunt_start(const infer_target *t, size_t n_per_family, uint64_t seed, hunt_draw draw,
                                     char *err, size_t errlen)
{
    verify_hunt_ahead *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(err, errlen, "verify: out of memory");
        return NULL;
    }
    a->t = *t;
    if (!hunt_applies(t))
        return a;   /* nothing to draw */
    size_t tcn = (size_t)t->m * t->n;
    /* two rounds in memory within the bound of one: chunks of half the size */
    size_t ntiles = (n_per_family + tcn - 1) / tcn, chunk = chunk_tiles(t, 2 * HUNT_NFAMILIES);
    chunk = chunk < ntiles ? chunk : ntiles;
    a->h = (hunt_drawer){.t = &a->t, .ntiles = ntiles, .chunk = chunk, .draw = draw, .seed = seed};
    for (int f = 0; f < HUNT_NFAMILIES; f++)
        a->h.st[f] = hunt_family_seed(seed, f);
    if (ntiles && rounds_start(&a->t, chunk * HUNT_NFAMILIES, draw_hunt_round, &a->h, &a->rs, err, errlen)) {
        free(a);
        return NULL;
    }
    return a;
}

int verify_hunt_finish(verify_hunt_ahead *a, const infer_target *t, const model *m, verify_result *r, char *err,
                       size_t errlen)
{
    int rc = a->rs.draw ? rounds_run(t, m, &a->rs, r, err, errlen) : 0;
    free(a);
    return rc;
}

void verify_hunt_drop(verify_hunt_ahead *a)
{
    if (!a)
        return;
    rounds_free(&a->rs);
    free(a);
}

int verify_hunt(const infer_target *t, const model *m, size_t n_per_family, uint64_t seed, verify_result *r,
                char *err, size_t errlen)
{
    verify_hunt_ahead *a = verify_hunt_start(t, n_per_family, seed, HUNT_DRAW_FAMILY, err, errlen);
    return a ? verify_hunt_finish(a, t, m, r, err, errlen) : -1;
}

int verify_run(const infer_target *t, const model_params *p, size_t n, size_t n_hunt, uint64_t seed,
               verify_result *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    model *m = model_new(p, t->f, err, errlen);
    if (!m)
        return -1;
    double t0 = tc_now_s();
    /* the target's random path takes the tiles (0), hands them back (1) or fails */
    int rc = n && t->random_run ? t->random_run(t->random_ctx, t, m, n, seed, out, err, errlen) : 1;
    out->random_gpu = rc == 0;
    if (rc == 1)
        rc = n ? run_random(t, m, n, seed, out, err, errlen) : 0;
    double t1 = tc_now_s();
    out->random_s = t1 - t0;
    if (rc == 0 && n_hunt && t->hunt_run) {
        rc = t->hunt_run(t->hunt_ctx, t, m, n_hunt, seed, out, err, errlen);
        out->hunt_gpu = rc == 0;
        rc = rc == 1 ? 0 : rc;
    }
    if (rc == 0 && n_hunt && !out->hunt_gpu)
        rc = verify_hunt(t, m, n_hunt, seed, out, err, errlen);
    t0 = tc_now_s();
    out->hunt_s = t0 - t1;
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
                verify_keep_failure(out, t, &s.v[i], md, VERIFY_DIST_ADVERSARIAL);
            }
        }
        cset_free(&s);
    }
    out->crafted_s = tc_now_s() - t0;
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
