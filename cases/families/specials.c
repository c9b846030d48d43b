/* Family "specials": NaN, Inf, 0*Inf, Inf-Inf, overflow to Inf or to the
 * largest finite, and overflow of partial sums whose exact total is small
 * (model_params nan_bits, out_ovf, acc_ovf_inf).
 * Both users: the case files carry the NaN patterns of A's format and the
 * overflow outcomes (Inf, saturation, NaN); the inference builds its cases
 * from the formats' own NaN bits and largest finite values (which NaN
 * operand a result carries is nan_payload.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cases/families/families.h"

/* NaN payload patterns of f: quiet, signalling, negative, all ones. */
static int nan_patterns(const tc_format *f, uint64_t *out)
{
    int sh = f->shift;
    uint64_t expo = ((1ull << f->ebits) - 1) << f->mbits, sign = 1ull << (f->ebits + f->mbits);
    uint64_t fr = (1ull << f->mbits) - 1;
    if (f->specials == TC_SPECIALS_IEEE && f->mbits >= 2) {
        out[0] = (expo | 1ull << (f->mbits - 1)) << sh;
        out[1] = (expo | 1) << sh;
        out[2] = (sign | expo | 1ull << (f->mbits - 1)) << sh;
        out[3] = (sign | expo | fr) << sh;
        return 4;
    }
    if (f->specials == TC_SPECIALS_FN) {
        out[0] = (expo | fr) << sh;
        out[1] = (sign | expo | fr) << sh;
        return 2;
    }
    return 0;
}

static int gen_specials(const tc_gen_target *t, tc_casefile *out)
{
    fam_facts x = fam_facts_of(t);
    fam_builder b;
    int n = 0;
    uint64_t pat[4];
    int np = nan_patterns(t->a, pat);
    for (int i = 0; i < np; i++) {
        char name[64], v[64];
        snprintf(name, sizeof name, "specials.nan_a%d", i);
        snprintf(v, sizeof v, "bits:0x%llx", (unsigned long long)pat[i]);
        fb_init(&b, t, name, "specials", -1, "A = NaN (%s) times 1: D is NaN; its bits show the payload rule", v);
        fb_pair_text(&b, v, "1");
        fb_expect(&b, TC_OUT_NAN);
        n += fb_push(&b, out);
    }
    if (t->c->specials == TC_SPECIALS_IEEE) {
        fb_init(&b, t, "specials.nan_c", "specials", -1, "C = NaN, product 1: D is NaN");
        fb_pair_text(&b, "1", "1");
        fb_c_text(&b, "nan");
        fb_expect(&b, TC_OUT_NAN);
        n += fb_push(&b, out);
        fb_init(&b, t, "specials.inf_c", "specials", -1, "C = +Inf, product 1: D is +Inf");
        fb_pair_text(&b, "1", "1");
        fb_c_text(&b, "inf");
        fb_expect(&b, TC_OUT_EXACT);
        n += fb_push(&b, out);
    }
    if (t->a->specials == TC_SPECIALS_IEEE) {
        fb_init(&b, t, "specials.inf_times_zero", "specials", -1, "A = Inf times B = 0: D is NaN");
        fb_pair_text(&b, "inf", "0");
        fb_expect(&b, TC_OUT_NAN);
        n += fb_push(&b, out);
        if (x.k >= 2) {
            fb_init(&b, t, "specials.inf_minus_inf", "specials", -1, "products +Inf and -Inf: D is NaN");
            fb_pair_text(&b, "inf", "1");
            fb_pair_text(&b, "inf", "-1");
            fb_expect(&b, TC_OUT_NAN);
            n += fb_push(&b, out);
            fb_init(&b, t, "specials.inf_plus_finite", "specials", -1, "products +Inf and 1: D is +Inf");
            fb_pair_text(&b, "inf", "1");
            fb_pair_text(&b, "1", "1");
            fb_expect(&b, TC_OUT_EXACT);
            n += fb_push(&b, out);
        }
        if (t->c->specials == TC_SPECIALS_IEEE) {
            fb_init(&b, t, "specials.inf_c_minus_inf", "specials", -1, "C = +Inf, product -Inf: D is NaN");
            fb_pair_text(&b, "inf", "-1");
            fb_c_text(&b, "inf");
            fb_expect(&b, TC_OUT_NAN);
            n += fb_push(&b, out);
        }
    }
    /* Overflow: n products 2^pmax reaching 2^(emax_d + 1) > max(D). */
    int need = x.emax_d + 1 - x.pmax, cnt = need <= 0 ? 1 : need < 30 ? 1 << need : x.k + 1;
    char maxd[64];
    tc_value mv = tc_format_max(t->d);
    tc_gen_hex((long long)mv.sig, mv.exp, maxd, sizeof maxd);
    for (int sgn = 1; sgn >= -1 && cnt <= x.k; sgn -= 2) {
        char name[64], neg[80];
        snprintf(name, sizeof name, "specials.overflow_%s", sgn > 0 ? "pos" : "neg");
        fb_init(&b, t, name, "specials", -1,
                "%d products of %s2^%d: the sum exceeds D's largest finite", cnt, sgn > 0 ? "" : "-",
                x.pmax);
        for (int i = 0; i < cnt; i++)
            fb_prod(&b, sgn, x.pmax);
        fb_expect(&b, TC_OUT_EXACT);
        fb_alt_text(&b, sgn > 0 ? "inf" : "-inf", "overflow gives Inf");
        snprintf(neg, sizeof neg, "%s%s", sgn > 0 ? "" : "-", maxd);
        fb_alt_text(&b, neg, "overflow saturates to the largest finite");
        fb_alt_text(&b, "nan", "overflow gives NaN");
        if (t->d->specials != TC_SPECIALS_IEEE)
            b.bad = true;
        n += fb_push(&b, out);
    }
    /* Intermediate overflow: 2^X + 2^X - 2^X - 2^X + C with 2^X = D's top power. */
    if (x.pmax >= x.emax_d && x.k >= 4) {
        int X = x.emax_d;
        fb_init(&b, t, "specials.overflow_intermediate", "specials", -1,
                "2^%d + 2^%d - 2^%d - 2^%d + 1: partial sums overflow D, the exact sum is 1", X, X, X, X);
        fb_prod(&b, 1, X);
        fb_prod(&b, 1, X);
        fb_prod(&b, -1, X);
        fb_prod(&b, -1, X);
        fb_c(&b, 1, 0);
        fb_expect(&b, TC_OUT_EXACT);
        fb_alt_exact(&b, TC_RNE, "no intermediate overflow");
        fb_alt_text(&b, "inf", "intermediate overflow to +Inf");
        fb_alt_text(&b, "nan", "intermediate overflow gives NaN");
        fb_alt_text(&b, "0", "large terms cancel, C lost");
        n += fb_push(&b, out);
    }
    return n;
}

