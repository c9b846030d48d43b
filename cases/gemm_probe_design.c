/* The probe's exported inputs (cases/probe.h): the formats, the design of
 * a shape (magnitudes, experiment classes, the runs' granularity, the
 * verify grid) and each product's A and B. Everything here is a function
 * of (M, N, K, format, seed): the inference makes the same design again
 * and checks the files against the manifest's hashes. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"
#include "cases/probe.h"
#include "cases/sweep_internal.h"

static const tc_probe_format formats[] = {
    {"f16", "f16", "<f2", "<f2", "IEEE binary16 (numpy float16)"},
    {"bf16", "bf16", "<u2", "<u2", "bfloat16 as raw bits (uint16; view as bfloat16: the upper half of a float32)"},
    {"f32", "tf32", "<f4", "<f4", "IEEE binary32 (numpy float32); a library may make tf32 of them"},
    {"e4m3", "e4m3", "|u1", "|u1", "FP8 E4M3 (OCP, finite-only) as raw bits (uint8); per-tensor scales 1.0"},
    {"e5m2", "e5m2", "|u1", "|u1",
     "A: FP8 E5M2, B: FP8 E4M3 (libraries have no E5M2 x E5M2), as raw bits (uint8); per-tensor scales 1.0"},
};

const tc_probe_format *tc_probe_formats(size_t *count)
{
    *count = sizeof formats / sizeof formats[0];
    return formats;
}

const tc_probe_format *tc_probe_format_by_name(const char *name)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (!strcmp(formats[i].name, name))
            return &formats[i];
    return NULL;
}

static const char *const product_names[] = {"step", "runs", "verify"};

const char *tc_probe_product_name(tc_probe_product p)
{
    return gemm_name_of(product_names, PROBE_NPRODUCTS, (int)p);
}

/* A product v as a (row of A) times b (column of B), both exact: a = v / 2^h, b = 2^h. */
typedef struct {
    uint32_t a, b;
} factors;

static bool factor(const tc_gemm_path *p, double v, factors *f)
{
    int h = (int)floor(log2(fabs(v)) / 2);
    tc_rounding r = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    f->a = (uint32_t)tc_encode_f64(p->a, ldexp(v, -h), r);
    f->b = (uint32_t)tc_encode_f64(p->b, ldexp(1, h), r);
    return tc_decode_to_f64(p->a, f->a) * tc_decode_to_f64(p->b, f->b) == v;
}

int tc_probe_design_make(int m, int n, int k, const char *format, uint64_t seed, tc_probe_design *d, char *err,
                         size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->fmt = tc_probe_format_by_name(format);
    if (!d->fmt) {
        snprintf(err, errlen, "unknown format '%.40s' (f16, bf16, f32, e4m3, e5m2)", format);
        return -1;
    }
    if (m < 16 || n < 16 || m > 16384 || n > 16384 || k < 16 || k > 65536 || k % 16) {
        snprintf(err, errlen, "shape %dx%dx%d out of range (M, N 16..16384; K a multiple of 16 in 16..65536)", m, n,
                 k);
        return -1;
    }
    if ((size_t)m * k > ((size_t)1 << 28) || (size_t)k * n > ((size_t)1 << 28)) {
        snprintf(err, errlen, "shape %dx%dx%d: more than 2^28 elements in A or B", m, n, k);
        return -1;
    }
    d->m = m, d->n = n, d->k = k, d->seed = seed;
    d->path = tc_gemm_path_by_name(d->fmt->path);
    if (d->path->fp8)
        d->L = 0x1p16, d->s_run = 0x1.8p-8, d->s_step = 1, d->cancel = false;
    else if (d->path->a == &tc_f16)   /* partial sums and outputs may be f16: L stays inside its range */
        d->L = 0x1p15, d->s_run = 0x1.8p-9, d->s_step = 0x1p-14, d->cancel = true;
    else
        d->L = 0x1p30, d->s_run = 0x1.8p6, d->s_step = 1, d->cancel = true;
    factors f;
    if (!factor(d->path, d->L, &f) || !factor(d->path, -d->L, &f) || !factor(d->path, d->s_run, &f) ||
        !factor(d->path, d->s_step, &f)) {
        snprintf(err, errlen, "masking products not exact in %s", format);   /* a bug in the table above */
        return -1;
    }
    d->step_r = d->step_c = 16;
    d->step_q = k < 256 ? k : 256;
    d->runs_r = m < 64 ? m : 64;
    d->runs_c = n < 64 ? n : 64;
    int cap = d->runs_r * d->runs_c;
    for (d->gran = 8; (k + d->gran - 1) / d->gran > cap; d->gran *= 2)
        ;
    d->nbound = (k + d->gran - 1) / d->gran;
    /* At least 2^14 random outputs, on a grid spread over every tile. */
    int s = (int)floor(sqrt((double)m * n / 16384.0));
    for (s = s > 1 ? s : 1; s > 1 && (size_t)((m + s - 1) / s) * ((n + s - 1) / s) < 16384; s--)
        ;
    d->vrow = d->vcol = s;
    d->dist = SWEEP_NORMAL;
    return 0;
}

