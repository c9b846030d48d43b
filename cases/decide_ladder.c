/* decide_ladder: the search's structured inputs (see decide_internal.h). */
#include <math.h>
#include <string.h>

#include "cases/decide_internal.h"
#include "cases/infer_internal.h"

/* ---- the ladder: terms at every exponent pair where a field acts ----
 *
 * A first product 2^e1 and small ones s*2^(e1-d): in the second K position
 * only, or in every other one; or a tie (half an ulp of D's, or of the
 * accumulator's, precision at 2^e1, or an ulp and a half of D's) in the
 * second and the small ones after it; C +0. e1 runs over the bottom of
 * D's and of the accumulator's range (down past their smallest
 * subnormals), around 1 and the top of D's range; d = 1..32, then every 4th to 60; s = +-1. The first product's
 * factors are normal, or one is its format's smallest subnormal (A's, or
 * B's) and the other makes up the exponent; the small products' factors
 * are normal, or subnormal in A's or B's (with a first product of either
 * kind: a subnormal factor's nominal exponent moves the alignment's
 * reference, so a first product of normal factors is the one whose grid
 * reaches a small product of subnormal ones, as in 2^-25 + 2^-48 at the
 * tie of f16's smallest subnormal, which shows a floor at 2^-46).
 * One cut bit, or a sum of them, or a tie broken by them shows the
 * alignment floor, width and rounding, the rounding of the result, over-
 * and underflow, and what a widening does to a subnormal operand's
 * exponent. First, zero results: every product -0 (A -0 times B 1, or A +0
 * times B -1) and C -0. Last, sums of extremes: every product the same
 * pair of A's and B's extremes (the largest finite, the largest
 * significand one and two binades below the top, around 1, at the bottom
 * of the normal range, the largest and smallest subnormals), of one sign
 * or alternating, C an extreme of either sign or 0: the sums that fill a
 * register's carry bits, overflow an accumulator or D, or read a
 * subnormal C's exponent. Then a subnormal C (every power of two below
 * C's smallest normal) with a product at the tie of D's ulp there and one
 * small product 1..60 binades below C, of either sign: C's nominal
 * exponent (its emin) sets the grid where an accumulator that holds C as
 * a normal value (f32 for an f16 C) sets a finer one, and the small
 * product (of normal factors, else of a subnormal one), cut or kept,
 * breaks the tie. Built only when a pair outlives
 * the pool. */

/* sig * 2^e as a*b: sub 0, both factors normal where they can be; 1, a is
 * A's smallest subnormal; 2, b is B's (the other factor makes up the rest). */
static bool power_product(const oracle_formats *f, int e, double sig, int sub, uint64_t *a, uint64_t *b)
{
    const tc_format *fs = sub == 2 ? f->b : f->a;
    int lo = tc_format_emin(fs), hi = tc_format_emax(fs);
    int es = sub ? lo - fs->mbits : e / 2 < lo ? lo : e / 2 > hi ? hi : e / 2;
    if (sub && fs->mbits == 0)
        return false;
    uint64_t *ps = sub == 2 ? b : a, *po = sub == 2 ? a : b;
    return infer_enc(fs, ldexp(sub ? 1.0 : sig, es), ps) &&
           infer_enc(sub == 2 ? f->a : f->b, ldexp(sub ? sig : 1.0, e - es), po);
}

enum { LADDER_ONE, LADDER_SPREAD, LADDER_TIE_D, LADDER_TIE_ACC, LADDER_TIE_ODD, LADDER_LAYOUTS };
enum { LADDER_KINDS = 7 };

/* The ladder's K terms for one (e1, first factor, layout, d, sign); false when a value does not exist. */
static bool ladder_terms(const oracle_formats *f, int k, int prec_d, int prec_acc, int e1, int sub, int layout,
                         int d, double sg, const uint64_t *zero, uint64_t *a, uint64_t *b)
{
    uint64_t sa, sb, ta = zero[0], tb = zero[1];
    /* the kinds (normal 0, A's 1 or B's 2 smallest subnormal) of the first product and the small ones */
    static const int first_kind[LADDER_KINDS] = {0, 1, 2, 1, 2, 0, 0}, small_kind[LADDER_KINDS] = {0, 0, 0, 1, 2, 1, 2};
    if (!power_product(f, e1, 1.0, first_kind[sub], &a[0], &b[0]) ||
        !power_product(f, e1 - d, sg, small_kind[sub], &sa, &sb))
        return false;
    int from = 1;
    if (layout >= LADDER_TIE_D) {
        /* half an ulp above 2^e1, or an ulp and a half (a tie after an odd last bit) */
        int at = layout == LADDER_TIE_ACC ? prec_acc : prec_d;
        if (k < 3 || !power_product(f, e1 - at + (layout == LADDER_TIE_ODD), layout == LADDER_TIE_ODD ? 1.5 : 1.0,
                                    0, &ta, &tb))
            return false;
        from = 2;
    }
    for (int x = 1; x < k; x++) {
        bool small = x >= from && (layout != LADDER_ONE || x == 1);
        a[x] = x < from ? ta : small ? sa : zero[0];
        b[x] = x < from ? tb : small ? sb : zero[1];
    }
    return true;
}

