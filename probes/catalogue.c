/* The instruction catalogue for sm_90a (the H100).
 *
 * Built once from a few generator loops rather than typed out entry by entry,
 * so that names, shapes and formats cannot disagree: the name is made from
 * the fields. What the SASS really shows (native or emulated) is not stored
 * here: it is read from the built kernels on the GPU and recorded.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "probes/probes.h"

#define CAT_MAX 512
#define NAME_LEN 64

static tc_instr cat[CAT_MAX];
static char names[CAT_MAX][NAME_LEN];
static size_t ncat;
static pthread_once_t cat_once = PTHREAD_ONCE_INIT;

/* Appends one entry; the name follows DESIGN.md:
 *   mma[.sp].mMnNkK.D.A.B.C, wmma.mMnNkK.D.A.B.C, wgmma[.sp].mMnNkK.D.A.B[.rs] */
static void add(const char *api, int m, int n, int k, const tc_format *a, const tc_format *b,
                const tc_format *c, const tc_format *d, const char *sass, int sm, bool rs)
{
    if (ncat >= CAT_MAX)
        return; /* the table is sized for the generators below; a test checks the count */
    tc_instr *e = &cat[ncat];
    char *nm = names[ncat];
    bool wg = !strncmp(api, "wgmma", 5);
    if (wg)
        snprintf(nm, NAME_LEN, "%s.m%dn%dk%d.%s.%s.%s%s", api, m, n, k, d->name, a->name,
                 b->name, rs ? ".rs" : "");
    else
        snprintf(nm, NAME_LEN, "%s.m%dn%dk%d.%s.%s.%s.%s", api, m, n, k, d->name, a->name,
                 b->name, c->name);
    e->name = nm;
    e->api = api;
    e->m = m;
    e->n = n;
    e->k = k;
    e->a = a;
    e->b = b;
    e->c = c;
    e->d = d;
    e->sass = sass;
    e->sm_min = sm;
    e->sparse = strstr(api, ".sp") != NULL;
    e->a_in_regs = rs;
    ncat++;
}

static const tc_format *const fp8[2] = {&tc_e4m3, &tc_e5m2};

static void add_mma_dense(void)
{
    static const int k16[2] = {8, 16};
    for (int i = 0; i < 2; i++) {
        add("mma", 16, 8, k16[i], &tc_f16, &tc_f16, &tc_f16, &tc_f16, "HMMA", 80, false);
        add("mma", 16, 8, k16[i], &tc_f16, &tc_f16, &tc_f32, &tc_f32, "HMMA", 80, false);
        add("mma", 16, 8, k16[i], &tc_bf16, &tc_bf16, &tc_f32, &tc_f32, "HMMA", 80, false);
    }
    add("mma", 16, 8, 4, &tc_tf32, &tc_tf32, &tc_f32, &tc_f32, "HMMA", 80, false);
    add("mma", 16, 8, 8, &tc_tf32, &tc_tf32, &tc_f32, &tc_f32, "HMMA", 80, false);
    /* FP8 mma.sync exists from sm_89; the ISA allows f16 or f32 for C/D. */
    for (int ia = 0; ia < 2; ia++)
        for (int ib = 0; ib < 2; ib++) {
            add("mma", 16, 8, 32, fp8[ia], fp8[ib], &tc_f32, &tc_f32, "HMMA", 89, false);
            add("mma", 16, 8, 32, fp8[ia], fp8[ib], &tc_f16, &tc_f16, "HMMA", 89, false);
        }
    add("mma", 8, 8, 4, &tc_f64, &tc_f64, &tc_f64, &tc_f64, "DMMA", 80, false);
    add("mma", 16, 8, 4, &tc_f64, &tc_f64, &tc_f64, &tc_f64, "DMMA", 90, false);
    add("mma", 16, 8, 8, &tc_f64, &tc_f64, &tc_f64, &tc_f64, "DMMA", 90, false);
    add("mma", 16, 8, 16, &tc_f64, &tc_f64, &tc_f64, &tc_f64, "DMMA", 90, false);
    /* Integer control: every product and sum is exact. */
    static const tc_format *const i8[2] = {&tc_s8, &tc_u8};
    for (int ia = 0; ia < 2; ia++)
        for (int ib = 0; ib < 2; ib++)
            add("mma", 16, 8, 32, i8[ia], i8[ib], &tc_s32, &tc_s32, "IMMA", 80, false);
}

