/* model_params: the exact setting, validation, names, comparison, and
 * compiling params + formats into a model (decode tables). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/model_internal.h"

model_params model_params_exact(oracle_formats f, tc_rounding r)
{
    model_params p;
    memset(&p, 0, sizeof p);
    /* tc_decode reads a TF32 operand without its 13 unused low bits. */
    /* tc_decode cuts those bits before it classifies: a NaN payload only
     * there reads as Inf (dropped_nan) */
    p.dropped_nan_inf = f.a->shift > 0 || f.b->shift > 0;
    if (f.a->shift > 0) {
        p.cvt_a.convert = true;
        p.cvt_a.fmt = *f.a;
        p.cvt_a.round = TC_RZ;
    }
    if (f.b->shift > 0) {
        p.cvt_b.convert = true;
        p.cvt_b.fmt = *f.b;
        p.cvt_b.round = TC_RZ;
    }
    p.prod_bits = MODEL_EXACT;
    p.prod_round = TC_RNE;
    p.prod_flush_exp = MODEL_NO_FLUSH;
    p.block = 1 << 20;
    p.c_mode = MODEL_C_FIRST;
    p.c_round = r.mode;
    p.align_with_acc = true;
    p.exp_ref = MODEL_EXP_NORMALIZED;
    p.align_bits = MODEL_EXACT;
    p.align_round = MODEL_ALIGN_TRUNC;
    p.carry_bits = MODEL_UNLIMITED;
    p.acc_exact = true;
    p.acc_fmt = *f.d;
    p.acc_round = r.mode;
    p.out_round = r.mode;
    p.out_ovf = r.ovf;
    p.ftz_out = r.ftz;
    p.nan_bits = f.d->nan_bits;
    return p;
}

static bool round_ok(tc_round r)
{
    return r >= TC_RNE && r <= TC_RO;
}

static bool fmt_ok(const tc_format *f)
{
    mfmt t;
    return mfmt_init(&t, f);
}

const char *model_params_check(const model_params *p, oracle_formats f)
{
    if (p->block < 1 || p->block > (1 << 20))
        return "block must be 1..1048576";
    if ((unsigned)p->nan_prop >= MODEL_NAN_ORDERS)
        return "nan_propagate out of range";
    if (p->split_runs < 0 || (p->split_runs > 0 && (p->split_runs >= p->block || p->block % p->split_runs)))
        return "step_split runs must divide block and be smaller than it";
    if (p->align_bits != MODEL_EXACT && (p->align_bits < 0 || p->align_bits > 1000))
        return "align_bits must be exact or 0..1000";
    if (p->prod_bits != MODEL_EXACT && (p->prod_bits < 1 || p->prod_bits > 64))
        return "products must be exact or 1..64 bits";
    if (p->carry_bits < 0 || p->carry_bits > 64)
        return "carry_bits must be unlimited or 1..64";
    if (p->floored && (p->align_floor < -100000 || p->align_floor > 100000))
        return "align_floor out of range";
    if (p->scale_group < 0 || p->scale_group > 4096 || (p->scale_group > 0 && (p->split_runs > 0 || p->block % p->scale_group)))
        return "scale_group must be none or 1..4096, divide block and have contiguous steps";
    if (p->prod_flush_exp != MODEL_NO_FLUSH && (p->prod_flush_exp < -10000 || p->prod_flush_exp > 10000))
        return "product_flush_below must be none or -10000..10000";
    if (!round_ok(p->prod_round) || !round_ok(p->c_round) || !round_ok(p->acc_round) ||
        !round_ok(p->out_round) || (p->cvt_a.convert && !round_ok(p->cvt_a.round)) ||
        (p->cvt_b.convert && !round_ok(p->cvt_b.round)))
        return "rounding modes must be rne, rna, rz, ru, rd or ro";
    if ((unsigned)p->c_mode > MODEL_C_LAST || (unsigned)p->exp_ref > MODEL_EXP_NORMALIZED ||
        (unsigned)p->align_round > MODEL_ALIGN_RNE || (unsigned)p->out_ovf > TC_OVF_NAN)
        return "enumerated field out of range";
    if (p->cvt_a.convert && (!fmt_ok(&p->cvt_a.fmt) || p->cvt_a.fmt.mbits > 30))
        return "a_convert format unusable (needs a signed float of <= 31 bits)";
    if (p->cvt_b.convert && (!fmt_ok(&p->cvt_b.fmt) || p->cvt_b.fmt.mbits > 30))
        return "b_convert format unusable (needs a signed float of <= 31 bits)";
    if (!p->acc_exact && !fmt_ok(&p->acc_fmt))
        return "acc format unusable";
    if (f.d && f.d->storage_bits < 64 && (p->nan_bits >> f.d->storage_bits) != 0)
        return "nan bits wider than the output format";
    return NULL;
}

