/* model_fields: the fingerprint's field table (see model_fields.h). Each
 * field's text, comparison and candidate values sit together, then one row
 * per field in profile order; everything else walks the table. The
 * candidates are all the values a field could take that change anything
 * for these formats and K. */
#include "oracle/model_fields.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/model_field_text.h"
#include "oracle/model_internal.h"

static model_field_parsed ok(bool b)
{
    return b ? MODEL_FIELD_SET : MODEL_FIELD_BAD;
}

/* An int field with one word for its sentinel value: prod_flush_exp
 * ("none"), align_bits ("exact"), carry_bits ("unlimited"). */
static model_field_parsed parse_int_or(const char *v, const char *word, int sentinel, long lo, long hi, int *out)
{
    if (!strcmp(v, word)) {
        *out = sentinel;
        return MODEL_FIELD_SET;
    }
    return ok(mft_parse_int(v, lo, hi, out));
}

static void print_int_or(char *buf, size_t len, int x, const char *word, int sentinel)
{
    if (x == sentinel)
        snprintf(buf, len, "%s", word);
    else
        snprintf(buf, len, "%d", x);
}

/* The candidate rounding directions of c, acc and out. */
static const tc_round dirs[] = {TC_RNE, TC_RZ, TC_RD, TC_RU};

/* A member compared as a value. */
#define SAME(fn, member)                                                \
    static bool s_##fn(const model_params *x, const model_params *y)   \
    {                                                                   \
        return x->member == y->member;                                  \
    }

/* A bool written as one of two words (`no`/`yes` fields also read
 * false/true/0/1); its candidates are `first`, then the other value. */
#define BOOL_FIELD(fn, member, off, on, first, parse_expr)                                      \
    static model_field_parsed p_##fn(const char *v, model_params *p) { return ok(parse_expr); } \
    static void w_##fn(char *buf, size_t len, const model_params *p)                            \
    {                                                                                           \
        snprintf(buf, len, "%s", p->member ? on : off);                                         \
    }                                                                                           \
    SAME(fn, member)                                                                            \
    static int c_##fn(const model_params *cur, const model_field_scope *s, model_params *out)  \
    {                                                                                           \
        out[0] = *cur;                                                                          \
        out[0].member = first;                                                                  \
        out[1] = out[0];                                                                        \
        out[1].member = !(first);                                                               \
        return 2;                                                                               \
    }
#define YES_NO(fn, member) BOOL_FIELD(fn, member, "no", "yes", false, mft_parse_bool(v, &p->member))
#define WORDS(fn, member, off, on, first) \
    BOOL_FIELD(fn, member, off, on, first, mft_parse_word(v, off, on, &p->member))

/* A rounding direction (c_round, out_round): the four directed ones are the candidates. */
#define ROUND_FIELD(fn, member)                                                                 \
    static model_field_parsed p_##fn(const char *v, model_params *p)                            \
    {                                                                                           \
        return ok(mft_parse_round(v, &p->member));                                              \
    }                                                                                           \
    static void w_##fn(char *buf, size_t len, const model_params *p)                            \
    {                                                                                           \
        snprintf(buf, len, "%s", tc_round_name(p->member));                                     \
    }                                                                                           \
    SAME(fn, member)                                                                            \
    static int c_##fn(const model_params *cur, const model_field_scope *s, model_params *out)  \
    {                                                                                           \
        for (int i = 0; i < 4; i++) {                                                           \
            out[i] = *cur;                                                                      \
            out[i].member = dirs[i];                                                            \
        }                                                                                       \
        return 4;                                                                               \
    }

/* ---- inputs: a_convert, b_convert, a_ftz, b_ftz, c_ftz ---- */

static model_field_parsed parse_cvt(const char *v, model_cvt *c)
{
    if (!strcmp(v, "none")) {
        memset(c, 0, sizeof *c);
        return MODEL_FIELD_SET;
    }
    c->convert = true;
    return ok(mft_parse_fmt_round(v, &c->fmt, &c->round) && c->fmt.mbits <= 30);
}