static void add_mma_sparse(void)
{
    static const int k[2] = {16, 32};
    for (int i = 0; i < 2; i++) {
        add("mma.sp", 16, 8, k[i], &tc_f16, &tc_f16, &tc_f16, &tc_f16, "HMMA", 80, false);
        add("mma.sp", 16, 8, k[i], &tc_f16, &tc_f16, &tc_f32, &tc_f32, "HMMA", 80, false);
        add("mma.sp", 16, 8, k[i], &tc_bf16, &tc_bf16, &tc_f32, &tc_f32, "HMMA", 80, false);
        add("mma.sp", 16, 8, k[i] / 2, &tc_tf32, &tc_tf32, &tc_f32, &tc_f32, "HMMA", 80, false);
    }
    for (int ia = 0; ia < 2; ia++)
        for (int ib = 0; ib < 2; ib++)
            add("mma.sp", 16, 8, 64, fp8[ia], fp8[ib], &tc_f32, &tc_f32, "HMMA", 89, false);
}

static void add_wmma(void)
{
    add("wmma", 16, 16, 16, &tc_f16, &tc_f16, &tc_f16, &tc_f16, "HMMA", 70, false);
    add("wmma", 16, 16, 16, &tc_f16, &tc_f16, &tc_f32, &tc_f32, "HMMA", 70, false);
    add("wmma", 16, 16, 16, &tc_bf16, &tc_bf16, &tc_f32, &tc_f32, "HMMA", 80, false);
    add("wmma", 16, 16, 8, &tc_tf32, &tc_tf32, &tc_f32, &tc_f32, "HMMA", 80, false);
}

/* The wgmma N values built (the ISA has every multiple of 8 up to 256). */
static const int wg_n[] = {8, 16, 32, 64, 128, 256};

static void add_wgmma_types(const char *api, int kmul, bool rs)
{
    size_t nn = sizeof wg_n / sizeof wg_n[0];
    for (size_t i = 0; i < nn; i++) {
        int n = wg_n[i];
        add(api, 64, n, 16 * kmul, &tc_f16, &tc_f16, &tc_f16, &tc_f16, "HGMMA", 90, rs);
        add(api, 64, n, 16 * kmul, &tc_f16, &tc_f16, &tc_f32, &tc_f32, "HGMMA", 90, rs);
        add(api, 64, n, 16 * kmul, &tc_bf16, &tc_bf16, &tc_f32, &tc_f32, "HGMMA", 90, rs);
        add(api, 64, n, 8 * kmul, &tc_tf32, &tc_tf32, &tc_f32, &tc_f32, "HGMMA", 90, rs);
        for (int ia = 0; ia < 2; ia++)
            for (int ib = 0; ib < 2; ib++) {
                add(api, 64, n, 32 * kmul, fp8[ia], fp8[ib], &tc_f16, &tc_f16, "QGMMA", 90, rs);
                add(api, 64, n, 32 * kmul, fp8[ia], fp8[ib], &tc_f32, &tc_f32, "QGMMA", 90, rs);
            }
    }
}

static void build(void)
{
    add_mma_dense();
    add_mma_sparse();
    add_wmma();
    add_wgmma_types("wgmma", 1, false);
    add_wgmma_types("wgmma", 1, true);
    add_wgmma_types("wgmma.sp", 2, false);
}

const tc_instr *tc_catalogue(size_t *count)
{
    pthread_once(&cat_once, build);
    *count = ncat;
    return cat;
}

const tc_instr *tc_instr_by_name(const char *name)
{
    size_t n;
    const tc_instr *c = tc_catalogue(&n);
    if (!name)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(c[i].name, name))
            return &c[i];
    return NULL;
}