static void fail(char *err, size_t errlen, const char *fmt, const char *what)
{
    if (err && errlen)
        snprintf(err, errlen, fmt, what);
}

static mdec *build_table(const model *m, int which, int bits)
{
    size_t n = (size_t)1 << bits;
    mdec *t = malloc(n * sizeof *t);
    if (!t)
        return NULL;
    for (size_t i = 0; i < n; i++)
        t[i] = model_input_decode(m, which, i);
    return t;
}

model *model_new(const model_params *p, oracle_formats f, char *err, size_t errlen)
{
    const char *bad = model_params_check(p, f);
    if (bad) {
        fail(err, errlen, "model: %s", bad);
        return NULL;
    }
    model *m = calloc(1, sizeof *m);
    if (!m) {
        fail(err, errlen, "model: %s", "out of memory");
        return NULL;
    }
    m->p = *p;
    m->fa = *f.a;
    m->fb = *f.b;
    m->fc = *f.c;
    m->fd = *f.d;
    m->f.a = &m->fa;
    m->f.b = &m->fb;
    m->f.c = &m->fc;
    m->f.d = &m->fd;
    mfmt ia, ib;
    const char *which = NULL;
    if (!mfmt_init(&ia, f.a))
        which = f.a->name;
    else if (!mfmt_init(&ib, f.b))
        which = f.b->name;
    else if (!mfmt_init(&m->cfmt, f.c))
        which = f.c->name;
    else if (!mfmt_init(&m->out, f.d))
        which = f.d->name;
    if (which) {
        fail(err, errlen, "model: format %s is not a signed floating-point format the model handles", which);
        free(m);
        return NULL;
    }
    mfmt_container(&m->src_a, &ia);
    mfmt_container(&m->src_b, &ib);
    m->used_a = m->src_a;
    m->used_b = m->src_b;
    if (p->cvt_a.convert)
        mfmt_init(&m->used_a, &p->cvt_a.fmt);
    if (p->cvt_b.convert)
        mfmt_init(&m->used_b, &p->cvt_b.fmt);
    if (m->used_a.mbits > 30 || m->used_b.mbits > 30) {
        const char *why = model_wide_unsupported(p);
        if (why) {
            fail(err, errlen, "model: %s", why);
            free(m);
            return NULL;
        }
        m->wide = true;
    }
    if (p->nan_prop != MODEL_NAN_CANONICAL && (!m->wide || !model_wide_payloads_ok(p, f))) {
        fail(err, errlen, "model: %s", "NaN payloads propagate only for wide operands (over 31 bits) with one format throughout");
        free(m);
        return NULL;
    }
    if (!p->acc_exact)
        mfmt_init(&m->acc, &p->acc_fmt);
    int sb[2] = {f.a->storage_bits, f.b->storage_bits};
    for (int w = 0; w < 2; w++)
        m->mask_ab[w] = sb[w] >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << sb[w]) - 1;
    /* Operands the kernel decodes with bit operations: IEEE/FN containers
     * of 16 bits and more (8-bit ones use their small tables), used as
     * given or truncated (RZ) to a format of the same exponent range. */
    const model_cvt *cv[2] = {&p->cvt_a, &p->cvt_b};
    const mfmt *src[2] = {&m->src_a, &m->src_b};
    for (int w = 0; w < 2; w++) {
        bool kind = src[w]->specials == TC_SPECIALS_IEEE || src[w]->specials == TC_SPECIALS_FN;
        bool cvt_ok = !cv[w]->convert ||
                      (cv[w]->round == TC_RZ && cv[w]->fmt.specials == src[w]->specials &&
                       cv[w]->fmt.ebits == src[w]->ebits && cv[w]->fmt.bias == src[w]->bias &&
                       cv[w]->fmt.mbits <= src[w]->mbits && src[w]->specials == TC_SPECIALS_IEEE);
        int drop = cv[w]->convert && cv[w]->fmt.mbits < src[w]->mbits ? src[w]->mbits - cv[w]->fmt.mbits : 0;
        m->direct[w] = kind && cvt_ok && sb[w] >= 16 && src[w]->mbits <= 30;
        m->keep[w] = m->mask_ab[w] & ~((UINT64_C(1) << drop) - 1);
        /* dropped_nan: a cut conversion cuts the encoding before it is read */
        m->premask[w] = p->dropped_nan_inf && cvt_ok && cv[w]->convert ? m->keep[w] : ~UINT64_C(0);
    }
    for (int w = 0; w < 2; w++) {
        if (sb[w] <= 16 && !m->direct[w]) {
            m->tab[w] = build_table(m, w, sb[w]);
            if (!m->tab[w]) {
                model_free(m);
                fail(err, errlen, "model: %s", "out of memory");
                return NULL;
            }
        }
    }
    m->acc_is_out = !p->acc_exact && model_same_format(&m->fd, &p->acc_fmt) && !p->ftz_out;
    m->c_is_acc = !p->acc_exact && model_same_format(&m->fc, &p->acc_fmt);
    m->fast = !m->wide && !p->acc_exact && p->align_bits != MODEL_EXACT && p->block <= 64 &&
              p->prod_bits == MODEL_EXACT &&
              p->align_bits + 2 + bitlen64((uint64_t)p->block + 1) <= 62 &&
              p->carry_bits == MODEL_UNLIMITED && (m->tab[0] || m->direct[0]) &&
              (m->tab[1] || m->direct[1]);
    return m;
}