int tc_probe_step_q(const tc_probe_design *d, int i, int j)
{
    return d->step_c * (i % d->step_r) + j % d->step_c;
}

int tc_probe_runs_u(const tc_probe_design *d, int i, int j)
{
    return d->runs_c * (i % d->runs_r) + j % d->runs_c;
}

/* Value v at position pos in every row of class r (of R) and every column
 * of class c (of C); r or c -1: every row, every column. */
static void place(const tc_probe_design *d, uint32_t *A, uint32_t *B, int pos, double v, int r, int R, int c, int C)
{
    factors f;
    factor(d->path, v, &f);   /* exact: checked by tc_probe_design_make */
    for (int i = 0; i < d->m; i++)
        if (r < 0 || i % R == r)
            A[(size_t)i * d->k + pos] = f.a;
    for (int j = 0; j < d->n; j++)
        if (c < 0 || j % C == c)
            B[(size_t)pos * d->n + j] = f.b;
}

static void step_inputs(const tc_probe_design *d, uint32_t *A, uint32_t *B)
{
    place(d, A, B, 0, d->L, -1, 0, -1, 0);
    place(d, A, B, 1, -d->L, -1, 0, -1, 0);
    for (int q = 2; q < d->step_q; q++)
        place(d, A, B, q, d->s_step, q / d->step_c, d->step_r, q % d->step_c, d->step_c);
}

static void runs_inputs(const tc_probe_design *d, uint32_t *A, uint32_t *B)
{
    for (int u = 1; u < d->nbound; u++) {
        int x = d->gran * u, r = u / d->runs_c, c = u % d->runs_c;
        place(d, A, B, x - 1, d->L, r, d->runs_r, c, d->runs_c);
        place(d, A, B, x, d->s_run, r, d->runs_r, c, d->runs_c);
        if (d->cancel)
            place(d, A, B, x + 1, -d->L, r, d->runs_r, c, d->runs_c);
    }
}

void tc_probe_verify_originals(const tc_probe_design *d, uint32_t *A, uint32_t *B)
{
    tc_gemm_case c = {.m = d->m, .n = d->n, .k = d->k, .dist = d->dist, .seed = d->seed};
    gemm_uploads(tc_gemm_path_by_name("f32"), &c, A, B);   /* FP32 as drawn */
    sweep_rng r;
    sweep_rng_seed(&r, d->seed, "probe-k-scales");
    for (int q0 = 0; q0 < d->k; q0 += TC_PROBE_KBLOCK) {
        int e = (int)(sweep_rng_next(&r) % (2 * TC_PROBE_KSCALE + 1)) - TC_PROBE_KSCALE;
        for (int i = 0; i < d->m; i++)
            for (int q = q0; q < q0 + TC_PROBE_KBLOCK && q < d->k; q++) {
                float x;
                memcpy(&x, &A[(size_t)i * d->k + q], 4);
                x = ldexpf(x, e);   /* exact: normal draws stay far from FP32's range */
                memcpy(&A[(size_t)i * d->k + q], &x, 4);
            }
    }
}

/* The originals rounded to the upload formats (RNE; FP8 saturating, as
 * the gemm cases upload), kept in the grid's rows of A and columns of B. */
static void verify_inputs(const tc_probe_design *d, uint32_t *A, uint32_t *B)
{
    tc_probe_verify_originals(d, A, B);
    tc_rounding r = {.mode = TC_RNE, .ovf = d->path->fp8 ? TC_OVF_SAT : TC_OVF_INF};
    for (int i = 0; i < d->m; i++)
        for (int q = 0; q < d->k; q++) {
            uint32_t *x = &A[(size_t)i * d->k + q];
            float f;
            memcpy(&f, x, 4);
            *x = i % d->vrow ? 0 : (uint32_t)tc_encode_f32(d->path->a, f, r);
        }
    for (int q = 0; q < d->k; q++)
        for (int j = 0; j < d->n; j++) {
            uint32_t *x = &B[(size_t)q * d->n + j];
            float f;
            memcpy(&f, x, 4);
            *x = j % d->vcol ? 0 : (uint32_t)tc_encode_f32(d->path->b, f, r);
        }
}

void tc_probe_inputs(const tc_probe_design *d, tc_probe_product p, uint32_t *A, uint32_t *B)
{
    memset(A, 0, (size_t)d->m * d->k * sizeof *A);
    memset(B, 0, (size_t)d->k * d->n * sizeof *B);
    if (p == PROBE_STEP)
        step_inputs(d, A, B);
    else if (p == PROBE_RUNS)
        runs_inputs(d, A, B);
    else
        verify_inputs(d, A, B);
}
