/* model_equiv: which rule proves a pair (see model_equiv.h); the grain's
 * rules here, the magnitudes' in model_equiv_sum.c. */
#include "oracle/model_equiv.h"

#include <string.h>

#include "oracle/model_equiv_internal.h"

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
        return meq_product_finest(w, s) == t && flush_acting(v, t) == flush_acting(w, t);
    }
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