static void print_cvt(char *buf, size_t len, const model_cvt *c)
{
    if (!c->convert)
        snprintf(buf, len, "none");
    else
        mft_print_fmt_round(buf, len, &c->fmt, c->round);
}

static bool same_cvt(const model_cvt *x, const model_cvt *y)
{
    if (x->convert != y->convert)
        return false;
    return !x->convert || (model_same_format(&x->fmt, &y->fmt) && x->round == y->round);
}

static void add_cvt(model_params *out, int *n, const model_params *cur, int w, bool convert,
                    const tc_format *f, tc_round r)
{
    model_params p = *cur;
    model_cvt *c = w ? &p.cvt_b : &p.cvt_a;
    c->convert = convert;
    if (convert) {
        c->fmt = *f;
        c->round = r;
    } else {
        memset(&c->fmt, 0, sizeof c->fmt);
        c->round = TC_RNE;
    }
    out[(*n)++] = p;
}

/* As given; a TF32-like container cut (rz) or rounded to its format; FP8 widened to f16. */
static int cand_cvt(const model_params *cur, const model_field_scope *s, int w, model_params *out)
{
    int n = 0;
    const tc_format *x = w ? s->f.b : s->f.a;
    add_cvt(out, &n, cur, w, false, NULL, TC_RNE);
    if (x->shift > 0) {
        add_cvt(out, &n, cur, w, true, x, TC_RZ);
        add_cvt(out, &n, cur, w, true, x, TC_RNE);
        add_cvt(out, &n, cur, w, true, x, TC_RNA);
    } else if (x->mbits <= 3) {
        add_cvt(out, &n, cur, w, true, &tc_f16, TC_RNE);
    }
    return n;
}

static model_field_parsed p_a_convert(const char *v, model_params *p) { return parse_cvt(v, &p->cvt_a); }
static void w_a_convert(char *buf, size_t len, const model_params *p) { print_cvt(buf, len, &p->cvt_a); }
static bool s_a_convert(const model_params *x, const model_params *y) { return same_cvt(&x->cvt_a, &y->cvt_a); }
static int c_a_convert(const model_params *cur, const model_field_scope *s, model_params *out)
{
    return cand_cvt(cur, s, 0, out);
}
static model_field_parsed p_b_convert(const char *v, model_params *p) { return parse_cvt(v, &p->cvt_b); }
static void w_b_convert(char *buf, size_t len, const model_params *p) { print_cvt(buf, len, &p->cvt_b); }
static bool s_b_convert(const model_params *x, const model_params *y) { return same_cvt(&x->cvt_b, &y->cvt_b); }
static int c_b_convert(const model_params *cur, const model_field_scope *s, model_params *out)
{
    return cand_cvt(cur, s, 1, out);
}

YES_NO(a_ftz, ftz_a)
YES_NO(b_ftz, ftz_b)
YES_NO(c_ftz, ftz_c)

/* ---- products ---- */

static model_field_parsed p_products(const char *v, model_params *p)
{
    if (!strcmp(v, "exact")) {
        p->prod_bits = MODEL_EXACT;
        p->prod_round = TC_RNE;
        return MODEL_FIELD_SET;
    }
    const char *colon = strchr(v, ':');
    if (!colon || (size_t)(colon - v) >= 8)
        return MODEL_FIELD_BAD;
    char num[8];
    memcpy(num, v, (size_t)(colon - v));
    num[colon - v] = '\0';
    return ok(mft_parse_int(num, 1, 64, &p->prod_bits) && mft_parse_round(colon + 1, &p->prod_round));
}

static void w_products(char *buf, size_t len, const model_params *p)
{
    if (p->prod_bits == MODEL_EXACT)
        snprintf(buf, len, "exact");
    else
        snprintf(buf, len, "%d:%s", p->prod_bits, tc_round_name(p->prod_round));
}

static bool s_products(const model_params *x, const model_params *y)
{
    return x->prod_bits == y->prod_bits && (x->prod_bits == MODEL_EXACT || x->prod_round == y->prod_round);
}

