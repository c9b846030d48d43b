/* The GPU hunt's CPU share (cases/hunt_gpu_cpu.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/hunt.h"
#include "cases/hunt_gpu_cpu.h"
#include "cases/infer_internal.h"
#include "oracle/oracle.h"
#include "probes/clock.h"

/* What the CPU does after a round's comparison on the GPU: the declined
 * elements through model_dot, and every differing element counted and kept
 * as a failure. An item owns copies of the round's lists, so the GPU goes
 * on with the next round (or instruction) while a worker thread does it. */
struct hgc_item {
    const infer_target *t;
    const model *m;
    verify_result *r;
    tc_model_gpu_count *count;
    size_t job, fam_elems;
    bool last;                                 /* the job's last round */
    bool random;                               /* the proof's random tiles: fam_elems a tile's elements */
    unsigned long long mism[HUNT_NFAMILIES];   /* of the elements the GPU model computed */
    hgpu_list ml, dl;                          /* copies: differing, declined */
    struct hgc_item *next;
};

static void item_free(hgc_item *it)
{
    if (!it)
        return;
    free(it->ml.at);
    free(it->ml.g);
    free(it->dl.at);
    free(it->dl.g);
    free(it);
}

/* An entry of a list by its element's index: failures are kept in the
 * elements' order, whatever order the GPU listed them in. */
typedef struct {
    size_t at, x;
} by_at;

static int by_at_cmp(const void *a, const void *b)
{
    size_t x = ((const by_at *)a)->at, y = ((const by_at *)b)->at;
    return x < y ? -1 : x > y;
}

/* The declined elements of a round on the CPU, shared out over every core. */
typedef struct {
    const model *m;
    int k;
    const uint64_t *g;   /* hgpu_list.g: 2k + 3 words per element */
    uint64_t *md;
} decl_job;

static void decl_range(void *ctx, size_t lo, size_t hi)
{
    const decl_job *j = ctx;
    size_t w = 2 * (size_t)j->k + 3;
    for (size_t x = lo; x < hi; x++) {
        const uint64_t *e = j->g + x * w;
        j->md[x] = model_dot(j->m, j->k, e, e + j->k, e[2 * j->k]);
    }
}

/* The distribution (verify.h) of element `at` of the item's round: its hunt
 * family's, or its random tile's (tile q of the stream is of q % 4; a round
 * starts at a multiple of 4). */
static int dist_of(const hgc_item *it, size_t at)
{
    return it->random ? (int)(at / it->fam_elems % VERIFY_NDIST_RANDOM)
                      : VERIFY_DIST_HUNT + (int)(at / it->fam_elems);
}

/* Listed element x (model answer md) of distribution dist kept as verify keeps a failure. */
static void keep(verify_result *r, const infer_target *t, const hgpu_list *l, size_t x, uint64_t md, int dist)
{
    size_t w = 2 * (size_t)t->k + 3;
    const uint64_t *e = l->g + x * w;
    uint64_t ka[INFER_KMAX], kb[INFER_KMAX];   /* t->k: at most the GPU model's 64 */
    memcpy(ka, e, (size_t)t->k * sizeof *ka);
    memcpy(kb, e + t->k, (size_t)t->k * sizeof *kb);
    infer_case c = {verify_dist_name(dist), t->k, ka, kb, e[2 * t->k], e[2 * t->k + 1]};
    verify_keep_failure(r, t, &c, md, dist);
}

/* The item's CPU work into its r and count (then freed). 0, or -1 when out of memory. */
static int item_finish(hgc_item *it)
{
    const infer_target *t = it->t;
    verify_result *r = it->r;
    double t0 = tc_now_s();
    uint64_t *md = malloc(it->dl.n * sizeof *md + 1);
    if (!md) {
        item_free(it);
        return -1;
    }
    decl_job j = {it->m, t->k, it->dl.g, md};
    if (it->dl.n)
        oracle_parallel(it->dl.n, it->dl.n * (size_t)t->k * 64, decl_range, &j);
    double cpu = tc_now_s() - t0;
    it->count->cpu += it->dl.n;
    it->count->cpu_s += cpu;
    r->stage_s[VERIFY_STAGE_MODEL] += cpu;
    /* the differing elements, in their order: the listed ones, then the
     * declined ones the CPU model answers otherwise */
    size_t w = 2 * (size_t)t->k + 3, nd = 0;
    by_at *ord = malloc((it->ml.n + it->dl.n) * sizeof *ord + 1);
    if (!ord) {
        free(md);
        item_free(it);
        return -1;
    }
    for (size_t x = 0; x < it->ml.n; x++)
        ord[x] = (by_at){it->ml.at[x], x};
    qsort(ord, it->ml.n, sizeof *ord, by_at_cmp);
    for (size_t y = 0; y < it->ml.n; y++) {
        size_t x = ord[y].x;
        keep(r, t, &it->ml, x, it->ml.g[x * w + 2 * (size_t)t->k + 2], dist_of(it, it->ml.at[x]));
    }
    for (size_t x = 0; x < it->dl.n; x++)
        if (it->dl.g[x * w + 2 * (size_t)t->k + 1] != md[x])
            ord[nd++] = (by_at){it->dl.at[x], x};
    qsort(ord, nd, sizeof *ord, by_at_cmp);
    for (size_t y = 0; y < nd; y++) {
        size_t x = ord[y].x;
        int dist = dist_of(it, it->dl.at[x]);
        it->mism[it->random ? dist : dist - VERIFY_DIST_HUNT]++;
        keep(r, t, &it->dl, x, md[x], dist);
    }
    free(ord);
    for (int f = 0; f < (it->random ? VERIFY_NDIST_RANDOM : HUNT_NFAMILIES); f++) {
        r->dist_mismatches[it->random ? f : VERIFY_DIST_HUNT + f] += (size_t)it->mism[f];
        r->mismatches += (size_t)it->mism[f];
    }
    r->stage_s[VERIFY_STAGE_COMPARE] += tc_now_s() - t0 - cpu;
    free(md);
    item_free(it);
    return 0;
}

