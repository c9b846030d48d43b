/* A structure fitted to outputs (cases/gemm_internal.h gemm_fit_structure):
 * the accumulator runs seen are summed once on the tensor core's model for
 * the fit outputs (per input conversion); every structure whose runs are
 * those runs (promote, split-K even, in whole units, cut as found, cut
 * subsets while few; each order the slices may meet in) then costs only
 * FP32 additions of those sums, and the one predicting the most outputs
 * bit for bit is kept (fewest slices first on a tie). Used by tcscope
 * probe (each class of output blocks) and by gemm --infer (when the
 * masking inference's own structure does not predict the outputs). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"
#include "oracle/oracle.h"

#define FIT_OUTPUTS 2048

uint32_t gemm_round_out(const tc_format *out, uint32_t u)
{
    if (!out || out == &tc_f32)
        return u;
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    return gemm_bits_of((float)tc_decode_to_f64(out, tc_encode_f64(out, gemm_f32_of(u), r)));
}

/* ---- run sums ------------------------------------------------------------- */

typedef struct {
    const gemm_fit_in *in;
    const model *md;
    tc_gemm_incvt cv;
    const int *ii, *jj;
    size_t nfit;
    float *rs;   /* nruns x nfit */
} runsum_job;

/* Positions [lo, hi) of nb outputs as one FP32 FMA chain from +0 each
 * (a SIMT kernel's accumulator: one rounding per product, in K order). */
static void fma_runs(const gemm_fit_in *in, size_t nb, const uint64_t *a, const uint64_t *b, int lo, int hi,
                     float *sum)
{
    size_t k = (size_t)in->k;
    bool f32 = in->path->a == &tc_f32 && in->path->b == &tc_f32;
    for (size_t t = 0; t < nb; t++) {
        float acc = 0;
        for (int q = lo; q < hi; q++) {
            uint64_t ea = a[t * k + q], eb = b[t * k + q];
            acc = f32 ? fmaf(gemm_f32_of((uint32_t)ea), gemm_f32_of((uint32_t)eb), acc)
                      : fmaf((float)tc_decode_to_f64(in->path->a, ea), (float)tc_decode_to_f64(in->path->b, eb), acc);
        }
        sum[t] = acc;
    }
}

static void runsum_range(void *ctx, size_t lo, size_t hi)
{
    const runsum_job *j = ctx;
    const gemm_fit_in *in = j->in;
    size_t k = (size_t)in->k, batch = gemm_batch(in->k);
    batch = batch < hi - lo ? batch : hi - lo;
    uint64_t *a = gemm_alloc(batch * k, sizeof *a), *b = gemm_alloc(batch * k, sizeof *b);
    float *sum = gemm_alloc(batch, sizeof *sum);
    tc_gemm_struct one = {.chunk = in->chunk, .splitk = 1};
    for (size_t s0 = lo; s0 < hi; s0 += batch) {
        size_t nb = hi - s0 < batch ? hi - s0 : batch;
        for (size_t t = 0; t < nb; t++)
            gemm_gather(in->A, in->B, in->n, in->k, j->ii[s0 + t], j->jj[s0 + t], a + t * k, b + t * k);
        gemm_convert_inputs(j->cv, a, nb * k);
        gemm_convert_inputs(j->cv, b, nb * k);
        for (int r = 0; r < in->nruns; r++) {
            int end = r + 1 < in->nruns ? in->run_start[r + 1] : in->k;
            if (in->fma)
                fma_runs(in, nb, a, b, in->run_start[r], end, sum);
            else
                gemm_slice_sums(&one, j->md, in->k, nb, a, b, in->run_start[r], end, sum);
            memcpy(j->rs + (size_t)r * j->nfit + s0, sum, nb * sizeof *sum);
        }
    }
    free(a), free(b), free(sum);
}

/* ---- candidates ------------------------------------------------------------ */

typedef struct {
    const gemm_fit_in *in;
    size_t nfit;
    const uint32_t *got;      /* nfit */
    const float *rs[8];       /* per conversion candidate */
    tc_gemm_incvt cvs[8];
    int ncv;
    bool *any_ok;             /* nfit: some candidate predicted it */
    uint32_t *best_pred;      /* nfit: the best candidate's */
    uint32_t *pred;           /* scratch */
    int *slice_of;            /* scratch, nruns */
    float *v;                 /* scratch, TC_GEMM_MAX_SLICES */
    tc_gemm_struct best;
    tc_gemm_incvt best_cv;
    size_t best_n;
    bool have;
    tc_gemm_candidate top[4];
    int ntop;
    size_t best_by_cv[8];
} search;

/* Structure s shows exactly the class's runs (every run start at a tested
 * position); slice_of[r]: the slice of run r. */
static bool runs_match(const tc_gemm_struct *s, const gemm_fit_in *c, int *slice_of)
{
    int cut[TC_GEMM_MAX_SLICES + 1], R = 0;
    gemm_struct_bounds(s, c->k, cut);
    for (int t = 0; t < s->splitk; t++) {
        int lo = cut[t], hi = cut[t + 1], step = s->promote > 0 ? s->promote : hi - lo;
        if (lo >= hi)
            return false;
        for (int x = lo; x < hi; x += step, R++) {
            if (x % c->gran || R >= c->nruns || c->run_start[R] != x)
                return false;
            slice_of[R] = t;
        }
    }
    return R == c->nruns;
}

