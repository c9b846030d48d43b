/* Chain-length sweeps: inputs, the chains on a backend (or the host FP32
 * baseline), the exact reference, and per-step statistics. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/sweep_internal.h"

#define HOST_M 16
#define HOST_K 16

static void set_err(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void set_err(char *err, size_t len, const char *fmt, ...)
{
    if (!err || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

const tc_instr *sweep_instr_for(const tc_format *f)
{
    size_t n;
    const tc_instr *cat = tc_catalogue(&n), *best = NULL;
    const char *acc = !strcmp(f->name, "f64") ? "f64" : "f32";
    for (size_t i = 0; i < n; i++) {
        const tc_instr *in = &cat[i];
        if (strcmp(in->api, "mma") || in->sparse || strcmp(in->a->name, f->name) ||
            strcmp(in->b->name, f->name) || strcmp(in->d->name, acc) || strcmp(in->c->name, acc))
            continue;
        if (!best || in->k > best->k || (in->k == best->k && in->m > best->m))
            best = in;
    }
    return best;
}

const char *sweep_instr_unfit(const tc_instr *ins)
{
    if (ins->sparse)
        return "sparse instructions need 2:4 structured inputs";
    if (strcmp(ins->a->name, ins->b->name))
        return "A and B formats differ (a chain feeds D back as A)";
    if (ins->a->specials == TC_SPECIALS_INT || ins->d->specials == TC_SPECIALS_INT)
        return "integer formats";
    return NULL;
}

double sweep_quantile_sorted(const double *v, size_t n, double q)
{
    if (n == 0)
        return NAN;
    size_t rank = (size_t)ceil(q * (double)n);   /* nearest rank, 1-based */
    if (rank < 1)
        rank = 1;
    return v[rank - 1];
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Host FP32 baseline: D = X * B with fmaf in k order from +0 (a classic
 * FP32 dot product, no tensor core). */
static void host_chain_step(const uint64_t *X, const uint64_t *B, uint64_t *D)
{
    for (int r = 0; r < HOST_M; r++)
        for (int c = 0; c < HOST_K; c++) {
            float acc = 0.0f;
            for (int q = 0; q < HOST_K; q++) {
                float x, b;
                uint32_t xb = (uint32_t)X[r * HOST_K + q], bb = (uint32_t)B[q * HOST_K + c];
                memcpy(&x, &xb, 4);
                memcpy(&b, &bb, 4);
                acc = fmaf(x, b, acc);
            }
            uint32_t db;
            memcpy(&db, &acc, 4);
            D[r * HOST_K + c] = db;
        }
}

typedef struct {
    const sweep_params *p;
    const tc_instr *ins;
    const tc_format *dfmt;
    int m, k, n;
    size_t T, mk, kk;
    uint64_t *A0, *B, *X, *D;   /* trace layout */
    double *log2_sx;            /* [t][i] */
} chain_run;

/* The scale of X_i from D_i (pertensor FP8) and the conversion itself. */
static void convert_step(const chain_run *cr, const uint64_t *Di, uint64_t *Xi, double *log2_s)
{
    const sweep_params *p = cr->p;
    double amax = 0;
    for (size_t j = 0; j < cr->mk; j++) {
        double d = tc_decode_to_f64(cr->dfmt, Di[j]);
        if (isfinite(d) && fabs(d) > amax)
            amax = fabs(d);
    }
    double s = p->pertensor && sweep_is_fp8(p->fmt) ? sweep_pow2_scale(p->fmt, amax) : 1;
    *log2_s = log2(s);
    tc_rounding r = sweep_cvt_rounding(p);
    for (size_t j = 0; j < cr->mk; j++)
        Xi[j] = tc_encode_f64(p->fmt, tc_decode_to_f64(cr->dfmt, Di[j]) * s, r);
}

/* One step of every chain as independent MMA tiles: D_t = X_t * B_t is
 * ceil(K/n) tiles of m x n x k over B's column blocks, the last one padded
 * with +0 columns (each D element is its own dot product, so padding changes
 * no kept element), C = +0. The products are the instruction's own. */