void hgc_complete(hgc_worker *wk, size_t j)
{
    if (!wk->complete)
        return;
    if (wk->running)
        pthread_mutex_lock(&wk->mu);
    wk->complete[j] = true;
    if (wk->running)
        pthread_mutex_unlock(&wk->mu);
}

void hgc_report(hgc_worker *wk, size_t n, size_t *reported, void (*done)(void *ctx, size_t j), void *ctx)
{
    if (!wk->complete)
        return;
    for (;;) {
        if (wk->running)
            pthread_mutex_lock(&wk->mu);
        bool ready = *reported < n && wk->complete[*reported];
        if (wk->running)
            pthread_mutex_unlock(&wk->mu);
        if (!ready)
            return;
        if (done)
            done(ctx, *reported);
        (*reported)++;
    }
}

static void *worker_main(void *arg)
{
    hgc_worker *wk = arg;
    pthread_mutex_lock(&wk->mu);
    for (;;) {
        while (!wk->head && !wk->stop)
            pthread_cond_wait(&wk->cv, &wk->mu);
        if (!wk->head)
            break;
        hgc_item *it = wk->head;
        wk->head = it->next;
        if (!wk->head)
            wk->tail = NULL;
        pthread_mutex_unlock(&wk->mu);
        size_t job = it->job;
        bool last = it->last;
        int rc = item_finish(it);
        pthread_mutex_lock(&wk->mu);
        wk->failed |= rc != 0;
        wk->finished++;
        if (last && wk->complete)
            wk->complete[job] = true;
        pthread_cond_broadcast(&wk->cv);
    }
    pthread_mutex_unlock(&wk->mu);
    return NULL;
}

int hgc_submit(hgc_worker *wk, hgc_item *it)
{
    if (!wk->running) {
        size_t job = it->job;
        bool last = it->last;
        int rc = item_finish(it);
        if (rc == 0 && last)
            hgc_complete(wk, job);
        return rc;
    }
    pthread_mutex_lock(&wk->mu);
    it->next = NULL;
    if (wk->tail)
        wk->tail->next = it;
    else
        wk->head = it;
    wk->tail = it;
    wk->submitted++;
    pthread_cond_broadcast(&wk->cv);
    pthread_mutex_unlock(&wk->mu);
    return 0;
}

void hgc_drain(hgc_worker *wk)
{
    if (!wk->running)
        return;
    pthread_mutex_lock(&wk->mu);
    while (wk->finished < wk->submitted)
        pthread_cond_wait(&wk->cv, &wk->mu);
    pthread_mutex_unlock(&wk->mu);
}

hgc_item *hgc_item_new(const infer_target *t, const model *m, verify_result *r, tc_model_gpu_count *count,
                       size_t job, bool last, bool random, size_t fam_elems, const unsigned long long *mism,
                       hgpu_list *ml, hgpu_list *dl)
{
    hgc_item *it = calloc(1, sizeof *it);
    if (it) {
        it->ml = *ml;
        it->dl = *dl;
    } else {
        free(ml->at);
        free(ml->g);
        free(dl->at);
        free(dl->g);
    }
    memset(ml, 0, sizeof *ml);
    memset(dl, 0, sizeof *dl);
    if (!it)
        return NULL;
    it->t = t;
    it->m = m;
    it->r = r;
    it->count = count;
    it->job = job;
    it->last = last;
    it->random = random;
    it->fam_elems = fam_elems;
    memcpy(it->mism, mism, sizeof it->mism);
    return it;
}

int hgc_start(hgc_worker *wk, size_t n, bool thread)
{
    memset(wk, 0, sizeof *wk);
    wk->complete = calloc(n + 1, sizeof *wk->complete);
    if (!wk->complete)
        return -1;
    if (thread && pthread_mutex_init(&wk->mu, NULL) == 0) {
        if (pthread_cond_init(&wk->cv, NULL) == 0)
            wk->running = pthread_create(&wk->th, NULL, worker_main, wk) == 0;
        if (!wk->running) {
            pthread_cond_destroy(&wk->cv);
            pthread_mutex_destroy(&wk->mu);
        }
    }
    return 0;
}

bool hgc_stop(hgc_worker *wk)
{
    if (wk->running) {
        hgc_drain(wk);
        pthread_mutex_lock(&wk->mu);
        wk->stop = true;
        pthread_cond_broadcast(&wk->cv);
        pthread_mutex_unlock(&wk->mu);
        pthread_join(wk->th, NULL);
        wk->running = false;
        pthread_cond_destroy(&wk->cv);
        pthread_mutex_destroy(&wk->mu);
    }
    return wk->failed;
}

void hgc_free(hgc_worker *wk)
{
    free(wk->complete);
    wk->complete = NULL;
}
