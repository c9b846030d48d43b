/* Whole tiles on the model, spread over the cores. */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "oracle/model_internal.h"
#include "oracle/oracle.h"

static int model_threads = 0;   /* configuration: 0 = all online cores */

void model_set_threads(int nthreads)
{
    model_threads = nthreads < 0 ? 0 : nthreads;
}

typedef struct {
    const model *m;
    int mr, nc, k;
    size_t t0, t1;
    const uint64_t *A, *B, *C;
    uint64_t *D;
} mma_job;

/* Each tile's A rows and B columns are decoded once (not once per output
 * element); elements the kernel declines go through model_dot. */
static void mma_tiles(const mma_job *j)
{
    const model *m = j->m;
    int K = j->k;
    size_t mk = (size_t)j->mr * K, kn = (size_t)K * j->nc, mn = (size_t)j->mr * j->nc;
    size_t scratch = model_tile_scratch(m, j->mr, j->nc, K);
    if (scratch) {
        void *buf = malloc(scratch);
        uint8_t *left = malloc(mn ? mn : 1);
        uint64_t *col = malloc((size_t)K * sizeof *col);
        if (!buf || !left || !col)
            abort();
        for (size_t t = j->t0; t < j->t1; t++) {
            const uint64_t *A = j->A + t * mk, *B = j->B + t * kn, *C = j->C + t * mn;
            uint64_t *D = j->D + t * mn;
            model_tile(m, j->mr, j->nc, K, A, B, C, D, left, buf);
            for (int c = 0; c < j->nc; c++) {   /* the elements the tile kernel left */
                bool have_col = false;
                for (int r = 0; r < j->mr; r++) {
                    size_t o = (size_t)r * j->nc + c;
                    if (!left[o])
                        continue;
                    for (int kk = 0; !have_col && kk < K; kk++)
                        col[kk] = B[(size_t)kk * j->nc + c];
                    have_col = true;
                    D[o] = model_dot(m, K, A + (size_t)r * K, col, C[o]);
                }
            }
        }
        free(col);
        free(left);
        free(buf);
        return;
    }
    uint64_t *col = malloc((size_t)(K > 0 ? K : 1) * sizeof *col);
    mdec *da = malloc((mk ? mk : 1) * sizeof *da), *db = malloc((kn ? kn : 1) * sizeof *db),
         *tmp = malloc((size_t)(K > 0 ? K : 1) * sizeof *tmp);
    int *idx = malloc((size_t)(K > 0 ? K : 1) * sizeof *idx);
    if (!col || !da || !db || !tmp || !idx)
        abort();
    bool ordered = model_step_order(&m->p, K, idx);   /* once: the same for every row and column */
    bool kernel = m->fast && !model_force_slow;
    for (size_t t = j->t0; t < j->t1; t++) {
        const uint64_t *A = j->A + t * mk, *B = j->B + t * kn, *C = j->C + t * mn;
        uint64_t *D = j->D + t * mn;
        if (kernel) {
            model_decode_operand(m, 0, mk, 1, A, da);
            for (int c = 0; c < j->nc; c++)   /* B column-major */
                model_decode_operand(m, 1, (size_t)K, (size_t)j->nc, B + c, db + (size_t)c * K);
            for (int r = 0; ordered && r < j->mr; r++)
                model_order_decoded(idx, K, da + (size_t)r * K, tmp);
            for (int c = 0; ordered && c < j->nc; c++)
                model_order_decoded(idx, K, db + (size_t)c * K, tmp);
        }
        for (int c = 0; c < j->nc; c++) {
            bool have_col = false;
            for (int r = 0; r < j->mr; r++) {
                size_t o = (size_t)r * j->nc + c;
                if (kernel && model_kernel(m, K, da + (size_t)r * K, db + (size_t)c * K, C[o], &D[o]) == 0)
                    continue;
                if (!have_col) {
                    for (int kk = 0; kk < K; kk++)
                        col[kk] = B[(size_t)kk * j->nc + c];
                    have_col = true;
                }
                D[o] = model_dot_generic(m, K, A + (size_t)r * K, col, C[o]);
            }
        }
    }
    free(col);
    free(tmp);
    free(idx);
    free(da);
    free(db);
}

static void *mma_worker(void *arg)
{
    mma_tiles(arg);
    return NULL;
}

void model_mma(const model *m, int mrows, int ncols, int k, size_t ntiles,
               const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D)
{
    long ncpu = model_threads > 0 ? model_threads : sysconf(_SC_NPROCESSORS_ONLN);
    size_t work = ntiles * (size_t)mrows * (size_t)ncols * (size_t)(k > 0 ? k : 1);
    size_t nt = ncpu < 1 ? 1 : (size_t)ncpu;
    if (nt > 256)
        nt = 256;
    /* Inside oracle_parallel the caller has spread its work over the cores already. */
    if (work < ((size_t)1 << 16) || ntiles < 2 || oracle_in_parallel())
        nt = 1;
    if (nt > ntiles)
        nt = ntiles;
    mma_job jobs[256];
    pthread_t th[256];
    size_t started = 0;
    for (size_t i = 0; i < nt; i++) {
        jobs[i] = (mma_job){m, mrows, ncols, k, ntiles * i / nt, ntiles * (i + 1) / nt, A, B, C, D};
    }
    for (size_t i = 1; i < nt; i++) {
        if (pthread_create(&th[i], NULL, mma_worker, &jobs[i]) != 0)
            break;
        started = i;
    }
    mma_tiles(&jobs[0]);
    /* Jobs whose thread could not start run here. */
    for (size_t i = started + 1; i < nt; i++)
        mma_tiles(&jobs[i]);
    for (size_t i = 1; i <= started; i++)
        pthread_join(th[i], NULL);
}