void model_free(model *m)
{
    if (!m)
        return;
    free(m->tab[0]);
    free(m->tab[1]);
    free(m);
}

const model_params *model_get_params(const model *m)
{
    return &m->p;
}

oracle_formats model_get_formats(const model *m)
{
    return m->f;
}

/* ---- names ---- */

static const char *const c_mode_names[] = {"first", "last"};
static const char *const exp_ref_names[] = {"nominal", "normalized"};
static const char *const align_round_names[] = {"trunc", "floor", "rne"};

static int find_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(names[i], s))
            return i;
    return -1;
}

const char *model_c_mode_name(model_c_mode v)
{
    return (unsigned)v <= MODEL_C_LAST ? c_mode_names[v] : "?";
}

bool model_c_mode_parse(const char *s, model_c_mode *out)
{
    int i = find_name(c_mode_names, 2, s);
    if (i < 0)
        return false;
    *out = (model_c_mode)i;
    return true;
}

const char *model_exp_ref_name(model_exp_ref v)
{
    return (unsigned)v <= MODEL_EXP_NORMALIZED ? exp_ref_names[v] : "?";
}

bool model_exp_ref_parse(const char *s, model_exp_ref *out)
{
    int i = find_name(exp_ref_names, 2, s);
    if (i < 0)
        return false;
    *out = (model_exp_ref)i;
    return true;
}

const char *model_align_round_name(model_align_round v)
{
    return (unsigned)v <= MODEL_ALIGN_RNE ? align_round_names[v] : "?";
}

bool model_align_round_parse(const char *s, model_align_round *out)
{
    int i = find_name(align_round_names, 3, s);
    if (i < 0)
        return false;
    *out = (model_align_round)i;
    return true;
}


const char *model_format_name(const tc_format *f, char *buf, size_t len)
{
    size_t n;
    const tc_format *const *all = tc_format_list(&n);
    for (size_t i = 0; i < n; i++)
        if (model_same_format(all[i], f)) {
            snprintf(buf, len, "%s", all[i]->name);
            return buf;
        }
    /* The generic spelling tc_format_by_name reads back. */
    const char *sp = f->specials == TC_SPECIALS_FN ? "fn" : f->specials == TC_SPECIALS_NONE ? "nf" : "";
    int std_bias = (1 << (f->ebits - 1)) - 1;
    if (f->bias == std_bias)
        snprintf(buf, len, "e%dm%d%s", f->ebits, f->mbits, sp);
    else
        snprintf(buf, len, "e%dm%d%s_b%d", f->ebits, f->mbits, sp, f->bias);
    return buf;
}