static void describe(const tc_gemm_struct *s, tc_gemm_incvt cv, char *buf, size_t len)
{
    char slices[160];
    snprintf(buf, len, "chunk %d, promote %d, %s, inputs %s", s->chunk, s->promote,
             tc_gemm_slices_text(s, slices, sizeof slices), tc_gemm_incvt_name(cv));
}

static void keep_top(search *q, const tc_gemm_struct *s, tc_gemm_incvt cv, size_t n)
{
    int at = q->ntop;
    while (at > 0 && q->top[at - 1].bit_exact < n)
        at--;
    if (at >= 4)
        return;
    int last = q->ntop < 4 ? q->ntop : 3;
    memmove(&q->top[at + 1], &q->top[at], (size_t)(last - at) * sizeof q->top[0]);
    describe(s, cv, q->top[at].desc, sizeof q->top[at].desc);
    q->top[at].n = q->nfit, q->top[at].bit_exact = n;
    q->ntop += q->ntop < 4;
}

/* One structure (if its runs are the class's), under every conversion. */
static void try_struct(search *q, const tc_gemm_struct *s)
{
    if (s->splitk < 1 || s->splitk > TC_GEMM_MAX_SLICES || !runs_match(s, q->in, q->slice_of))
        return;
    for (int x = 0; x < q->ncv; x++) {
        size_t n = 0;
        for (size_t e = 0; e < q->nfit; e++) {
            for (int r = 0; r < q->in->nruns; r++) {
                float x_r = q->rs[x][(size_t)r * q->nfit + e];
                int t = q->slice_of[r];
                q->v[t] = r == 0 || q->slice_of[r - 1] != t ? x_r : q->v[t] + x_r;
            }
            q->pred[e] = gemm_round_out(q->in->out, gemm_bits_of(gemm_combine(q->v, s->splitk, s->combine)));
            n += q->pred[e] == q->got[e];
            q->any_ok[e] |= q->pred[e] == q->got[e];
        }
        keep_top(q, s, q->cvs[x], n);
        q->best_by_cv[x] = n > q->best_by_cv[x] ? n : q->best_by_cv[x];
        if (!q->have || n > q->best_n) {
            q->have = true, q->best = *s, q->best_cv = q->cvs[x], q->best_n = n;
            memcpy(q->best_pred, q->pred, q->nfit * sizeof *q->pred);
        }
    }
}

/* Each way slices can meet, once per distinct arithmetic (two slices: one
 * order; three: last-to-first is pairwise). */
static void try_orders(search *q, tc_gemm_struct s)
{
    static const tc_gemm_combine order[] = {GEMM_COMBINE_SEQ, GEMM_COMBINE_PAIRWISE, GEMM_COMBINE_REVERSE};
    for (int o = 0; o < 3; o++) {
        if ((o > 0 && s.splitk <= 2) || (o == 2 && s.splitk == 3))
            continue;
        s.combine = order[o];
        try_struct(q, &s);
    }
}

/* Promote every P (0: never) with the slices as the runs break the
 * period: a slice starts where the run before it was not P long. */
static void try_found_cuts(search *q, int chunk, int P)
{
    const gemm_fit_in *c = q->in;
    tc_gemm_struct s = {.chunk = chunk, .promote = P, .slice_unit = TC_GEMM_CUTS};
    s.cut[s.splitk++] = 0;
    for (int r = 1; r < c->nruns; r++)
        if (P == 0 || c->run_start[r] - c->run_start[r - 1] != P) {
            if (s.splitk == TC_GEMM_MAX_SLICES)
                return;
            s.cut[s.splitk++] = c->run_start[r];
        }
    s.cut[s.splitk] = c->k;
    try_orders(q, s);
}

/* Slices cut where promotions could also be (every run P long): which
 * run starts are slice starts only the outputs tell, so every choice of
 * S - 1 of them is tried while there are few (SUBSETS in all). */
#define SUBSETS 20000

static void try_cut_subsets(search *q, int chunk, int P)
{
    const gemm_fit_in *c = q->in;
    int B = c->nruns - 1, pick[TC_GEMM_MAX_SLICES];
    long budget = SUBSETS;
    for (int S = 2; S <= 16 && S - 1 <= B && budget > 0; S++) {
        double count = 1;   /* C(B, S - 1) */
        for (int t = 0; t < S - 1; t++)
            count = count * (B - t) / (t + 1);
        if (count > (double)budget)
            break;
        budget -= (long)count;
        for (int t = 0; t < S - 1; t++)
            pick[t] = t + 1;   /* run indices, ascending */
        for (;;) {
            tc_gemm_struct s = {.chunk = chunk, .promote = P, .splitk = S, .slice_unit = TC_GEMM_CUTS};
            for (int t = 0; t < S - 1; t++)
                s.cut[t + 1] = c->run_start[pick[t]];
            s.cut[S] = c->k;
            try_orders(q, s);
            int t = S - 2;   /* the next subset */
            while (t >= 0 && pick[t] == B - (S - 2 - t))
                t--;
            if (t < 0)
                break;
            pick[t]++;
            for (int u = t + 1; u < S - 1; u++)
                pick[u] = pick[u - 1] + 1;
        }
    }
}