/* Exact, or cut/rounded just below the exact width or near D's precision. */
static int c_products(const model_params *cur, const model_field_scope *s, model_params *out)
{
    int n = 0;
    model_params p = *cur;
    int pa = s->f.a->mbits + 1, pb = s->f.b->mbits + 1;
    p.prod_bits = MODEL_EXACT;
    p.prod_round = TC_RNE;
    out[n++] = p;
    int bits[4] = {pa + pb - 2, pa + pb - 3, s->f.d->mbits + 1, s->f.d->mbits + 2};
    for (int i = 0; i < 4; i++) {
        if (bits[i] < 2 || bits[i] >= pa + pb)
            continue;
        bool dup = false;
        for (int j = 0; j < i; j++)
            dup |= bits[j] == bits[i];
        if (dup)
            continue;
        p.prod_bits = bits[i];
        p.prod_round = TC_RZ;
        out[n++] = p;
        p.prod_round = TC_RNE;
        out[n++] = p;
    }
    return n;
}

static model_field_parsed p_flush(const char *v, model_params *p)
{
    return parse_int_or(v, "none", MODEL_NO_FLUSH, -10000, 10000, &p->prod_flush_exp);
}

static void w_flush(char *buf, size_t len, const model_params *p)
{
    print_int_or(buf, len, p->prod_flush_exp, "none", MODEL_NO_FLUSH);
}

SAME(flush, prod_flush_exp)

/* None, or below the smallest normal of D, f32, C, or of A times B. */
static int c_flush(const model_params *cur, const model_field_scope *s, model_params *out)
{
    int n = 0;
    model_params p = *cur;
    const oracle_formats *f = &s->f;
    int th[5] = {MODEL_NO_FLUSH, tc_format_emin(f->d), tc_format_emin(&tc_f32), tc_format_emin(f->c),
                 tc_format_emin(f->a) + tc_format_emin(f->b)};
    for (int i = 0; i < 5; i++) {
        bool dup = false;
        for (int j = 0; j < i; j++)
            dup |= th[j] == th[i];
        if (dup)
            continue;
        p.prod_flush_exp = th[i];
        out[n++] = p;
    }
    return n;
}

/* ---- steps: block, c_mode, c_round, step_split ---- */

static model_field_parsed p_block(const char *v, model_params *p) { return ok(mft_parse_int(v, 1, 1 << 20, &p->block)); }
static void w_block(char *buf, size_t len, const model_params *p) { snprintf(buf, len, "%d", p->block); }
SAME(block, block)

/* Powers of two and the divisors of K (up to 64 candidates), and K. */
static int c_block(const model_params *cur, const model_field_scope *s, model_params *out)
{
    int n = 0;
    model_params p = *cur;
    for (int b = 1; b <= s->k && n < 64; b++) {
        if ((b & (b - 1)) && s->k % b)
            continue;
        p.block = b;
        out[n++] = p;
    }
    if (p.block != s->k) {
        p.block = s->k;
        out[n++] = p;
    }
    return n;
}

static model_field_parsed p_c_mode(const char *v, model_params *p) { return ok(model_c_mode_parse(v, &p->c_mode)); }
static void w_c_mode(char *buf, size_t len, const model_params *p) { snprintf(buf, len, "%s", model_c_mode_name(p->c_mode)); }
SAME(c_mode, c_mode)
static int c_c_mode(const model_params *cur, const model_field_scope *s, model_params *out)
{
    out[0] = *cur;
    out[0].c_mode = MODEL_C_FIRST;
    out[1] = out[0];
    out[1].c_mode = MODEL_C_LAST;
    return 2;
}

ROUND_FIELD(c_round, c_round)

static model_field_parsed p_split(const char *v, model_params *p)
{
    if (!strcmp(v, "contiguous")) {
        p->split_runs = 0;
        return MODEL_FIELD_SET;
    }
    return ok(!strncmp(v, "interleaved:", 12) && mft_parse_int(v + 12, 1, 1 << 20, &p->split_runs));
}

static void w_split(char *buf, size_t len, const model_params *p)
{
    if (p->split_runs)
        snprintf(buf, len, "interleaved:%d", p->split_runs);
    else
        snprintf(buf, len, "contiguous");
}

