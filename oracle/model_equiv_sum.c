/* model_equiv_sum: the magnitudes no sum of an instruction's formats
 * reaches, so that a register width, an overflow rule or a rounding never
 * acts (see model_equiv.h; the bounds: model_equiv_bounds.h). Bounds are
 * computed in double with a relative margin of 1e-9, far above its error. */
#include "oracle/model_equiv_sum.h"

#include "oracle/model_equiv_bounds.h"

#define MARGIN (1.0 - 1e-9)

/* The most products one K step sums. */
static int step_products(const model_params *p, const model_field_scope *s)
{
    return p->block < s->k ? p->block : s->k;
}

/* |product| <= ratio * 2^t, t its reference exponent. */
static double product_ratio(const model_params *p, const model_field_scope *s)
{
    if (p->exp_ref == MODEL_EXP_NORMALIZED)
        return 2.0;
    if (p->prod_bits != MODEL_EXACT)
        return 4.0;
    return (2.0 - ldexp(1.0, -meq_used_mbits(p, s, 0))) * (2.0 - ldexp(1.0, -meq_used_mbits(p, s, 1)));
}

/* B with |a K step's sum| <= B * 2^E (E its reference exponent), when the
 * accumulator's own reference exponent counts for E (align_ref all) or a
 * K step never holds one (C last, one step); 0 when no bound holds. The
 * products at most ratio * 2^E each, the accumulator below 2 * 2^E; a
 * term rounded onto the grid (align_round floor or rne) grows by less than
 * 2^(E - align_bits), which needs the floor idle (a floor above the grain
 * could put the grid anywhere); truncation grows none. */
static double step_bound(const model_params *p, const model_field_scope *s)
{
    if (!p->align_with_acc && !(p->c_mode == MODEL_C_LAST && p->block >= s->k))
        return 0;
    int n = step_products(p, s);
    double b = n * product_ratio(p, s) + 2.0;
    if (p->align_round != MODEL_ALIGN_TRUNC) {
        if (!meq_floor_idle(p, s))
            return 0;
        if (p->align_bits != MODEL_EXACT)
            b += (n + 1) * ldexp(1.0, -p->align_bits);
    }
    return b;
}

/* carry_bits c: the register of a K step wraps its sum S (on the grid 2^G)
 * modulo 2^(E+2+c) into [-2^(E+1+c), 2^(E+1+c)); a sum within that range
 * is left as it is, and B * 2^E < 2^(E+1+c) bounds every sum. A grid above
 * the register's top (G >= E+2+c, the register holds nothing, S := 0)
 * needs a floor there: truncated, every term (below 2^(E+2)) gives 0 on
 * it as well; rounded otherwise, step_bound asks the floor to be idle. */
bool meq_carry_idle(const model_params *p, const model_field_scope *s)
{
    if (p->carry_bits == MODEL_UNLIMITED)
        return true;
    double b = step_bound(p, s);
    return b > 0 && p->carry_bits >= 1 && p->carry_bits < 900 && b < ldexp(1.0, 1 + p->carry_bits) * MARGIN;
}

static bool away(tc_round r) { return r == TC_RNE || r == TC_RNA; }

/* acc_overflow (ieee: the rounding direction's overflow, Inf or the
 * largest finite; inf: Inf always) is read only where a rounding into the
 * accumulator overflows (mfmt_overflow with MODEL_ACC_OVF): never with the
 * sum carried exact; alike where each such rounding (acc_round in the
 * steps and of C first, c_round of C last) goes to nearest, away from the
 * largest finite, into an IEEE format (Inf both); and never under RZ when
 * every value rounded stays below 2^(emax+1): C, of a format whose emax is
 * no larger, and (truncated, unwrapped) a step's sum of the accumulator,
 * at most the largest finite after an RZ rounding, and K products of the
 * largest operands. */
bool meq_acc_overflow_idle(const model_params *p, const model_field_scope *s)
{
    if (p->acc_exact)
        return true;
    const tc_format *a = &p->acc_fmt;
    bool c_away = p->c_mode == MODEL_C_FIRST || away(p->c_round);
    if (a->specials != TC_SPECIALS_IEEE || a->shift || !c_away)
        return false;
    if (away(p->acc_round))
        return true;
    if (p->acc_round != TC_RZ || p->align_round != MODEL_ALIGN_TRUNC || p->carry_bits != MODEL_UNLIMITED ||
        (p->c_mode == MODEL_C_FIRST && tc_format_emax(s->f.c) > tc_format_emax(a)))
        return false;
    double prods = step_products(p, s) * meq_operand_max(p, s, 0) * meq_operand_max(p, s, 1) *
                   (p->prod_bits == MODEL_EXACT ? 1.0 : 2.0);
    return meq_max(a) + prods < ldexp(1.0, tc_format_emax(a) + 1) * MARGIN;
}

/* out_overflow inf or nan is read only where the output rounding
 * overflows: an Inf or NaN result is written alike under both (Inf where D
 * has it, else what overflow to NaN or RNE's away overflow gives: NaN, or
 * the largest finite where D has no specials), and a finite accumulator of
 * a format whose largest finite is D's or less never overflows D (a
 * rounding is monotone and D's largest finite is a value of D). */