/* f's extremes (see above) into out[8]; their count. */
static int extremes(const tc_format *f, double *out)
{
    tc_value mx = tc_format_max(f);
    int m = f->mbits, emin = tc_format_emin(f), emax = tc_format_emax(f);
    double big = 2.0 - ldexp(1.0, -m);
    const double v[] = {ldexp((double)mx.sig, mx.exp), ldexp(big, emax - 1), ldexp(big, emax - 2), big, 1.0,
                        ldexp(big, emin), ldexp(1.0 - ldexp(1.0, -m), emin), ldexp(1.0, emin - m)};
    memcpy(out, v, sizeof v);
    return (int)(sizeof v / sizeof *v);
}

/* The sums of extremes (see above) into s. 0, or -1 out of memory. */
static int ladder_extremes(const tc_instr *ins, int k, cset *s)
{
    double va[8], vb[8], vc[8];
    int na = extremes(ins->a, va), nb = extremes(ins->b, vb), nc = extremes(ins->c, vc);
    uint64_t a[INFER_KMAX], b[INFER_KMAX], c;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            for (int q = 0; q <= nc; q++)
                for (int sg = 0; sg < 3; sg++) {
                    bool ok = infer_enc(ins->c, q == nc ? 0.0 : sg == 1 ? -vc[q] : vc[q], &c);
                    for (int x = 0; ok && x < k; x++)
                        ok = infer_enc(ins->a, sg == 2 && (x & 1) ? -va[i] : va[i], &a[x]) &&
                             infer_enc(ins->b, vb[j], &b[x]);
                    if (ok && cset_add_bits(s, "ladder", k, a, b, c))
                        return -1;
                }
    return 0;
}

/* The subnormal C's (see above) into s. 0, or -1 out of memory. */
static int ladder_c_subnormal(const tc_instr *ins, int k, cset *s)
{
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    const tc_format *fc = ins->c, *fd = ins->d;
    uint64_t a[INFER_KMAX], b[INFER_KMAX], c, zero[2];
    if (k < 2 || !infer_split(&f, 0.0, &zero[0], &zero[1]))
        return 0;
    for (int x = 2; x < k; x++)
        a[x] = zero[0], b[x] = zero[1];
    for (int ec = tc_format_emin(fc) - fc->mbits; ec < tc_format_emin(fc); ec++) {
        int ulp = (ec > tc_format_emin(fd) ? ec : tc_format_emin(fd)) - fd->mbits;
        if (!infer_enc(fc, ldexp(1.0, ec), &c) || !power_product(&f, ulp - 1, 1.0, 0, &a[0], &b[0]))
            continue;
        for (int d = 1; d <= 60; d++)
            for (int sg = 0; sg < 2; sg++) {
                /* normal factors, else a subnormal one (A's, then B's) to reach below their range */
                bool ok = false;
                for (int kind = 0; kind < 3 && !ok; kind++)
                    ok = power_product(&f, ec - d, sg ? -1.0 : 1.0, kind, &a[1], &b[1]);
                if (ok && cset_add_bits(s, "ladder", k, a, b, c))
                    return -1;
            }
    }
    return 0;
}

int decide_ladder_make(const tc_instr *ins, int k, const model_params *v, cset *s)
{
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    const tc_format *d = ins->d, *acc = v->acc_exact ? &tc_f32 : &v->acc_fmt;
    int from[4] = {tc_format_emin(d) - d->mbits - 24, tc_format_emin(acc) - acc->mbits - 24, -4,
                   tc_format_emax(d) - 4};
    int to[4] = {tc_format_emin(d) + 4, tc_format_emin(acc) + 4, 4, tc_format_emax(d) + 1};
    uint64_t a[INFER_KMAX], b[INFER_KMAX], zero[2], zero_c;
    memset(s, 0, sizeof *s);
    if (k < 2 || k > INFER_KMAX || !infer_split(&f, 0.0, &zero[0], &zero[1]) || !infer_enc(ins->c, 0.0, &zero_c))
        return 0;
    /* zero results of every sign: all products -0 (A -0 times B 1, or A +0 times B -1), C -0 */
    for (int q = 0; q < 2; q++) {
        uint64_t za, ob, c;
        if (!infer_enc(ins->a, q ? 0.0 : -0.0, &za) || !infer_enc(ins->b, q ? -1.0 : 1.0, &ob) ||
            !infer_enc(ins->c, -0.0, &c))
            continue;
        for (int x = 0; x < k; x++)
            a[x] = za, b[x] = ob;
        if (cset_add_bits(s, "ladder", k, a, b, c))
            return -1;
    }
    for (int r = 0; r < 4; r++)
        for (int e1 = from[r]; e1 <= to[r]; e1++) {
            bool walked = false;
            for (int p = 0; p < r; p++)
                walked |= e1 >= from[p] && e1 <= to[p];
            for (int q = 0; !walked && q < LADDER_KINDS; q++)
                for (int lay = 0; lay < LADDER_LAYOUTS; lay++)
                    for (int dd = 1; dd <= 60; dd += dd < 32 ? 1 : 4)
                        for (int sg = 0; sg < 2; sg++)
                            if (ladder_terms(&f, k, d->mbits + 1, acc->mbits + 1, e1, q, lay, dd, sg ? -1.0 : 1.0,
                                             zero, a, b) &&
                                cset_add_bits(s, "ladder", k, a, b, zero_c))
                                return -1;
        }
    return ladder_extremes(ins, k, s) ? -1 : ladder_c_subnormal(ins, k, s);
}