SAME(split, split_runs)

/* Contiguous, or runs of a power of two dealt over the steps. */
static int c_split(const model_params *cur, const model_field_scope *s, model_params *out)
{
    int n = 0;
    model_params p = *cur;
    p.split_runs = 0;
    out[n++] = p;
    if (s->k / p.block >= 2)
        for (int g = 1; g < p.block; g *= 2) {
            if (p.block % g)
                continue;
            p.split_runs = g;
            out[n++] = p;
        }
    return n;
}

/* ---- the fused sum: align_ref, align_exp, align_bits, align_round, carry_bits, align_floor ---- */

WORDS(align_ref, align_with_acc, "products", "all", true)

static model_field_parsed p_align_exp(const char *v, model_params *p) { return ok(model_exp_ref_parse(v, &p->exp_ref)); }
static void w_align_exp(char *buf, size_t len, const model_params *p) { snprintf(buf, len, "%s", model_exp_ref_name(p->exp_ref)); }
SAME(align_exp, exp_ref)
static int c_align_exp(const model_params *cur, const model_field_scope *s, model_params *out)
{
    out[0] = *cur;
    out[0].exp_ref = MODEL_EXP_NORMALIZED;
    out[1] = out[0];
    out[1].exp_ref = MODEL_EXP_NOMINAL;
    return 2;
}

static model_field_parsed p_align_bits(const char *v, model_params *p)
{
    return parse_int_or(v, "exact", MODEL_EXACT, 0, 1000, &p->align_bits);
}

static void w_align_bits(char *buf, size_t len, const model_params *p)
{
    print_int_or(buf, len, p->align_bits, "exact", MODEL_EXACT);
}

SAME(align_bits, align_bits)

/* Every width to 64, then steps of 8 to 160, and exact. */
static int c_align_bits(const model_params *cur, const model_field_scope *s, model_params *out)
{
    int n = 0;
    model_params p = *cur;
    for (int b = 0; b <= 64; b++) {
        p.align_bits = b;
        out[n++] = p;
    }
    for (int b = 72; b <= 160; b += 8) {
        p.align_bits = b;
        out[n++] = p;
    }
    p.align_bits = MODEL_EXACT;
    out[n++] = p;
    return n;
}

static model_field_parsed p_align_round(const char *v, model_params *p)
{
    return ok(model_align_round_parse(v, &p->align_round));
}
static void w_align_round(char *buf, size_t len, const model_params *p)
{
    snprintf(buf, len, "%s", model_align_round_name(p->align_round));
}
SAME(align_round, align_round)
static int c_align_round(const model_params *cur, const model_field_scope *s, model_params *out)
{
    for (int i = 0; i < 3; i++) {
        out[i] = *cur;
        out[i].align_round = (model_align_round)i;
    }
    return 3;
}

static model_field_parsed p_carry(const char *v, model_params *p)
{
    return parse_int_or(v, "unlimited", MODEL_UNLIMITED, 1, 64, &p->carry_bits);
}

static void w_carry(char *buf, size_t len, const model_params *p)
{
    print_int_or(buf, len, p->carry_bits, "unlimited", MODEL_UNLIMITED);
}

SAME(carry, carry_bits)

static int c_carry(const model_params *cur, const model_field_scope *s, model_params *out)
{
    int n = 0;
    model_params p = *cur;
    p.carry_bits = MODEL_UNLIMITED;
    out[n++] = p;
    for (int c = 1; c <= 5; c++) {
        p.carry_bits = c;
        out[n++] = p;
    }
    return n;
}

static model_field_parsed p_align_floor(const char *v, model_params *p)
{
    if (!strcmp(v, "none")) {
        p->floored = false;
        p->align_floor = 0;
        return MODEL_FIELD_SET;
    }
    p->floored = true;
    return ok(mft_parse_int(v, -100000, 100000, &p->align_floor));
}

static void w_align_floor(char *buf, size_t len, const model_params *p)
{
    if (p->floored)
        snprintf(buf, len, "%d", p->align_floor);
    else
        snprintf(buf, len, "none");
}