static int step_as_tiles(tc_backend *b, const chain_run *cr, const uint64_t *X, const uint64_t *Bs, uint64_t *D,
                         char *err, size_t len)
{
    const size_t M = (size_t)cr->m, K = (size_t)cr->k, n = (size_t)cr->ins->n, nb = (K + n - 1) / n, T = cr->T;
    const size_t ntiles = T * nb;
    uint64_t *A = malloc(ntiles * M * K * sizeof *A), *B = calloc(ntiles * K * n, sizeof *B);
    uint64_t *C = calloc(ntiles * M * n, sizeof *C), *Dt = malloc(ntiles * M * n * sizeof *Dt);
    if (!A || !B || !C || !Dt) {
        free(A), free(B), free(C), free(Dt);
        set_err(err, len, "out of memory for %zu tiles", ntiles);
        return -1;
    }
    for (size_t t = 0; t < T; t++)
        for (size_t jb = 0; jb < nb; jb++) {
            size_t tile = t * nb + jb, w = K - jb * n < n ? K - jb * n : n;
            memcpy(A + tile * M * K, X + t * M * K, M * K * sizeof *A);
            for (size_t q = 0; q < K; q++)
                memcpy(B + tile * K * n + q * n, Bs + t * K * K + q * K + jb * n, w * sizeof *B);
        }
    int rc = tc_backend_mma(b, cr->ins, ntiles, A, B, C, Dt, err, len);
    for (size_t t = 0; rc == 0 && t < T; t++)
        for (size_t jb = 0; jb < nb; jb++) {
            size_t w = K - jb * n < n ? K - jb * n : n;
            for (size_t r = 0; r < M; r++)
                memcpy(D + t * M * K + r * K + jb * n, Dt + (t * nb + jb) * M * n + r * n, w * sizeof *D);
        }
    free(A);
    free(B);
    free(C);
    free(Dt);
    return rc;
}

/* Chains step by step: the backend multiplies, the conversion (and the
 * per-tensor scaling, as FP8 training casts do) happens here with formats/,
 * whose conversions are proven equal to the GPU's cvt. */
static int run_stepwise(tc_backend *b, chain_run *cr, char *err, size_t len)
{
    size_t T = cr->T, mk = cr->mk, kk = cr->kk, n = (size_t)cr->n;
    uint64_t *Xin = malloc(T * mk * sizeof *Xin), *Bi = malloc(T * kk * sizeof *Bi), *Di = malloc(T * mk * sizeof *Di);
    int rc = 0;
    if (!Xin || !Bi || !Di) {
        set_err(err, len, "out of memory");
        rc = -1;
    } else
        memcpy(Xin, cr->A0, T * mk * sizeof *Xin);
    for (size_t i = 0; i < n && rc == 0; i++) {
        for (size_t t = 0; t < T; t++) {
            memcpy(Bi + t * kk, cr->B + (t * n + i) * kk, kk * sizeof *Bi);
            memcpy(cr->X + (t * n + i) * mk, Xin + t * mk, mk * sizeof *Xin);
        }
        rc = step_as_tiles(b, cr, Xin, Bi, Di, err, len);
        for (size_t t = 0; rc == 0 && t < T; t++) {
            memcpy(cr->D + (t * n + i) * mk, Di + t * mk, mk * sizeof *Di);
            if (i + 1 < n)
                convert_step(cr, Di + t * mk, Xin + t * mk, &cr->log2_sx[t * n + i + 1]);
        }
    }
    free(Xin);
    free(Bi);
    free(Di);
    return rc;
}

/* Unscaled chains run through tc_backend_chain (the backend converts with its
 * own cvt, checked here against formats/); with per-tensor scaling, or when
 * asked (stepwise), step by step. *path says which. */
static int run_backend_chain(tc_backend *b, chain_run *cr, bool scaled, size_t *cvt_mismatch, const char **path,
                             char *err, size_t len)
{
    size_t T = cr->T, mk = cr->mk, n = (size_t)cr->n;
    if (!scaled && !cr->p->stepwise) {
        tc_rounding cvt = sweep_cvt_rounding(cr->p);
        if (tc_backend_chain(b, cr->ins, T, cr->n, cr->A0, cr->B, NULL, cvt, cr->X, cr->D, err, len))
            return -1;
        *path = "backend chain";
        uint64_t *want = malloc(mk * sizeof *want);
        if (!want) {
            set_err(err, len, "out of memory");
            return -1;
        }
        for (size_t t = 0; t < T; t++)
            for (size_t i = 1; i < n; i++) {
                double l2;
                convert_step(cr, cr->D + (t * n + i - 1) * mk, want, &l2);
                for (size_t j = 0; j < mk; j++)
                    *cvt_mismatch += want[j] != cr->X[(t * n + i) * mk + j];
            }
        free(want);
        return 0;
    }
    *path = "stepwise mma, conversion by formats/";
    return run_stepwise(b, cr, err, len);
}

static void run_host_chain(chain_run *cr)
{
    size_t mk = cr->mk, kk = cr->kk, n = (size_t)cr->n;
    for (size_t t = 0; t < cr->T; t++)
        for (size_t i = 0; i < n; i++) {
            uint64_t *X = cr->X + (t * n + i) * mk, *D = cr->D + (t * n + i) * mk;
            if (i == 0)
                memcpy(X, cr->A0 + t * mk, mk * sizeof *X);
            else
                memcpy(X, D - mk, mk * sizeof *X);   /* FP32 to FP32: no conversion */
            host_chain_step(X, cr->B + (t * n + i) * kk, D);
        }
}

