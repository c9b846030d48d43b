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
        gemm_gather(in->A, in->B, in->n, in->k, nb, j->ii + s0, j->jj + s0, a, b);
        gemm_convert_inputs(j->cv, in->path->a, a, nb * k);
        gemm_convert_inputs(j->cv, in->path->b, b, nb * k);
        if (in->fma)   /* FP32 FMA chains: the elements as FP32 (gemm_slice_sums without a model) */
            gemm_widen_f32(in->path->a, a, nb * k), gemm_widen_f32(in->path->b, b, nb * k);
        for (int r = 0; r < in->nruns; r++) {
            int end = r + 1 < in->nruns ? in->run_start[r + 1] : in->k;
            gemm_slice_sums(&one, j->md, in->k, nb, a, b, in->run_start[r], end, sum);
            memcpy(j->rs + (size_t)r * j->nfit + s0, sum, nb * sizeof *sum);
        }
    }
    free(a), free(b), free(sum);
}

/* ---- candidates ------------------------------------------------------------ */

/* A structure scoring stopped early (exact pruning): the outputs from
 * `from` on were not tried, so it may still predict one no other does. */
typedef struct {
    tc_gemm_struct s;
    int x;                    /* conversion */
    size_t from;
} pruned_struct;

typedef struct {
    const gemm_fit_in *in;
    size_t nfit;
    const uint32_t *got;      /* nfit */
    const float *rs[8];       /* per conversion candidate */
    float *table[8];          /* per conversion: the FP32 sum of runs [a, b) at (a * (nruns + 1) + b) * nfit,
                               * when small enough (SLICE_TABLE_BYTES); NULL: summed per structure */
    tc_gemm_incvt cvs[8];
    int ncv;
    bool *any_ok;             /* nfit: some candidate predicted it */
    uint32_t *best_pred;      /* nfit: the best candidate's */
    uint32_t *pred;           /* scratch, nfit */
    int *slice_of;            /* scratch, nruns */
    float *v;                 /* scratch, TC_GEMM_MAX_SLICES (one output) */
    float *blk;               /* scratch: slice sums of a block of outputs, then the pairwise levels */
    tc_gemm_struct best;
    tc_gemm_incvt best_cv;
    size_t best_n;
    bool have;
    tc_gemm_candidate top[4];
    int ntop;
    size_t best_by_cv[8];
    pruned_struct *pruned;    /* scored on a prefix of the outputs only */
    size_t npruned, cap_pruned;
    size_t scored;            /* structures x conversions scored on every output */
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

/* ---- scoring ------------------------------------------------------------------
 * The outputs are scored in blocks of FIT_BLOCK, each slice's FP32 sum kept
 * for the whole block (the same additions in the same order as one output
 * at a time: only faster). A structure stops when, even predicting every
 * output left, it could neither beat the best, nor its conversion's best,
 * nor enter the best four: exactly what the full scoring would keep, it
 * keeps. Only "some candidate predicts this output" (any_ok, for the
 * unexplained list) needs the outputs a stopped structure skipped:
 * settle_pruned tries them, at the end, where that list looks. */
#define FIT_BLOCK 256
#define PAIRWISE_LEVELS 8   /* log2(TC_GEMM_MAX_SLICES) + 2 */

/* The slices [lo, hi) of a block (v[t]: slice t's sums) met as a balanced
 * tree into out (tmp: PAIRWISE_LEVELS blocks of scratch). */
static void pairwise_block(const float *const *v, int lo, int hi, size_t nb, float *out, float *tmp)
{
    if (hi - lo == 1) {
        memcpy(out, v[lo], nb * sizeof *out);
        return;
    }
    int mid = lo + (hi - lo) / 2;
    pairwise_block(v, lo, mid, nb, out, tmp + FIT_BLOCK);
    pairwise_block(v, mid, hi, nb, tmp, tmp + FIT_BLOCK);
    for (size_t e = 0; e < nb; e++)
        out[e] += tmp[e];
}

/* Structure s (slice_of set) under conversion x on outputs [e0, e1):
 * predictions into q->pred, any_ok marked, the bit-exact ones counted. */
static size_t score_block(search *q, const tc_gemm_struct *s, int x, size_t e0, size_t e1)
{
    const gemm_fit_in *in = q->in;
    size_t nb = e1 - e0, n = 0, R = (size_t)in->nruns;
    int S = s->splitk;
    float *v = q->blk, *d = v + (size_t)TC_GEMM_MAX_SLICES * FIT_BLOCK, *tmp = d + FIT_BLOCK;
    const float *vt[TC_GEMM_MAX_SLICES];
    for (size_t r = 0, t = 0; r < R; t++) {   /* slice t: runs [r, r1), in order */
        size_t r1 = r + 1;
        while (r1 < R && q->slice_of[r1] == (int)t)
            r1++;
        if (q->table[x]) {   /* that slice's sums, made once for every structure */
            vt[t] = q->table[x] + (r * (R + 1) + r1) * q->nfit + e0;
        } else {
            float *w = v + t * FIT_BLOCK;
            memcpy(w, q->rs[x] + r * q->nfit + e0, nb * sizeof *w);
            for (size_t u = r + 1; u < r1; u++) {
                const float *x_u = q->rs[x] + u * q->nfit + e0;
                for (size_t e = 0; e < nb; e++)
                    w[e] += x_u[e];
            }
            vt[t] = w;
        }
        r = r1;
    }
    if (s->combine == GEMM_COMBINE_PAIRWISE) {
        pairwise_block(vt, 0, S, nb, d, tmp);
    } else if (s->combine == GEMM_COMBINE_XOR) {   /* gemm_combine's tree, level by level in the slices' own rows */
        for (int t = 0; t < S; t++)
            if (vt[t] != v + (size_t)t * FIT_BLOCK)
                memcpy(v + (size_t)t * FIT_BLOCK, vt[t], nb * sizeof *v);
        for (int l = 0, L = gemm_xor_levels(S); l < L; l++)
            for (int i = 0, b = 1 << s->xor_bits[l]; i < S; i++)
                if (!(i & b))
                    for (size_t e = 0; e < nb; e++)
                        v[(size_t)i * FIT_BLOCK + e] += v[(size_t)(i | b) * FIT_BLOCK + e];
        memcpy(d, v, nb * sizeof *d);
    } else {   /* gemm_combine's seq and reverse */
        bool rev = s->combine == GEMM_COMBINE_REVERSE;
        memcpy(d, vt[rev ? S - 1 : 0], nb * sizeof *d);
        for (int t = 1; t < S; t++) {
            const float *w = vt[rev ? S - 1 - t : t];
            for (size_t e = 0; e < nb; e++)
                d[e] += w[e];
        }
    }
    for (size_t e = 0; e < nb; e++) {
        uint32_t p = gemm_round_out(in->out, gemm_bits_of(d[e]));
        bool ok = p == q->got[e0 + e];
        q->pred[e0 + e] = p, n += ok;
        q->any_ok[e0 + e] |= ok;
    }
    return n;
}

/* One output under structure s (slice_of set): the reference arithmetic
 * (gemm_combine), for the outputs a stopped structure skipped and for the
 * exhaustive scoring (gemm_fit_in.exhaustive) tests compare with. */
static uint32_t predict_one(search *q, const tc_gemm_struct *s, int x, size_t e)
{
    for (int r = 0; r < q->in->nruns; r++) {
        float x_r = q->rs[x][(size_t)r * q->nfit + e];
        int t = q->slice_of[r];
        q->v[t] = r == 0 || q->slice_of[r - 1] != t ? x_r : q->v[t] + x_r;
    }
    return gemm_round_out(q->in->out, gemm_bits_of(gemm_combine(q->v, s)));
}

/* Could a structure predicting at most `bound` outputs change what is kept? */
static bool can_matter(const search *q, int x, size_t bound)
{
    return !q->have || bound > q->best_n || bound > q->best_by_cv[x] || q->ntop < 4 ||
           bound > q->top[3].bit_exact;
}

static void keep_pruned(search *q, const tc_gemm_struct *s, int x, size_t from)
{
    if (q->npruned == q->cap_pruned) {
        size_t cap = q->cap_pruned ? q->cap_pruned * 2 : 1024;
        pruned_struct *p = realloc(q->pruned, cap * sizeof *p);
        if (!p) {
            fprintf(stderr, "tcscope: out of memory (%zu pruned structures)\n", cap);
            exit(2);
        }
        q->pruned = p, q->cap_pruned = cap;
    }
    q->pruned[q->npruned++] = (pruned_struct){*s, x, from};
}

/* The first outputs no fully scored structure predicts (as many as the
 * unexplained list keeps): does a stopped one, on the outputs it skipped? */
static void settle_pruned(search *q)
{
    size_t left = TC_GEMM_KEEP;
    for (size_t e = 0; e < q->nfit && left > 0; e++) {
        for (size_t p = 0; p < q->npruned && !q->any_ok[e]; p++) {
            const pruned_struct *ps = &q->pruned[p];
            if (ps->from <= e && runs_match(&ps->s, q->in, q->slice_of))
                q->any_ok[e] = predict_one(q, &ps->s, ps->x, e) == q->got[e];
        }
        left -= !q->any_ok[e];
    }
}

/* One structure (if its runs are the class's), under every conversion. */
static void try_struct(search *q, const tc_gemm_struct *s)
{
    if (s->splitk < 1 || s->splitk > TC_GEMM_MAX_SLICES || !runs_match(s, q->in, q->slice_of))
        return;
    for (int x = 0; x < q->ncv; x++) {
        size_t n = 0, e0 = 0;
        if (q->in->exhaustive)   /* the reference: one output at a time, every output */
            for (; e0 < q->nfit; e0++) {
                q->pred[e0] = predict_one(q, s, x, e0);
                n += q->pred[e0] == q->got[e0];
                q->any_ok[e0] |= q->pred[e0] == q->got[e0];
            }
        for (; e0 < q->nfit && can_matter(q, x, n + (q->nfit - e0)); e0 += FIT_BLOCK)
            n += score_block(q, s, x, e0, e0 + FIT_BLOCK < q->nfit ? e0 + FIT_BLOCK : q->nfit);
        if (e0 < q->nfit) {
            keep_pruned(q, s, x, e0);
            continue;
        }
        q->scored++;
        keep_top(q, s, q->cvs[x], n);
        q->best_by_cv[x] = n > q->best_by_cv[x] ? n : q->best_by_cv[x];
        if (!q->have || n > q->best_n) {
            q->have = true, q->best = *s, q->best_cv = q->cvs[x], q->best_n = n;
            memcpy(q->best_pred, q->pred, q->nfit * sizeof *q->pred);
        }
    }
}

/* The next permutation of b[0..n) in lexical order; false after the last. */
static bool next_order(unsigned char *b, int n)
{
    int i = n - 2;
    while (i >= 0 && b[i] >= b[i + 1])
        i--;
    if (i < 0)
        return false;
    int j = n - 1;
    while (b[j] <= b[i])
        j--;
    unsigned char t = b[i];
    b[i] = b[j], b[j] = t;
    for (int lo = i + 1, hi = n - 1; lo < hi; lo++, hi--)
        t = b[lo], b[lo] = b[hi], b[hi] = t;
    return true;
}

/* Each way slices can meet, once per distinct arithmetic (two slices: one
 * order; three: last-to-first is pairwise; XOR trees of a power of two
 * slices in every order of their levels but 0, 1, .., which is pairwise). */
static void try_orders(search *q, tc_gemm_struct s)
{
    static const tc_gemm_combine order[] = {GEMM_COMBINE_SEQ, GEMM_COMBINE_PAIRWISE, GEMM_COMBINE_REVERSE};
    for (int o = 0; o < 3; o++) {
        if ((o > 0 && s.splitk <= 2) || (o == 2 && s.splitk == 3))
            continue;
        s.combine = order[o];
        try_struct(q, &s);
    }
    int L = gemm_xor_levels(s.splitk);
    s.combine = GEMM_COMBINE_XOR;
    for (int l = 0; l < L; l++)
        s.xor_bits[l] = (unsigned char)l;
    while (L && next_order(s.xor_bits, L))
        try_struct(q, &s);
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

/* Slices of ceil(K / S) rounded up to whole units, the rest to the last
 * one: CUTLASS's split-K (GemmUniversal: gemm_k_size = round_up(
 * ceil_div(K, slices), kAlignK)), which gemm_struct_bounds (leftover units
 * to the last slices) does not make, so these are cut explicitly. Tried
 * after every other candidate: what was kept before changes only where
 * one of these predicts strictly more outputs. */
static void try_ceil_slices(search *q, int chunk, int P)
{
    long k = q->in->k;
    for (long S = 2; S <= TC_GEMM_MAX_SLICES && S <= k; S++)
        for (long unit = chunk > 0 ? chunk : 1; unit * S <= k; unit *= 2) {
            long per = ((k + S - 1) / S + unit - 1) / unit * unit;
            if ((S - 1) * per >= k)
                continue;
            tc_gemm_struct s = {.chunk = chunk, .promote = P, .splitk = (int)S, .slice_unit = TC_GEMM_CUTS};
            for (long t = 0; t < S; t++)
                s.cut[t] = (int)(t * per);
            s.cut[S] = (int)k;
            try_orders(q, s);
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
    for (int x = 0; x < np; x++)
        try_ceil_slices(q, chunk, P[x]);
}

/* ---- the fit ---------------------------------------------------------------- */

/* Every run range's FP32 sum (added in K order from its first run), made
 * once: each slice of each structure is one of them, so a structure costs
 * a few additions an output instead of one a run. Only while the table
 * stays within SLICE_TABLE_BYTES (few runs: where the cut subsets are many). */
#define SLICE_TABLE_BYTES ((size_t)128 << 20)

static float *slice_table(const float *rs, size_t R, size_t nfit)
{
    if (R < 2 || !nfit || (R + 1) * (R + 1) * nfit * sizeof(float) > SLICE_TABLE_BYTES)
        return NULL;
    float *t = gemm_alloc((R + 1) * (R + 1) * nfit, sizeof *t);
    for (size_t a = 0; a < R; a++) {
        float *prev = t + (a * (R + 1) + a + 1) * nfit;
        memcpy(prev, rs + a * nfit, nfit * sizeof *prev);
        for (size_t b = a + 2; b <= R; b++) {
            float *cur = t + (a * (R + 1) + b) * nfit;
            const float *x = rs + (b - 1) * nfit;
            for (size_t e = 0; e < nfit; e++)
                cur[e] = prev[e] + x[e];
            prev = cur;
        }
    }
    return t;
}

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
    if (in->force_cv)
        q.ncv = 1, q.cvs[0] = in->only_cv;
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
        q.table[x] = slice_table(rs, (size_t)in->nruns, nfit);
    }
    q.any_ok = gemm_alloc(nfit, sizeof *q.any_ok);
    q.best_pred = gemm_alloc(nfit, sizeof *q.best_pred), q.pred = gemm_alloc(nfit, sizeof *q.pred);
    q.slice_of = gemm_alloc((size_t)in->nruns, sizeof *q.slice_of);
    q.v = gemm_alloc(TC_GEMM_MAX_SLICES, sizeof *q.v);
    q.blk = gemm_alloc((size_t)(TC_GEMM_MAX_SLICES + 1 + PAIRWISE_LEVELS) * FIT_BLOCK, sizeof *q.blk);
    candidates(&q, in->chunk);
    settle_pruned(&q);
    o->have = q.have, o->s = q.best, o->cv = q.best_cv, o->nfit = nfit, o->best_n = q.best_n;
    o->ncand = q.ntop, o->ncv = q.ncv, o->scored = q.scored, o->pruned = q.npruned;
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
        free((void *)q.rs[x]), free(q.table[x]);
    free(fi), free(fj), free(got), free(q.any_ok), free(q.best_pred), free(q.pred), free(q.slice_of), free(q.v), free(q.blk),
        free(q.pruned);
    return rc;
}
