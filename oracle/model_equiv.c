/* model_equiv: thresholds below every bit a term holds (see model_equiv.h). */
#include "oracle/model_equiv.h"

#include <string.h>

#include "oracle/model_internal.h"

/* The exponent of f's finest bit: its smallest subnormal, container bits included. */
static int finest(const tc_format *f) { return tc_format_emin(f) - f->mbits - f->shift; }

static int imin(int a, int b) { return a < b ? a : b; }
static int imax(int a, int b) { return a > b ? a : b; }

/* An operand's finest bit. Converted, its value is a multiple of both
 * finest bits: the target's (it is one of the target's values) and the
 * source's (rounded where the target's ulp is coarser than the source's
 * finest bit, a multiple of that ulp; exact where finer; overflow gives
 * max or Inf, flush gives zero). */
static int operand_finest(const tc_format *f, const model_cvt *c)
{
    return c->convert ? imax(finest(f), finest(&c->fmt)) : finest(f);
}

/* True when every format the rules read is a floating-point one. */
static bool floating(const model_field_scope *s)
{
    const tc_format *fs[] = {s->f.a, s->f.b, s->f.c};
    for (size_t i = 0; i < sizeof fs / sizeof *fs; i++)
        if (!fs[i] || fs[i]->ebits < 2)
            return false;
    return true;
}

static int product_finest(const model_params *p, const model_field_scope *s)
{
    return operand_finest(s->f.a, &p->cvt_a) + operand_finest(s->f.b, &p->cvt_b);
}

/* The finest bit any term of the fused sum holds: a product, C, the
 * accumulator (exact: the finest of the terms it summed). */
static int term_finest(const model_params *p, const model_field_scope *s)
{
    int t = imin(product_finest(p, s), finest(s->f.c));
    return p->acc_exact || p->acc_fmt.ebits < 2 ? t : imin(t, finest(&p->acc_fmt));
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

/* The rounding of D reads only an accumulator's value (out_round is the
 * steps' rounding when the sum is carried exact): one already in D's own
 * format is exact in every direction. */
static bool output_exact(const model_params *p, const model_field_scope *s)
{
    return !p->acc_exact && model_same_format(&p->acc_fmt, s->f.d);
}

bool model_field_equivalent(int i, const model_params *v, const model_params *w, const model_field_scope *s)
{
    if (i < 0 || i >= model_field_count() || !floating(s))
        return false;
    const char *key = model_fields[i].key;
    if (!strcmp(key, "align_floor")) {
        int t = term_finest(v, s);
        return term_finest(w, s) == t && floor_acting(v, t) == floor_acting(w, t);
    }
    if (!strcmp(key, "product_flush_below")) {
        int t = product_finest(v, s);
        return product_finest(w, s) == t && flush_acting(v, t) == flush_acting(w, t);
    }
    if (!strcmp(key, "c_round")) /* read only where C is added last */
        return v->c_mode == MODEL_C_FIRST && w->c_mode == MODEL_C_FIRST;
    if (!strcmp(key, "out_round"))
        return output_exact(v, s) && output_exact(w, s);
    return false;
}