static void candidates(search *q, int chunk)
{
    const gemm_fit_in *c = q->in;
    int P[9], np = 0, k = c->k;
    P[np++] = 0;
    for (int r = 0; r < c->nruns && np < 9; r++) {   /* the run lengths, each once */
        int len = (r + 1 < c->nruns ? c->run_start[r + 1] : k) - c->run_start[r], seen = 0;
        for (int x = 0; x < np; x++)
            seen |= P[x] == len;
        if (!seen)
            P[np++] = len;
    }
    /* Fewest slices first: on a tie (outputs that cannot tell two
     * structures apart) the simpler is kept. */
    for (int S = 1; S <= TC_GEMM_MAX_SLICES && S <= k; S++)
        for (int x = 0; x < np; x++)
            for (long unit = 0; unit == 0 || unit * S <= k; unit = unit ? unit * 2 : chunk) {
                tc_gemm_struct s = {.chunk = chunk, .promote = P[x], .splitk = S, .slice_unit = (int)unit};
                try_orders(q, s);
                if (S == 1)
                    break;
            }
    for (int x = 0; x < np; x++)
        try_found_cuts(q, chunk, P[x]);
    for (int x = 1; x < np; x++)
        try_cut_subsets(q, chunk, P[x]);
}

/* ---- the fit ---------------------------------------------------------------- */

int gemm_fit_structure(const gemm_fit_in *in, gemm_fit_out *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    /* All of the outputs while cheap (2^26 products), else FIT_OUTPUTS spread over them. */
    size_t budget = (size_t)1 << (in->fma ? 29 : 26);   /* an FMA costs a few ns, a model product ~40 */
    size_t cheap = budget / (size_t)in->k > FIT_OUTPUTS ? budget / (size_t)in->k : FIT_OUTPUTS;
    size_t nfit = in->nout < cheap || in->all ? in->nout : cheap, stride = nfit ? in->nout / nfit : 1;
    int *fi = gemm_alloc(nfit, sizeof *fi), *fj = gemm_alloc(nfit, sizeof *fj);
    uint32_t *got = gemm_alloc(nfit, sizeof *got);
    for (size_t e = 0; e < nfit; e++)
        fi[e] = in->ii[e * stride], fj[e] = in->jj[e * stride], got[e] = in->got[e * stride];
    search q = {.in = in, .nfit = nfit, .got = got};
    q.ncv = in->fma ? 1 : tc_gemm_incvt_candidates(in->path, q.cvs);   /* FMA: the FP32 inputs as they are */
    int rc = -1;
    for (int x = 0; x < q.ncv; x++) {
        model *md = in->fma ? NULL : gemm_model_in(in->path, in->profile, q.cvs[x], err, errlen);
        if (!md && !in->fma)
            goto out;
        float *rs = gemm_alloc((size_t)in->nruns * (nfit ? nfit : 1), sizeof *rs);
        runsum_job j = {in, md, q.cvs[x], fi, fj, nfit, rs};
        oracle_parallel(nfit, nfit * (size_t)in->k, runsum_range, &j);
        model_free(md);
        q.rs[x] = rs;
    }
    q.any_ok = gemm_alloc(nfit, sizeof *q.any_ok);
    q.best_pred = gemm_alloc(nfit, sizeof *q.best_pred), q.pred = gemm_alloc(nfit, sizeof *q.pred);
    q.slice_of = gemm_alloc((size_t)in->nruns, sizeof *q.slice_of);
    q.v = gemm_alloc(TC_GEMM_MAX_SLICES, sizeof *q.v);
    candidates(&q, in->chunk);
    o->have = q.have, o->s = q.best, o->cv = q.best_cv, o->nfit = nfit, o->best_n = q.best_n;
    o->ncand = q.ntop, o->ncv = q.ncv;
    memcpy(o->cand, q.top, sizeof q.top);
    memcpy(o->cvs, q.cvs, sizeof q.cvs);
    memcpy(o->cvt_bit_exact, q.best_by_cv, sizeof q.best_by_cv);
    if (in->pred && nfit == in->nout && q.have)
        memcpy(in->pred, q.best_pred, nfit * sizeof *in->pred);
    for (size_t e = 0; e < nfit && q.have; e++)
        if (!q.any_ok[e] && o->nunexplained < TC_GEMM_KEEP)
            o->unexplained[o->nunexplained++] = (tc_gemm_miss){fi[e], fj[e], got[e], q.best_pred[e]};
    rc = 0;
out:
    for (int x = 0; x < q.ncv; x++)
        free((void *)q.rs[x]);
    free(fi), free(fj), free(got), free(q.any_ok), free(q.best_pred), free(q.pred), free(q.slice_of), free(q.v);
    return rc;
}
