/* model_equiv: which rule proves a pair (see model_equiv.h); the grain's
 * rules here, the magnitudes' in model_equiv_sum.c. */
#include "oracle/model_equiv.h"

#include <string.h>

#include "oracle/model_equiv_bounds.h"
#include "oracle/model_equiv_sum.h"

/* True when every format the rules read is a floating-point one. */
static bool floating(const model_params *p, const model_field_scope *s)
{
    const tc_format *fs[] = {s->f.a, s->f.b, s->f.c, s->f.d};
    for (size_t i = 0; i < sizeof fs / sizeof *fs; i++)
        if (!fs[i] || fs[i]->ebits < 2)
            return false;
    return p->acc_exact || p->acc_fmt.ebits >= 2;
}

/* A floor that never acts reads as none (INT_MIN stands for it). */
static int floor_acting(const model_params *p, int below)
{
    return p->floored && p->align_floor > below ? p->align_floor : -2147483647 - 1;
}

static int flush_acting(const model_params *p, int below)
{
    return p->prod_flush_exp > below ? p->prod_flush_exp : MODEL_NO_FLUSH;
}

/* A product-flush threshold that changes no bits: at or below the smallest
 * product (flushes nothing), or below a floor that truncates every
 * flushed product to 0 anyway. A product below 2^theta has a reference
 * exponent t < theta + ma + mb (a subnormal factor's nominal exponent
 * exceeds its leading bit by at most its fraction bits), every term no
 * larger than 4 * 2^t when it sets E (the accumulator's exponent counts,
 * align_ref all), so with the floor at or above theta + ma + mb + 2 and
 * truncation all of them give 0 on the grid either way: the sum is 0 (a
 * zero whose sign zero_sign positive makes +0 wherever it reaches D).
 * Otherwise E is the same, the grid differs only where the flushed
 * product's lsb was the finest, and every other term lies on both grids
 * exactly. */
static bool flush_idle(const model_params *p, const model_field_scope *s)
{
    int t = meq_product_finest(p, s);
    if (flush_acting(p, t) == MODEL_NO_FLUSH)
        return true;
    return p->align_round == MODEL_ALIGN_TRUNC && p->floored && p->zero_positive && p->align_with_acc &&
           p->prod_flush_exp < 100000 - 200 &&
           p->prod_flush_exp + meq_used_mbits(p, s, 0) + meq_used_mbits(p, s, 1) + 2 <= p->align_floor;
}

/* align_ref, align_exp and align_round read only the reference exponent E
 * and the grid E - align_bits: with every bit kept (align_bits exact), a
 * floor at or below the grain and no register width, the grid is the
 * finest term's lsb or the idle floor, every term exact on it, and E is
 * read nowhere else. */
static bool grid_exact(const model_params *p, const model_field_scope *s)
{
    return p->align_bits == MODEL_EXACT && meq_floor_idle(p, s) && p->carry_bits == MODEL_UNLIMITED;
}

/* a_ftz, b_ftz: a widening that holds every operand value as a normal one
 * (exact, and the source's smallest nonzero value at or above the
 * target's smallest normal) leaves no subnormal to flush. */
static bool ftz_idle(const model_params *p, const model_field_scope *s, int w)
{
    const model_cvt *c = w ? &p->cvt_b : &p->cvt_a;
    const tc_format *f = w ? s->f.b : s->f.a;
    return c->convert && meq_same_values(f, &c->fmt, &c->fmt, false, false) &&
           meq_finest(f) >= tc_format_emin(&c->fmt);
}

/* An operand's reading (w 0: A, 1: B): v's and x's give every encoding the
 * same value and exponent (meq_same_values), or both read it as given. */
static bool same_reading(const model_params *v, const model_params *x, const model_field_scope *s, int w)
{
    const model_cvt *cv = w ? &v->cvt_b : &v->cvt_a, *cx = w ? &x->cvt_b : &x->cvt_a;
    bool exps = v->exp_ref == MODEL_EXP_NOMINAL || (w ? v->ftz_b : v->ftz_a);
    if (!cv->convert && !cx->convert)
        return true;
    return v->nan_prop == MODEL_NAN_CANONICAL && meq_same_values(w ? s->f.b : s->f.a, cv->convert ? &cv->fmt : NULL,
                                                                 cx->convert ? &cx->fmt : NULL, exps, false);
}

/* dropped_nan cuts an operand's encoding (model_new's premask) only when
 * it is converted by RZ to fewer fraction bits than its container's. */
static bool cuts(const model_cvt *c, const tc_format *f)
{
    return c->convert && c->round == TC_RZ && c->fmt.mbits < f->mbits + f->shift;
}

bool model_field_equivalent(int i, const model_params *v, const model_params *w, const model_field_scope *s)
{
    if (i < 0 || i >= model_field_count() || !floating(v, s) || !floating(w, s))
        return false;
    const char *key = model_fields[i].key;
    if (!strcmp(key, "align_floor")) {
        int t = meq_grain(v, s);
        return meq_grain(w, s) == t && floor_acting(v, t) == floor_acting(w, t);
    }
    if (!strcmp(key, "product_flush_below")) {
        int t = meq_product_finest(v, s);
        return (meq_product_finest(w, s) == t && flush_acting(v, t) == flush_acting(w, t)) ||
               (flush_idle(v, s) && flush_idle(w, s));
    }
    if (!strcmp(key, "align_ref") || !strcmp(key, "align_exp") || !strcmp(key, "align_round"))
        return grid_exact(v, s) && grid_exact(w, s);
    if (!strcmp(key, "a_ftz") || !strcmp(key, "b_ftz"))
        return ftz_idle(v, s, key[0] == 'b') && ftz_idle(w, s, key[0] == 'b');
    if (!strcmp(key, "c_round")) /* read only where C is added last */
        return v->c_mode == MODEL_C_FIRST && w->c_mode == MODEL_C_FIRST;
    if (!strcmp(key, "out_round"))
        return meq_out_exact(v, s) && meq_out_exact(w, s);
    if (!strcmp(key, "carry_bits"))
        return meq_carry_idle(v, s) && meq_carry_idle(w, s);
    if (!strcmp(key, "acc_overflow"))
        return meq_acc_overflow_idle(v, s) && meq_acc_overflow_idle(w, s);
    if (!strcmp(key, "out_overflow"))
        return meq_out_overflow_idle(v, s) && meq_out_overflow_idle(w, s);
    if (!strcmp(key, "acc"))
        return meq_acc_single_rounding(v, w, s);
    if (!strcmp(key, "dropped_nan"))
        return !cuts(&v->cvt_a, s->f.a) && !cuts(&v->cvt_b, s->f.b);
    if (!strcmp(key, "a_convert"))
        return same_reading(v, w, s, 0);
    if (!strcmp(key, "b_convert"))
        return same_reading(v, w, s, 1);
    return false;
}