static bool s_align_floor(const model_params *x, const model_params *y)
{
    return x->floored == y->floored && (!x->floored || x->align_floor == y->align_floor);
}

/* None, or a floor from D's smallest normal exponent down 40 binades. */
static int c_align_floor(const model_params *cur, const model_field_scope *s, model_params *out)
{
    int n = 0;
    model_params p = *cur;
    p.floored = false;
    p.align_floor = 0;
    out[n++] = p;
    p.floored = true;
    for (int j = 0; j <= 40; j++) {
        p.align_floor = tc_format_emin(s->f.d) - j;
        out[n++] = p;
    }
    return n;
}

/* ---- the accumulator: acc, acc_ftz, acc_overflow ---- */

static model_field_parsed p_acc(const char *v, model_params *p)
{
    if (!strcmp(v, "exact")) {
        p->acc_exact = true;
        return MODEL_FIELD_SET;
    }
    p->acc_exact = false;
    return ok(mft_parse_fmt_round(v, &p->acc_fmt, &p->acc_round));
}

static void w_acc(char *buf, size_t len, const model_params *p)
{
    if (p->acc_exact)
        snprintf(buf, len, "exact");
    else
        mft_print_fmt_round(buf, len, &p->acc_fmt, p->acc_round);
}

static bool s_acc(const model_params *x, const model_params *y)
{
    return x->acc_exact == y->acc_exact &&
           (x->acc_exact || (model_same_format(&x->acc_fmt, &y->acc_fmt) && x->acc_round == y->acc_round));
}

/* Exact; D's format or f32 in each direction; an f32 result held narrower
 * inside the unit (fewer fraction bits, same exponent range), cut or rounded. */
static int c_acc(const model_params *cur, const model_field_scope *s, model_params *out)
{
    int n = 0;
    model_params p = *cur;
    const tc_format *d = s->f.d;
    p.acc_exact = true;
    out[n++] = p;
    const tc_format *fs[2] = {d, &tc_f32};
    for (int i = 0; i < 2; i++) {
        if (i == 1 && d->ebits == 8 && d->mbits == 23)
            break;
        for (int r = 0; r < 4; r++) {
            p.acc_exact = false;
            p.acc_fmt = *fs[i];
            p.acc_round = dirs[r];
            out[n++] = p;
        }
    }
    static const char *const narrow[] = {"e8m10", "e8m11", "e8m12", "e8m13", "e8m14", "e8m15", "e8m16",
                                         "e8m17", "e8m18", "e8m19", "e8m20", "e8m21", "e8m22"};
    if (d->ebits == 8 && d->mbits == 23)
        for (size_t i = 0; i < sizeof narrow / sizeof narrow[0]; i++)
            for (int r = 0; r < 2; r++) {
                tc_format scratch;
                p.acc_exact = false;
                p.acc_fmt = *tc_format_by_name(narrow[i], &scratch);
                p.acc_round = r ? TC_RNE : TC_RZ;
                out[n++] = p;
            }
    return n;
}

YES_NO(acc_ftz, ftz_acc)
WORDS(acc_ovf, acc_ovf_inf, "ieee", "inf", false)

/* ---- output: out_round, out_overflow, out_ftz ---- */

ROUND_FIELD(out_round, out_round)

static model_field_parsed p_ovf(const char *v, model_params *p) { return ok(tc_overflow_parse(v, &p->out_ovf)); }
static void w_ovf(char *buf, size_t len, const model_params *p) { snprintf(buf, len, "%s", tc_overflow_name(p->out_ovf)); }
SAME(ovf, out_ovf)
static int c_ovf(const model_params *cur, const model_field_scope *s, model_params *out)
{
    out[0] = *cur;
    out[0].out_ovf = TC_OVF_INF;
    out[1] = out[0];
    out[1].out_ovf = TC_OVF_SAT;
    return 2;
}

YES_NO(out_ftz, ftz_out)

/* ---- NaN and the regions random draws miss: nan, nan_propagate, zero_sign, dropped_nan ---- */

