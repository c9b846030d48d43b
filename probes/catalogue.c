/* The instruction catalogue for sm_90a (the H100).
 *
 * Built once from probes/isa/sm90a.def, the table the kernel generator
 * (probes/isa/gen.py) reads too, so that the catalogue and the kernels cannot
 * disagree; the name is made from the fields. What the SASS really shows
 * (native or emulated) is not stored here: it is read from the built kernels
 * on the GPU and recorded.
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

/* Appends one entry; the name follows doc/design.md:
 *   mma[.sp].mMnNkK.D.A.B.C, wmma.mMnNkK.D.A.B.C, wgmma[.sp].mMnNkK.D.A.B[.rs] */
static void add(const char *api, int m, int n, int k, const tc_format *a, const tc_format *b,
                const tc_format *c, const tc_format *d, const char *sass, int sm, bool rs)
{
    if (ncat >= CAT_MAX)
        return; /* the table is sized for sm90a.def; a test checks the count */
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

/* The wgmma forms, N values and types of probes/isa/sm90a.def. */
typedef struct {
    const char *api;
    int kmul;
    bool rs;
} wg_form;
typedef struct {
    const tc_format *d, *a, *b;
    int k;
    const char *sass;
    int sm;
} wg_type;

static void build(void)
{
#define TC_ISA_MMA(api, m, n, k, d, a, b, c, sass, sm) \
    add(api, m, n, k, &tc_##a, &tc_##b, &tc_##c, &tc_##d, sass, sm, false);
#include "probes/isa/sm90a.def"
    static const wg_form forms[] = {
#define TC_ISA_WG_FORM(api, kmul, rs) {api, kmul, rs},
#include "probes/isa/sm90a.def"
    };
    static const int wg_n[] = {
#define TC_ISA_WG_N(n) n,
#include "probes/isa/sm90a.def"
    };
    static const wg_type types[] = {
#define TC_ISA_WG_TYPE(d, a, b, k, sass, sm) {&tc_##d, &tc_##a, &tc_##b, k, sass, sm},
#include "probes/isa/sm90a.def"
    };
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++)
        for (size_t i = 0; i < sizeof wg_n / sizeof wg_n[0]; i++)
            for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
                const wg_type *y = &types[t];
                add(forms[f].api, 64, wg_n[i], y->k * forms[f].kmul, y->a, y->b, y->d, y->d, y->sass, y->sm,
                    forms[f].rs);
            }
}

const tc_instr *tc_catalogue(size_t *count)
{
    pthread_once(&cat_once, build);
    *count = ncat;
    return cat;
}

uint64_t tc_operand_mask(const tc_format *f)
{
    if (f->shift > 0)
        return f->storage_bits >= 64 ? ~0ull : (1ull << f->storage_bits) - 1;
    return tc_format_mask(f);
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
