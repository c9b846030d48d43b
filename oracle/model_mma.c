/* Whole tiles on the model, spread over the cores. */
#include <stdlib.h>

#include "oracle/exact_acc.h"
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

/* Tiles [lo, hi) of the batch ctx describes. */
static void mma_range(void *ctx, size_t lo, size_t hi)
{
    mma_job j = *(const mma_job *)ctx;
    j.t0 = lo, j.t1 = hi;
    mma_tiles(&j);
}

/* Tiles are independent, so how they are spread changes no bit: the one
 * runner of the oracle (exact_parallel_on), which also keeps a batch
 * started inside another's range (oracle_parallel) on its thread. */
void model_mma(const model *m, int mrows, int ncols, int k, size_t ntiles,
               const uint64_t *A, const uint64_t *B, const uint64_t *C, uint64_t *D)
{
    size_t work = ntiles * (size_t)mrows * (size_t)ncols * (size_t)(k > 0 ? k : 1);
    mma_job j = {m, mrows, ncols, k, 0, ntiles, A, B, C, D};
    exact_parallel_on(model_threads, ntiles, work, mma_range, &j);
}
