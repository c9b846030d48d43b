/* The bounds oracle/model_equiv*.c read off the formats and the params
 * (inline, shared by the rules of both files). Not a public header.
 *
 * Bounds used by the proofs (oracle/model_reference.c is the definition;
 * every fast path gives its bits):
 *   - a finite value the model holds is sig * 2^lsb with sig below
 *     2^(m+1), lsb = e - m (e: its exponent, emin for a subnormal; m: its
 *     format's fraction bits, a container's for an operand read as given),
 *     so |x| <= (2 - 2^-m) * 2^e;
 *   - the reference exponent t of a product is ea + eb (nominal) or the
 *     exponent of its leading bit (normalized), of the accumulator its e or
 *     its leading bit: |product| <= (2 - 2^-ma)(2 - 2^-mb) * 2^t (nominal,
 *     exact products; 4 * 2^t when rounded to prod_bits), |product| < 2^(t+1)
 *     (normalized), |accumulator| < 2^(t+1);
 *   - the grid of a step is max(the finest term's lsb, E - align_bits,
 *     align_floor): a term is rounded onto it only when E - align_bits is
 *     the largest (the others leave every term exact), by less than 2^G;
 *     truncation never raises a magnitude. */
#ifndef TC_MODEL_EQUIV_BOUNDS_H
#define TC_MODEL_EQUIV_BOUNDS_H

#include <math.h>
#include <stdbool.h>

#include "oracle/model_fields.h"
#include "oracle/model_internal.h"

static inline int meq_imin(int a, int b) { return a < b ? a : b; }
static inline int meq_imax(int a, int b) { return a > b ? a : b; }

/* The exponent of f's finest bit: its smallest subnormal, container bits included. */
static inline int meq_finest(const tc_format *f) { return tc_format_emin(f) - f->mbits - f->shift; }

/* f's largest finite value. */
static inline double meq_max(const tc_format *f)
{
    tc_value v = tc_format_max(f);
    return ldexp((double)v.sig, v.exp);
}

/* The format an operand (w 0: A, 1: B) is used in, and its fraction bits as
 * the model reads them (a container's when read as given). */
static inline const tc_format *meq_used(const model_params *p, const model_field_scope *s, int w)
{
    const model_cvt *c = w ? &p->cvt_b : &p->cvt_a;
    return c->convert ? &c->fmt : w ? s->f.b : s->f.a;
}

static inline int meq_used_mbits(const model_params *p, const model_field_scope *s, int w)
{
    const tc_format *f = meq_used(p, s, w);
    const model_cvt *c = w ? &p->cvt_b : &p->cvt_a;
    return c->convert ? f->mbits : f->mbits + f->shift;
}

/* The largest magnitude an operand takes (a bound: 2 - 2^-m times 2^emax). */
static inline double meq_operand_max(const model_params *p, const model_field_scope *s, int w)
{
    const tc_format *f = meq_used(p, s, w);
    return ldexp(2.0 - ldexp(1.0, -meq_used_mbits(p, s, w)), tc_format_emax(f));
}

/* The exponent of an operand's finest bit. Converted, its value is a
 * multiple of both finest bits: the target's (it is one of the target's
 * values) and the source's (rounded where the target's ulp is coarser than
 * the source's finest bit, a multiple of that ulp; exact where finer;
 * overflow gives max or Inf, flush gives zero). */
static inline int meq_operand_finest(const tc_format *f, const model_cvt *c)
{
    return c->convert ? meq_imax(meq_finest(f), meq_finest(&c->fmt)) : meq_finest(f);
}

static inline int meq_product_finest(const model_params *p, const model_field_scope *s)
{
    return meq_operand_finest(s->f.a, &p->cvt_a) + meq_operand_finest(s->f.b, &p->cvt_b);
}

/* The grain of the K steps: every term a K step sums (the products; C in
 * the accumulator, C_FIRST; the accumulator) is a multiple of 2^grain.
 * Products: their operands' finest bits (a rounding to prod_bits keeps a
 * multiple). C enters a K step only as the first accumulator (C_LAST adds
 * it in a step of its own, never floored), exact or rounded into the
 * accumulator's format, then a multiple of both formats' finest bits.
 * Rounding a multiple of 2^g into a format gives one (the value itself
 * where the format's ulp is finer, a multiple of the coarser ulp else,
 * zero, Inf or the largest finite, a multiple where emax - m >= g); a
 * step's sum of such terms is one (each rounded onto a grid coarser than
 * 2^g is a multiple of it; onto a finer one, exact), and so is its wrap
 * (modulo 2^(E+2+carry_bits), E >= g - 1): the accumulator stays one. */
static inline int meq_grain(const model_params *p, const model_field_scope *s)
{
    int g = meq_product_finest(p, s);
    if (p->c_mode == MODEL_C_FIRST)
        g = meq_imin(g, p->acc_exact ? meq_finest(s->f.c)
                                     : meq_imax(meq_finest(s->f.c), meq_finest(&p->acc_fmt)));
    if (!p->acc_exact && tc_format_emax(&p->acc_fmt) - p->acc_fmt.mbits < g)
        g = meq_imin(g, meq_finest(&p->acc_fmt));
    return g;
}

/* No floor acts above the grain (model_equiv.c's align_floor rule: then
 * the floor changes no value the model computes). */
static inline bool meq_floor_idle(const model_params *p, const model_field_scope *s)
{
    return !p->floored || p->align_floor <= meq_grain(p, s);
}

/* True when every finite value of format S, read as S (t NULL) or
 * converted to t (t1, t2), is one and the same value with the same
 * exponent e in both readings: each t holds every S value exactly (as many
 * fraction bits, a finest bit no coarser, a largest finite no smaller), and
 * e = max(the value's leading bit, the reading's emin) agrees (equal emins,
 * or both at or below S's finest bit, where no S value is subnormal: S's
 * smallest normal when S's subnormals are read as zero, daz), or e is never
 * read (exps_read false: normalized reference exponents and no flush of
 * subnormals). S in a container (TF32) is not handled. */
static inline bool meq_same_values(const tc_format *S, const tc_format *t1, const tc_format *t2, bool exps_read,
                                   bool daz)
{
    const tc_format *t[2] = {t1, t2};
    int emin[2];
    if (S->shift)
        return false;
    for (int i = 0; i < 2; i++) {
        if (t[i] && (t[i]->shift || t[i]->ebits < 2 || t[i]->mbits < S->mbits || meq_finest(t[i]) > meq_finest(S) ||
                     meq_max(t[i]) < meq_max(S)))
            return false;
        emin[i] = tc_format_emin(t[i] ? t[i] : S);
    }
    return !exps_read || emin[0] == emin[1] || meq_imax(emin[0], emin[1]) <= (daz ? tc_format_emin(S) : meq_finest(S));
}

#endif