static model_field_parsed p_nan(const char *v, model_params *p)
{
    if (!strcmp(v, "canonical"))
        return MODEL_FIELD_CANONICAL;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 16);
    p->nan_bits = x;
    return ok(!strncmp(v, "0x", 2) && end != v + 2 && !*end && !errno);
}

static void w_nan(char *buf, size_t len, const model_params *p) { snprintf(buf, len, "0x%" PRIX64, p->nan_bits); }
SAME(nan, nan_bits)

/* D's canonical NaN, then every other NaN pattern the answers showed. */
static int c_nan(const model_params *cur, const model_field_scope *s, model_params *out)
{
    int n = 0;
    model_params p = *cur;
    p.nan_bits = s->f.d->nan_bits;
    out[n++] = p;
    for (int i = 0; i < s->nnans && n < MODEL_FIELD_MAX_CANDIDATES; i++) {
        if (s->nans[i] == s->f.d->nan_bits)
            continue;
        p.nan_bits = s->nans[i];
        out[n++] = p;
    }
    return n;
}

static const char *const nan_prop_names[MODEL_NAN_ORDERS] = {"no",      "acc,a,b", "acc,b,a", "a,b,acc",
                                                             "b,a,acc", "a,acc,b", "b,acc,a"};
static model_field_parsed p_nan_prop(const char *v, model_params *p)
{
    for (int i = 0; i < MODEL_NAN_ORDERS; i++)
        if (!strcmp(v, nan_prop_names[i])) {
            p->nan_prop = (model_nan_prop)i;
            return MODEL_FIELD_SET;
        }
    return MODEL_FIELD_BAD;
}
static void w_nan_prop(char *buf, size_t len, const model_params *p) { snprintf(buf, len, "%s", nan_prop_names[p->nan_prop]); }
SAME(nan_prop, nan_prop)

/* Every order (only wide operands can carry payloads: the rest are unusable). */
static int c_nan_prop(const model_params *cur, const model_field_scope *s, model_params *out)
{
    for (int i = MODEL_NAN_CANONICAL; i < MODEL_NAN_ORDERS; i++) {
        out[i] = *cur;
        out[i].nan_prop = (model_nan_prop)i;
    }
    return MODEL_NAN_ORDERS;
}

WORDS(zero_sign, zero_positive, "ieee", "positive", false)
WORDS(dropped_nan, dropped_nan_inf, "nan", "inf", false)

/* ---- block-scaled forms: scale_group ---- */

static model_field_parsed p_scale_group(const char *v, model_params *p)
{
    return parse_int_or(v, "none", 0, 1, 4096, &p->scale_group);
}

static void w_scale_group(char *buf, size_t len, const model_params *p)
{
    print_int_or(buf, len, p->scale_group, "none", 0);
}

SAME(scale_group, scale_group)

/* None, and where the products are FP4 (the only block-scaled forms a
 * third party models with groups: MMA-Sim's kind::mxf4 and mxf4nvf4) the
 * groups of 2 ... 32 (powers of two) that divide block. Elsewhere nothing can
 * change an answer, so the audit of an unscaled form never tries one. */
static int c_scale_group(const model_params *cur, const model_field_scope *s, model_params *out)
{
    int n = 0;
    model_params p = *cur;
    p.scale_group = 0;
    out[n++] = p;
    bool fp4 = s->f.a && s->f.b && s->f.a->ebits == 2 && s->f.a->mbits == 1 && s->f.b->ebits == 2 &&
               s->f.b->mbits == 1;
    for (int g = 2; fp4 && g <= 32; g *= 2)
        if (cur->block % g == 0 && cur->split_runs == 0) {
            p.scale_group = g;
            out[n++] = p;
        }
    return n;
}

/* ---- the table ---- */

