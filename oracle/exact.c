/* exact: the correctly rounded D = A*B + C (oracle.h), whole tiles over all
 * cores. The arithmetic is exact_acc.c; this file decodes and schedules. */
#include "oracle/oracle.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "oracle/exact_acc.h"

static int threads_config;   /* 0: every online core */

void oracle_set_threads(int n)
{
    threads_config = n > 0 ? n : 0;
}

int oracle_threads(void)
{
    if (threads_config > 0)
        return threads_config;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

typedef struct {
    void (*fn)(void *ctx, size_t lo, size_t hi);
    void *ctx;
    size_t lo, hi;
} par_chunk;

/* Set while a thread runs a chunk: a batch started from inside a chunk (a
 * chain's steps inside a batch of chains) runs inline, not oversubscribed. */
static _Thread_local bool in_chunk;

static void *par_run(void *arg)
{
    par_chunk *c = arg;
    bool outer = in_chunk;
    in_chunk = true;
    c->fn(c->ctx, c->lo, c->hi);
    in_chunk = outer;
    return NULL;
}

/* A worker thread: MPFR keeps per-thread constant caches; free them. */
static void *par_thread(void *arg)
{
    par_run(arg);
    mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);
    return NULL;
}

/* Below this many product terms a batch runs on the calling thread: thread
 * start-up (~20 us) would cost more than it saves. */
#define PARALLEL_MIN_WORK (1u << 15)

/* mark_inline: a batch run on the calling thread is a range too (batches
 * inside it stay on that thread). */
static void run_parallel(int threads, size_t total, size_t work, void (*fn)(void *ctx, size_t lo, size_t hi),
                         void *ctx, bool mark_inline)
{
    size_t nt = (size_t)(threads > 0 ? threads : oracle_threads());
    if (nt > total)
        nt = total;
    if (nt <= 1 || work < PARALLEL_MIN_WORK || in_chunk) {
        par_chunk all = {fn, ctx, 0, total};
        if (total && mark_inline)
            par_run(&all);
        else if (total)
            fn(ctx, 0, total);
        return;
    }
    par_chunk *ch = malloc(nt * sizeof *ch);
    pthread_t *th = malloc(nt * sizeof *th);
    bool *started = calloc(nt, sizeof *started);
    if (!ch || !th || !started) {
        free(ch);
        free(th);
        free(started);
        fn(ctx, 0, total);
        return;
    }
    for (size_t i = 0; i < nt; i++) {
        ch[i] = (par_chunk){fn, ctx, total * i / nt, total * (i + 1) / nt};
        /* Chunk 0 runs here; a thread that cannot start runs here too. */
        if (i > 0)
            started[i] = pthread_create(&th[i], NULL, par_thread, &ch[i]) == 0;
    }
    par_run(&ch[0]);
    for (size_t i = 1; i < nt; i++) {
        if (started[i])
            pthread_join(th[i], NULL);
        else
            par_run(&ch[i]);
    }
    free(ch);
    free(th);
    free(started);
}

void exact_parallel(size_t total, size_t work, void (*fn)(void *ctx, size_t lo, size_t hi), void *ctx)
{
    run_parallel(0, total, work, fn, ctx, false);
}

void exact_parallel_on(int threads, size_t total, size_t work, void (*fn)(void *ctx, size_t lo, size_t hi),
                       void *ctx)
{
    run_parallel(threads, total, work, fn, ctx, false);
}

void oracle_parallel(size_t total, size_t work, void (*fn)(void *ctx, size_t lo, size_t hi), void *ctx)
{
    run_parallel(0, total, work, fn, ctx, true);
}

bool oracle_in_parallel(void)
{
    return in_chunk;
}

/* Decoded operands of one dot; small k stays on the stack. */
#define INLINE_K 256

typedef struct {
    exact_val a_in[INLINE_K], b_in[INLINE_K];
    exact_val *a, *b, c;
} dot_operands;

static void dot_decode(oracle_formats f, int k, const uint64_t *a, const uint64_t *b,
                       uint64_t c, dot_operands *o)
{
    size_t n = k > 0 ? (size_t)k : 0;
    o->a = n <= INLINE_K ? o->a_in : exact_xmalloc(n * sizeof(exact_val));
    o->b = n <= INLINE_K ? o->b_in : exact_xmalloc(n * sizeof(exact_val));
    exact_load_n(f.a, a, n, o->a);
    exact_load_n(f.b, b, n, o->b);
    o->c = exact_val_of(tc_decode(f.c, c, false));
}

static void dot_release(dot_operands *o)
{
    if (o->a != o->a_in)
        free(o->a);
    if (o->b != o->b_in)
        free(o->b);
}

