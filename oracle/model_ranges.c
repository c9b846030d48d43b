/* model_ranges: the fields' whole ranges (see model_ranges.h): the
 * inference's candidates, then each field's widening from its row below. */
#include "oracle/model_ranges.h"

#include <string.h>

#include "oracle/model_internal.h"

typedef struct {
    model_params *out;
    int n;
    int field;
} range;

/* Adds p unless the range holds its value of the field already. */
static void add(range *r, const model_params *p)
{
    for (int i = 0; i < r->n; i++)
        if (model_fields[r->field].same(&r->out[i], p))
            return;
    if (r->n < MODEL_RANGE_MAX)
        r->out[r->n++] = *p;
}

static const tc_round all_dirs[] = {TC_RNE, TC_RNA, TC_RZ, TC_RU, TC_RD, TC_RO};
#define NDIRS ((int)(sizeof all_dirs / sizeof *all_dirs))

/* The accumulator's format: the profile's, else f32 (the widest a unit holds short of f64). */
static const tc_format *acc_format(const model_params *p)
{
    return p->acc_exact ? &tc_f32 : &p->acc_fmt;
}

static int imax(int a, int b) { return a > b ? a : b; }
static int imin(int a, int b) { return a < b ? a : b; }

static void w_align_floor(range *r, const model_params *cur, const model_field_scope *s)
{
    const tc_format *d = s->f.d, *acc = acc_format(cur);
    int hi = imax(tc_format_emin(d), tc_format_emin(acc));
    int lo = imin(tc_format_emin(d) - d->mbits, tc_format_emin(acc) - acc->mbits) - 16;
    /* The products are aligned before the accumulator rounds: a floor may
     * sit anywhere above the smallest product (two subnormals), which lies
     * below an f16 accumulator's range (2^-48 against 2^-24; the H200's
     * f16-output floor is 2^-46). Reach it, at most 32 binades further. */
    int prod = tc_format_emin(s->f.a) - s->f.a->mbits + tc_format_emin(s->f.b) - s->f.b->mbits;
    lo = imin(lo, imax(prod - 2, lo - 32));
    model_params p = *cur;
    p.floored = true;
    for (int e = hi; e >= lo; e--) {
        p.align_floor = e;
        add(r, &p);
    }
}

static void w_align_bits(range *r, const model_params *cur, const model_field_scope *s)
{
    model_params p = *cur;
    for (int b = 0; b <= 96; b++) {
        p.align_bits = b;
        add(r, &p);
    }
}

static void w_round(range *r, const model_params *cur, tc_round *member_of_p, model_params *p)
{
    for (int i = 0; i < NDIRS; i++) {
        *member_of_p = all_dirs[i];
        add(r, p);
    }
}

static void w_c_round(range *r, const model_params *cur, const model_field_scope *s)
{
    model_params p = *cur;
    w_round(r, cur, &p.c_round, &p);
}

static void w_out_round(range *r, const model_params *cur, const model_field_scope *s)
{
    model_params p = *cur;
    w_round(r, cur, &p.out_round, &p);
}

static void w_acc(range *r, const model_params *cur, const model_field_scope *s)
{
    const tc_format *fs[] = {s->f.d, &tc_f32, &tc_f16, &tc_bf16};
    model_params p = *cur;
    p.acc_exact = false;
    for (size_t f = 0; f < sizeof fs / sizeof *fs; f++)
        for (int i = 0; i < NDIRS; i++) {
            p.acc_fmt = *fs[f];
            p.acc_round = all_dirs[i];
            add(r, &p);
        }
}

