/* The sweep's reference: the exact chain oracle (oracle/chain.h).
 *
 * Chain error: Y_i = Y_{i-1} * B_i exactly from Y_0 = A0. With per-tensor
 * scaling the backend's D_i approximates Y_i * 2^L (L the sum of the
 * power-of-two scales applied so far), so D_i * 2^-L is compared with Y_i:
 * exact rescaling, the same relative error.
 * Local error: D_i against X_{i-1} * B_i exactly, from the X really used
 * (oracle_mma_err). Trials run on all cores; each worker frees MPFR's
 * per-thread caches before it ends. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <mpfr.h>

#include "cases/sweep_internal.h"
#include "oracle/chain.h"

static oracle_formats chain_formats(const sweep_ref_job *job)
{
    oracle_formats f = {job->p->fmt, job->p->fmt, job->dfmt, job->dfmt};
    return f;
}

/* |d 2^-L - y| / |y|; NaN when d is not finite or y is zero or not finite. */
static double rel_error(double d, long L, const mpfr_t y, mpfr_t tmp)
{
    if (!isfinite(d) || !mpfr_number_p(y) || mpfr_zero_p(y))
        return NAN;
    mpfr_set_prec(tmp, 128);
    mpfr_set_d(tmp, d, MPFR_RNDN);   /* exact: d is an f32/f64 value */
    mpfr_mul_2si(tmp, tmp, -L, MPFR_RNDN);
    mpfr_sub(tmp, tmp, y, MPFR_RNDN);
    mpfr_div(tmp, tmp, y, MPFR_RNDN);
    return fabs(mpfr_get_d(tmp, MPFR_RNDN));
}

static void chain_trial(const sweep_ref_job *job, size_t t)
{
    const size_t mk = (size_t)job->m * (size_t)job->k, kk = (size_t)job->k * (size_t)job->k, n = (size_t)job->n;
    oracle_chain *ch = oracle_chain_new(chain_formats(job), job->m, job->k, job->A0 + t * mk);
    oracle_err *le = malloc(mk * sizeof *le);
    mpfr_t y, tmp;
    mpfr_init2(y, 64);
    mpfr_init2(tmp, 128);
    long L = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0)
            L += lround(job->log2_scale_x[t * n + i]);
        oracle_chain_step(ch, job->B + (t * n + i) * kk, NULL);
        const uint64_t *D = job->D + (t * n + i) * mk;
        double *err = job->err + (i * job->trials + t) * mk;
        for (int r = 0; r < job->m; r++)
            for (int c = 0; c < job->k; c++) {
                size_t j = (size_t)r * (size_t)job->k + (size_t)c;
                oracle_chain_value(ch, r, c, y);
                err[j] = rel_error(tc_decode_to_f64(job->dfmt, D[j]), L, y, tmp);
            }
        /* One tile: the oracle runs it on this thread (no nested workers). */
        oracle_mma_err(chain_formats(job), job->m, job->k, job->k, 1, job->X + (t * n + i) * mk,
                       job->B + (t * n + i) * kk, NULL, D, le);
        double *lerr = job->err_local + (i * job->trials + t) * mk;
        for (size_t j = 0; j < mk; j++)
            lerr[j] = isfinite(le[j].rel) ? le[j].rel : NAN;
    }
    free(le);
    mpfr_clear(y);
    mpfr_clear(tmp);
    oracle_chain_free(ch);
    mpfr_free_cache();
}

typedef struct {
    const sweep_ref_job *job;
    atomic_size_t next, done;
    pthread_mutex_t lock;
} ref_pool;

static void *ref_worker(void *arg)
{
    ref_pool *pool = arg;
    const sweep_ref_job *job = pool->job;
    for (;;) {
        size_t t = atomic_fetch_add(&pool->next, 1);
        if (t >= job->trials)
            break;
        chain_trial(job, t);
        size_t d = atomic_fetch_add(&pool->done, 1) + 1;
        if (job->p->progress) {
            pthread_mutex_lock(&pool->lock);
            job->p->progress(job->p->progress_ctx, d, job->trials);
            pthread_mutex_unlock(&pool->lock);
        }
    }
    return NULL;
}

void sweep_reference(const sweep_ref_job *job)
{
    long cores = job->p->threads > 0 ? job->p->threads : sysconf(_SC_NPROCESSORS_ONLN);
    size_t nthreads = cores < 1 ? 1 : (size_t)cores;
    if (nthreads > job->trials)
        nthreads = job->trials;
    ref_pool pool = {.job = job};
    atomic_init(&pool.next, 0);
    atomic_init(&pool.done, 0);
    pthread_mutex_init(&pool.lock, NULL);
    pthread_t *th = malloc(nthreads * sizeof *th);
    size_t started = 0;
    for (size_t i = 1; th && i < nthreads; i++)
        if (pthread_create(&th[started], NULL, ref_worker, &pool) == 0)
            started++;
    ref_worker(&pool);   /* this thread works too; a failed create only costs speed */
    for (size_t i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    free(th);
    pthread_mutex_destroy(&pool.lock);
}