void oracle_dot_value(oracle_formats f, int k, const uint64_t *a, const uint64_t *b,
                      uint64_t c, mpfr_t out)
{
    dot_operands o;
    dot_decode(f, k, a, b, c, &o);
    exact_sum s;
    exact_dot(o.a, 1, o.b, 1, k, &o.c, TC_RNE, &s);
    exact_sum_to_mpfr(&s, out);
    exact_sum_free(&s);
    dot_release(&o);
}

uint64_t oracle_dot_exact(oracle_formats f, int k, const uint64_t *a, const uint64_t *b,
                          uint64_t c, tc_rounding r)
{
    dot_operands o;
    dot_decode(f, k, a, b, c, &o);
    exact_sum s;
    exact_dot(o.a, 1, o.b, 1, k, &o.c, r.mode, &s);
    uint64_t d = exact_sum_round(&s, f.d, r);
    exact_sum_free(&s);
    dot_release(&o);
    return d;
}

/* ---- whole tiles ---------------------------------------------------------- */

typedef struct {
    oracle_formats f;
    int m, n, k;
    const uint64_t *A, *B, *C;
    tc_round mode;
    exact_visit visit;
    void *ctx;
} mma_job;

/* The tile currently decoded by one worker: A row-major, B transposed so a
 * column is contiguous. */
typedef struct {
    size_t tile;
    exact_val *a, *bt;
} tile_cache;

static void tile_load(const mma_job *j, size_t t, tile_cache *tc)
{
    size_t mk = (size_t)j->m * (size_t)j->k, kn = (size_t)j->k * (size_t)j->n;
    if (tc->tile == t)
        return;
    tc->tile = t;
    exact_load_n(j->f.a, j->A + t * mk, mk, tc->a);
    for (int kk = 0; kk < j->k; kk++)
        for (int col = 0; col < j->n; col++)
            tc->bt[(size_t)col * (size_t)j->k + (size_t)kk] = exact_val_of(
                tc_decode(j->f.b, j->B[t * kn + (size_t)kk * (size_t)j->n + (size_t)col], false));
}

static void mma_range(void *ctx, size_t lo, size_t hi)
{
    const mma_job *j = ctx;
    size_t mn = (size_t)j->m * (size_t)j->n;
    tile_cache tc = {.tile = SIZE_MAX};
    tc.a = exact_xmalloc(((size_t)j->m + (size_t)j->n) * (size_t)j->k * sizeof(exact_val));
    tc.bt = tc.a + (size_t)j->m * (size_t)j->k;
    for (size_t e = lo; e < hi; e++) {
        size_t t = e / mn, ij = e % mn;
        size_t i = ij / (size_t)j->n, col = ij % (size_t)j->n;
        tile_load(j, t, &tc);
        /* No C is a C of +0 (probes.h: "NULL for zero"), as the GPU's zeroed
         * accumulator registers are: it decides the sign of all-(-0) sums. */
        exact_val c = {.sig = 0, .exp = 0, .cls = TC_ZERO, .sign = 0, .len = 0};
        if (j->C)
            c = exact_val_of(tc_decode(j->f.c, j->C[e], false));
        exact_sum s;
        exact_dot(tc.a + i * (size_t)j->k, 1, tc.bt + col * (size_t)j->k, 1, j->k, &c,
                  j->mode, &s);
        j->visit(j->ctx, e, &s);
        exact_sum_free(&s);
    }
    free(tc.a);
}

void exact_mma_each(oracle_formats f, int m, int n, int k, size_t ntiles,
                    const uint64_t *A, const uint64_t *B, const uint64_t *C,
                    tc_round mode, exact_visit visit, void *ctx)
{
    if (m <= 0 || n <= 0 || k < 0 || ntiles == 0)
        return;
    mma_job j = {f, m, n, k, A, B, C, mode, visit, ctx};
    size_t total = ntiles * (size_t)m * (size_t)n;
    exact_parallel(total, total * (size_t)(k + 1), mma_range, &j);
}

typedef struct {
    const tc_format *d;
    tc_rounding r;
    uint64_t *D;
} round_ctx;

static void round_visit(void *ctx, size_t e, const exact_sum *s)
{
    const round_ctx *rc = ctx;
    rc->D[e] = exact_sum_round(s, rc->d, rc->r);
}

void oracle_mma_exact(oracle_formats f, int m, int n, int k, size_t ntiles,
                      const uint64_t *A, const uint64_t *B, const uint64_t *C,
                      uint64_t *D, tc_rounding r)
{
    round_ctx rc = {f.d, r, D};
    exact_mma_each(f, m, n, k, ntiles, A, B, C, r.mode, round_visit, &rc);
}