#define ROW(key, type, expect, optional, descent, fn) \
    {key, MODEL_FIELD_##type, expect, optional, descent, p_##fn, w_##fn, s_##fn, c_##fn}
const model_field model_fields[] = {
    ROW("a_convert", WORD, "none or FORMAT:ROUND (e.g. tf32:rz)", false, 3, a_convert),
    ROW("b_convert", WORD, "none or FORMAT:ROUND (e.g. tf32:rz)", false, 4, b_convert),
    ROW("a_ftz", WORD, "yes or no", false, 15, a_ftz),
    ROW("b_ftz", WORD, "yes or no", false, 16, b_ftz),
    ROW("c_ftz", WORD, "yes or no", false, 17, c_ftz),
    ROW("products", WORD, "exact or BITS:ROUND with BITS in 1..64", false, 14, products),
    ROW("product_flush_below", INT, "none or an exponent in -10000..10000", false, 18, flush),
    ROW("block", INT, "an integer in 1..1048576", false, 5, block),
    ROW("c_mode", WORD, "first or last", false, 10, c_mode),
    ROW("c_round", WORD, "rne, rna, rz, ru, rd or ro", false, 11, c_round),
    ROW("align_ref", WORD, "products or all", false, 12, align_ref),
    ROW("align_exp", WORD, "nominal or normalized", false, 13, align_exp),
    ROW("align_bits", INT, "exact or an integer in 0..1000", false, 7, align_bits),
    ROW("align_round", WORD, "trunc, floor or rne", false, 9, align_round),
    ROW("carry_bits", INT, "unlimited or an integer in 1..64", false, 24, carry),
    ROW("acc", WORD, "exact or FORMAT:ROUND (e.g. f32:rz)", false, 8, acc),
    ROW("acc_ftz", WORD, "yes or no", false, 19, acc_ftz),
    ROW("out_round", WORD, "rne, rna, rz, ru, rd or ro", false, 20, out_round),
    ROW("out_overflow", WORD, "inf, sat or nan", false, 22, ovf),
    ROW("out_ftz", WORD, "yes or no", false, 21, out_ftz),
    ROW("nan", BITS, "canonical or 0xBITS", false, 0, nan),
    /* optional: added after the first recorded profiles */
    ROW("acc_overflow", WORD, "ieee or inf", true, 23, acc_ovf),
    ROW("step_split", WORD, "contiguous or interleaved:RUN (RUN divides block)", true, 6, split),
    ROW("nan_propagate", WORD, "no, or an order of a, b and acc (e.g. b,acc,a)", true, 1, nan_prop),
    ROW("zero_sign", WORD, "ieee or positive (every zero result +0)", true, 25, zero_sign),
    ROW("dropped_nan", WORD, "nan or inf (what a NaN whose payload is only in cut bits reads as)", true, 2,
        dropped_nan),
    ROW("align_floor", INT, "none or the exponent of the finest grid bit, in -100000..100000", true, 26,
        align_floor),
    ROW("scale_group", INT, "none or an integer in 1..4096 (products summed exactly per group, block-scaled forms)",
        true, 27, scale_group),
};
#define NFIELDS ((int)(sizeof model_fields / sizeof model_fields[0]))
_Static_assert(NFIELDS <= MODEL_FIELDS_MAX, "raise MODEL_FIELDS_MAX (profile.c's masks)");

int model_field_count(void)
{
    return NFIELDS;
}

int model_field_find(const char *key)
{
    for (int i = 0; i < NFIELDS; i++)
        if (!strcmp(model_fields[i].key, key))
            return i;
    return -1;
}

void model_field_text(const model_params *p, int i, char *buf, size_t len)
{
    if (!len)
        return;
    buf[0] = '\0';
    if (i >= 0 && i < NFIELDS)
        model_fields[i].print(buf, len, p);
}

int model_field_candidates(int i, const model_params *cur, const model_field_scope *s, model_params *out)
{
    return i >= 0 && i < NFIELDS ? model_fields[i].candidates(cur, s, out) : 0;
}

int model_params_diff(const model_params *x, const model_params *y, const char **first)
{
    int n = 0;
    const char *f0 = NULL;
    for (int i = 0; i < NFIELDS; i++)
        if (!model_fields[i].same(x, y)) {
            if (!f0)
                f0 = model_fields[i].key;
            n++;
        }
    if (first)
        *first = f0;
    return n;
}