/* Widening (or reading) paths of one operand of format x. */
static void w_cvt(range *r, const model_params *cur, const tc_format *x, int w)
{
    const tc_format *to[3] = {NULL, NULL, NULL};
    if (x->mbits <= 3) /* FP8 */
        to[0] = &tc_f16, to[1] = &tc_bf16, to[2] = &tc_f32;
    else if (x->shift > 0) /* TF32 in an f32 container */
        to[0] = &tc_bf16, to[1] = &tc_f16;
    else if (x->storage_bits == 16)
        to[0] = model_same_format(x, &tc_f16) ? &tc_bf16 : &tc_f16, to[1] = &tc_f32;
    for (int i = 0; i < 3 && to[i]; i++)
        for (int q = 0; q < 2; q++) {
            model_params p = *cur;
            model_cvt *c = w ? &p.cvt_b : &p.cvt_a;
            c->convert = true;
            c->fmt = *to[i];
            c->round = q ? TC_RZ : TC_RNE;
            add(r, &p);
        }
}

static void w_a_convert(range *r, const model_params *cur, const model_field_scope *s) { w_cvt(r, cur, s->f.a, 0); }
static void w_b_convert(range *r, const model_params *cur, const model_field_scope *s) { w_cvt(r, cur, s->f.b, 1); }

static void w_carry(range *r, const model_params *cur, const model_field_scope *s)
{
    int top = 3;
    while ((1 << (top - 3)) < s->k)
        top++;
    model_params p = *cur;
    for (int c = 1; c <= top && c <= 64; c++) {
        p.carry_bits = c;
        add(r, &p);
    }
}

static void w_flush(range *r, const model_params *cur, const model_field_scope *s)
{
    const tc_format *d = s->f.d, *acc = acc_format(cur);
    int th[3] = {tc_format_emin(d) - d->mbits, tc_format_emin(acc), tc_format_emin(acc) - acc->mbits};
    model_params p = *cur;
    for (int i = 0; i < 3; i++) {
        p.prod_flush_exp = th[i];
        add(r, &p);
    }
}

/* The output format's NaN patterns: every bit of the fraction or only the
 * quiet bit, either sign (those that decode as NaN). */
static void w_nan(range *r, const model_params *cur, const model_field_scope *s)
{
    const tc_format *d = s->f.d;
    if (d->ebits == 0)
        return;
    uint64_t e = ((1ull << d->ebits) - 1) << d->mbits, frac = (1ull << d->mbits) - 1, q = 1ull << (d->mbits - 1),
             sign = 1ull << (d->ebits + d->mbits);
    uint64_t pats[4] = {e | frac, e | q, sign | e | frac, sign | e | q};
    model_params p = *cur;
    for (int i = 0; i < 4; i++) {
        uint64_t bits = pats[i] << d->shift;
        if (tc_classify(d, bits) != TC_NAN)
            continue;
        p.nan_bits = bits;
        add(r, &p);
    }
}

static void w_overflow(range *r, const model_params *cur, const model_field_scope *s)
{
    model_params p = *cur;
    p.out_ovf = TC_OVF_NAN;
    add(r, &p);
}

/* The widening of each field whose candidates stop short of its range. */
static const struct {
    const char *key;
    void (*widen)(range *r, const model_params *cur, const model_field_scope *s);
} widen[] = {
    {"a_convert", w_a_convert}, {"b_convert", w_b_convert}, {"product_flush_below", w_flush},
    {"c_round", w_c_round},     {"align_bits", w_align_bits}, {"carry_bits", w_carry},
    {"acc", w_acc},             {"out_round", w_out_round}, {"out_overflow", w_overflow},
    {"nan", w_nan},             {"align_floor", w_align_floor},
};

int model_field_range(int i, const model_params *cur, const model_field_scope *s, model_params *out)
{
    if (i < 0 || i >= model_field_count())
        return 0;
    model_params cand[MODEL_FIELD_MAX_CANDIDATES];
    range r = {out, 0, i};
    int n = model_field_candidates(i, cur, s, cand);
    for (int j = 0; j < n; j++)
        add(&r, &cand[j]);
    for (size_t w = 0; w < sizeof widen / sizeof *widen; w++)
        if (!strcmp(widen[w].key, model_fields[i].key))
            widen[w].widen(&r, cur, s);
    return r.n;
}