static const tc_rounding rne = {TC_RNE, TC_OVF_INF, false, 0, false};

static int fam_special(cset *s, const infer_target *t)
{
    const oracle_formats *f = &t->f;
    int k = t->k, rc = 0;
    uint64_t a[INFER_KMAX], b[INFER_KMAX];
    uint64_t za = tc_encode_f64(f->a, 0.0, rne), zb = tc_encode_f64(f->b, 0.0, rne);
    uint64_t one_a = tc_encode_f64(f->a, 1.0, rne), one_b = tc_encode_f64(f->b, 1.0, rne);
    uint64_t nan_a = f->a->nan_bits, nan_c = f->c->nan_bits;
    uint64_t inf_a = tc_encode_f64(f->a, INFINITY, rne), ninf_a = tc_encode_f64(f->a, -INFINITY, rne);
    bool has_inf = f->a->specials == TC_SPECIALS_IEEE;
    uint64_t c0 = tc_encode_f64(f->c, 0.0, rne);
    for (int v = 0; v < 10; v++) {
        for (int i = 0; i < k; i++) {
            a[i] = za;
            b[i] = zb;
        }
        uint64_t c = c0;
        switch (v) {
        case 0: a[0] = nan_a; b[0] = one_b; break;
        case 1: a[0] = one_a; b[0] = one_b; c = nan_c; break;
        case 2: if (!has_inf) continue; a[0] = inf_a; b[0] = one_b; break;
        case 3: if (!has_inf) continue; a[0] = inf_a; b[0] = zb; break;
        case 4: if (!has_inf) continue; a[0] = inf_a; b[0] = one_b; a[k - 1] = ninf_a; b[k - 1] = one_b; break;
        case 5: c = tc_encode_f64(f->c, -INFINITY, rne); a[0] = one_a; b[0] = one_b; break;
        case 6: if (!has_inf) continue; c = tc_encode_f64(f->c, -INFINITY, rne); a[0] = inf_a; b[0] = one_b; break;
        case 7:   /* every product the largest: overflow where the output is narrow enough */
        case 8:
            for (int i = 0; i < k; i++) {
                a[i] = tc_encode_f64(f->a, v == 7 ? 1e300 : -1e300, (tc_rounding){TC_RZ, TC_OVF_SAT, false, 0, false});
                b[i] = tc_encode_f64(f->b, 1e300, (tc_rounding){TC_RZ, TC_OVF_SAT, false, 0, false});
            }
            c = tc_encode_f64(f->c, v == 7 ? 1e300 : -1e300, (tc_rounding){TC_RZ, TC_OVF_SAT, false, 0, false});
            break;
        case 9:   /* C the largest finite, one product adds to it */
            c = tc_encode_f64(f->c, 1e300, (tc_rounding){TC_RZ, TC_OVF_SAT, false, 0, false});
            a[0] = tc_encode_f64(f->a, 1e300, (tc_rounding){TC_RZ, TC_OVF_SAT, false, 0, false});
            b[0] = tc_encode_f64(f->b, 1e300, (tc_rounding){TC_RZ, TC_OVF_SAT, false, 0, false});
            break;
        }
        rc |= cset_add_bits(s, "special", k, a, b, c);
    }
    return rc;
}

const tc_family tc_family_specials = {"specials", gen_specials, fam_special};