static void draw_inputs(chain_run *cr)
{
    const sweep_params *p = cr->p;
    sweep_rng rng;
    sweep_rng_seed(&rng, p->seed, p->fmt->name);
    double bscale = p->dist == SWEEP_INTS ? 1 : 1 / sqrt(cr->k * sweep_variance(p->dist, p->log_range));
    double *x = malloc((cr->kk > cr->mk ? cr->kk : cr->mk) * sizeof *x);
    size_t n = (size_t)cr->n;
    for (size_t t = 0; t < cr->T; t++) {
        for (size_t j = 0; j < cr->mk; j++)
            x[j] = sweep_draw(&rng, p->dist, p->log_range);
        sweep_encode_tensor(p, x, cr->mk, cr->A0 + t * cr->mk);
        for (size_t i = 0; i < n; i++) {
            for (size_t j = 0; j < cr->kk; j++)
                x[j] = sweep_draw(&rng, p->dist, p->log_range) * bscale;
            sweep_encode_tensor(p, x, cr->kk, cr->B + (t * n + i) * cr->kk);
        }
    }
    free(x);
}

/* The scale the last step's output would get (no step follows to record it). */
static double last_step_scale(const chain_run *cr, const uint64_t *D)
{
    if (!(cr->p->pertensor && sweep_is_fp8(cr->p->fmt)))
        return 1;
    double amax = 0;
    for (size_t j = 0; j < cr->mk; j++) {
        double d = tc_decode_to_f64(cr->dfmt, D[j]);
        if (isfinite(d) && fabs(d) > amax)
            amax = fabs(d);
    }
    return sweep_pow2_scale(cr->p->fmt, amax);
}

/* Statistics of step i over all trials. */
/* Median, 90th percentile and max of the non-NaN values (v is reordered). */
static void quantiles(double *v, size_t total, size_t *n, double *med, double *p90, double *max)
{
    size_t cnt = 0;
    for (size_t j = 0; j < total; j++)
        if (!isnan(v[j]))
            v[cnt++] = v[j];
    qsort(v, cnt, sizeof *v, cmp_double);
    *n = cnt;
    *med = sweep_quantile_sorted(v, cnt, 0.5);
    *p90 = sweep_quantile_sorted(v, cnt, 0.9);
    *max = cnt ? v[cnt - 1] : NAN;
}

static void step_stats(const chain_run *cr, const double *err, const double *lerr, size_t i, sweep_step *st)
{
    size_t total = cr->T * cr->mk, n = (size_t)cr->n, over = 0, nan = 0, ln;
    double *v = malloc(total * sizeof *v);
    if (!v) { /* sweep_run's budget makes this rare; a step without figures says so */
        st->n = 0;
        st->median = st->p90 = st->max = st->local_median = st->local_p90 = st->local_max = NAN;
        st->overflow = st->nan = NAN;
        return;
    }
    const double maxf = sweep_format_max(cr->p->fmt);
    double dmax = sweep_format_max(cr->dfmt);
    tc_rounding r = sweep_cvt_rounding(cr->p);
    for (size_t t = 0; t < cr->T; t++) {
        const uint64_t *D = cr->D + (t * n + i) * cr->mk;
        double s = i + 1 < n ? exp2(cr->log2_sx[t * n + i + 1]) : last_step_scale(cr, D);
        for (size_t j = 0; j < cr->mk; j++) {
            double d = tc_decode_to_f64(cr->dfmt, D[j]);
            if (isnan(d)) {
                nan++;
                continue;
            }
            if (isinf(d) || fabs(d) > dmax) {
                over++;
                continue;
            }
            double x = tc_decode_to_f64(cr->p->fmt, tc_encode_f64(cr->p->fmt, d * s, r));
            if (isnan(x))
                nan++;
            else if (isinf(x) || (fabs(x) == maxf && fabs(d * s) > maxf))
                over++;
        }
    }
    memcpy(v, err, total * sizeof *v);
    quantiles(v, total, &st->n, &st->median, &st->p90, &st->max);
    memcpy(v, lerr, total * sizeof *v);
    quantiles(v, total, &ln, &st->local_median, &st->local_p90, &st->local_max);
    st->overflow = (double)over / (double)total;
    st->nan = (double)nan / (double)total;
    free(v);
}