bool meq_out_overflow_idle(const model_params *p, const model_field_scope *s)
{
    return !p->acc_exact && p->out_ovf != TC_OVF_SAT && !p->acc_fmt.shift && p->acc_fmt.ebits >= 2 &&
           meq_max(&p->acc_fmt) <= meq_max(s->f.d);
}

/* out_round reads only the accumulator's value (it is the steps' rounding
 * when the sum is carried exact): every value of an accumulator format
 * that D holds exactly (as many fraction bits, a finest bit no coarser, a
 * largest finite no smaller) is written exact in every direction. */
bool meq_out_exact(const model_params *p, const model_field_scope *s)
{
    return !p->acc_exact && p->acc_fmt.ebits >= 2 && meq_same_values(&p->acc_fmt, s->f.d, s->f.d, false, false);
}

/* C's exponent as r and x read it (r: rounded into D; x: into its
 * accumulator, or as decoded when exact) agrees: equal emins, or no C
 * value subnormal in either (meq_same_values), or where they differ the
 * step's grid leaves every term exact in both. They differ only for a C
 * subnormal in the reading of the larger emin, whose exponent is then
 * that emin and the step's E (the other reading's E no larger): a grid
 * E - align_bits at or below the grain g of the terms (the products' and
 * C's finest bits) cuts nothing, and the others (the finest term's lsb, a
 * floor at or below g) cut nothing either; the same exact sum then. */
static bool c_exponents_agree(const model_params *r, const model_params *x, const model_field_scope *s)
{
    const tc_format *c = s->f.c;
    int er = tc_format_emin(s->f.d), ex = tc_format_emin(x->acc_exact ? c : &x->acc_fmt), hi = meq_imax(er, ex);
    int g = meq_imin(meq_product_finest(r, s), meq_finest(c));
    return r->exp_ref != MODEL_EXP_NOMINAL || er == ex || hi <= (r->ftz_c ? tc_format_emin(c) : meq_finest(c)) ||
           (r->align_bits != MODEL_EXACT && hi - r->align_bits <= g && (!r->floored || r->align_floor <= g));
}

/* r rounds the one K step's sum into D's format with out_round, x carries
 * it exact or holds every such sum exactly: D then gets the same bits.
 * With C first and one step (block >= K), r's accumulator is the step's
 * sum S rounded into D (C held exactly, with an exponent that gives the
 * same sum: c_exponents_agree), and D writes it exact; x's output rounds
 * S itself into D with the same direction (the steps' rounding is
 * out_round when exact). Both round S once, with the same ftz (no flush
 * of the accumulator), overflow (r's accumulator overflows with the IEEE
 * rule, D's output with inf, the same mfmt_overflow) and zero signs (a
 * cancelled or mixed sum of zeros takes -0 under RD only, or +0 whatever
 * the direction with zero_sign positive). x holds S exactly when S, an
 * integer below B * 2^align_bits on a grid no finer than the products' or
 * C's finest bit, fits its fraction bits and lies below its largest finite
 * (E at most the operands' emaxes summed plus one, or C's). */
static bool single(const model_params *r, const model_params *x, const model_field_scope *s)
{
    const tc_format *d = s->f.d, *c = s->f.c;
    tc_round xr = x->acc_exact ? x->out_round : x->acc_round;
    if (r->acc_exact || !model_same_format(&r->acc_fmt, d) || r->acc_round != r->out_round ||
        r->c_mode != MODEL_C_FIRST || r->block < s->k || r->ftz_acc || r->acc_ovf_inf ||
        r->out_ovf != TC_OVF_INF || d->specials != TC_SPECIALS_IEEE || !meq_same_values(c, NULL, d, false, false) ||
        !c_exponents_agree(r, x, s) || !(r->zero_positive || (r->acc_round == TC_RD) == (xr == TC_RD)))
        return false;
    if (x->acc_exact)
        return true;
    const tc_format *a = &x->acc_fmt;
    double b = step_bound(x, s);
    int lo = meq_finest(meq_used(x, s, 0)) + meq_finest(meq_used(x, s, 1));
    int emax = meq_imax(tc_format_emax(meq_used(x, s, 0)) + tc_format_emax(meq_used(x, s, 1)) + 1,
                        tc_format_emax(c));
    return meq_same_values(c, NULL, a, false, false) && meq_carry_idle(x, s) && b > 0 &&
           x->align_bits != MODEL_EXACT && x->align_bits >= 0 && x->align_bits < 900 && lo >= meq_finest(a) &&
           b * ldexp(1.0, x->align_bits) < ldexp(1.0, a->mbits + 1) * MARGIN &&
           ldexp(b, emax) <= meq_max(a) * MARGIN;
}

bool meq_acc_single_rounding(const model_params *v, const model_params *w, const model_field_scope *s)
{
    return single(v, w, s) || single(w, v, s);
}