int sweep_run(tc_backend *b, const sweep_params *p, sweep_result *r, char *err, size_t len)
{
    memset(r, 0, sizeof *r);
    if (p->chain < 1 || p->trials < 1) {
        set_err(err, len, "chain length and trials must be at least 1");
        return -1;
    }
    chain_run cr = {.p = p, .n = p->chain, .T = (size_t)p->trials};
    bool host = !strcmp(p->fmt->name, "f32");
    if (host) {
        cr.m = HOST_M;
        cr.k = HOST_K;
        cr.dfmt = &tc_f32;
        r->instr_name = "host.fma.f32";
        r->chain_path = "host fmaf";
    } else {
        cr.ins = p->ins ? p->ins : sweep_instr_for(p->fmt);
        if (!cr.ins) {
            set_err(err, len, "no catalogue instruction takes %s inputs for a chain", p->fmt->name);
            return -1;
        }
        const char *unfit = sweep_instr_unfit(cr.ins);
        if (unfit || strcmp(cr.ins->a->name, p->fmt->name)) {
            set_err(err, len, "%s cannot run a %s chain: %s", cr.ins->name, p->fmt->name,
                    unfit ? unfit : "its A format differs");
            return -1;
        }
        char why[256] = "";
        if (!b || !tc_backend_supports(b, cr.ins, why, sizeof why)) {
            set_err(err, len, "the backend cannot run %s: %s", cr.ins->name, why[0] ? why : "no backend");
            return -1;
        }
        cr.m = cr.ins->m;
        cr.k = cr.ins->k;
        cr.dfmt = cr.ins->d;
        r->instr_name = cr.ins->name;
    }
    r->ins = cr.ins;
    r->m = cr.m;
    r->k = cr.k;
    r->scaled = p->pertensor && sweep_is_fp8(p->fmt);
    cr.mk = (size_t)cr.m * cr.k;
    cr.kk = (size_t)cr.k * cr.k;
    size_t n = (size_t)cr.n, T = cr.T;
    /* Every step of every trial is kept (B, X, D, two errors, A0): at most
     * SWEEP_MAX_ELEMS elements, checked before the products are formed. */
    if (T > SWEEP_MAX_ELEMS / (cr.kk + 5 * cr.mk) / n) {
        set_err(err, len, "%zu trials of %zu steps of %s exceed the sweep budget of %llu elements "
                "(trials x chain x (K*K + 5*M*K), K = %d, M = %d)", T, n, r->instr_name,
                (unsigned long long)SWEEP_MAX_ELEMS, cr.k, cr.m);
        return -1;
    }
    cr.A0 = malloc(T * cr.mk * sizeof *cr.A0);
    cr.B = malloc(T * n * cr.kk * sizeof *cr.B);
    cr.X = malloc(T * n * cr.mk * sizeof *cr.X);
    cr.D = malloc(T * n * cr.mk * sizeof *cr.D);
    cr.log2_sx = calloc(T * n, sizeof *cr.log2_sx);
    double *errs = malloc(n * T * cr.mk * sizeof *errs), *lerrs = malloc(n * T * cr.mk * sizeof *lerrs);
    int rc = 0;
    if (!cr.A0 || !cr.B || !cr.X || !cr.D || !cr.log2_sx || !errs || !lerrs) {
        set_err(err, len, "out of memory");
        rc = -1;
    } else {
        draw_inputs(&cr);
        if (host)
            run_host_chain(&cr);
        else
            rc = run_backend_chain(b, &cr, r->scaled, &r->cvt_mismatches, &r->chain_path, err, len);
    }
    if (rc == 0) {
        sweep_ref_job job = {p, cr.dfmt, cr.m, cr.k, cr.n, T, cr.A0, cr.B, cr.X, cr.D, cr.log2_sx, errs, lerrs};
        sweep_reference(&job);
        r->steps = calloc(n, sizeof *r->steps);
        if (!r->steps) {
            set_err(err, len, "out of memory");
            rc = -1;
        }
        for (size_t i = 0; rc == 0 && i < n; i++)
            step_stats(&cr, errs + i * T * cr.mk, lerrs + i * T * cr.mk, i, &r->steps[i]);
    }
    if (rc == 0 && p->keep_trace) {
        r->A0 = cr.A0;
        r->B = cr.B;
        r->X = cr.X;
        r->D = cr.D;
        r->err = errs;
        free(lerrs);
        r->scale_x = cr.log2_sx;
        for (size_t i = 0; i < T * n; i++)
            r->scale_x[i] = exp2(r->scale_x[i]);
        return 0;
    }
    free(cr.A0);
    free(cr.B);
    free(cr.X);
    free(cr.D);
    free(cr.log2_sx);
    free(errs);
    free(lerrs);
    return rc;
}

void sweep_result_free(sweep_result *r)
{
    free(r->steps);
    free(r->A0);
    free(r->B);
    free(r->X);
    free(r->D);
    free(r->err);
    free(r->scale_x);
    memset(r, 0, sizeof *r);
}
