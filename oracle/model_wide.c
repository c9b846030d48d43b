/* The model for operands wider than 31 significant bits (f64): products
 * do not fit the 64-bit terms of model_int128.c, so each step is the oracle's
 * exact GMP sum (oracle/exact_acc.h) rounded once into the accumulator.
 * That covers the settings a wide unit can have without a finite alignment
 * window: exact products, unlimited alignment, any block and step order, C
 * first or last, the accumulator format and its rounding, flushing, and the
 * output rounding. A block of 1 is a chain of fused multiply-adds.
 * One difference from the reference (model_reference.c): with C_FIRST, C
 * joins the first step as given, where the reference first rounds it into
 * the accumulator (acc_fmt, ftz_acc); the two agree where C is already an
 * accumulator value (acc_fmt C's format, no flush of a subnormal C), as in
 * the shipped profiles. tests/test_model_reference.c checks the rest. */
#include <stdlib.h>

#include "oracle/exact_acc.h"
#include "oracle/model_internal.h"

const char *model_wide_unsupported(const model_params *p)
{
    if (p->cvt_a.convert || p->cvt_b.convert)
        return "wide operands (over 31 significant bits) are used as given, not converted";
    if (p->prod_bits != MODEL_EXACT || p->prod_flush_exp != MODEL_NO_FLUSH)
        return "wide operands (over 31 significant bits) have exact, unflushed products only";
    if (p->align_bits != MODEL_EXACT || p->carry_bits != MODEL_UNLIMITED)
        return "wide operands (over 31 significant bits) are summed without an alignment window";
    if (p->acc_ovf_inf)
        return "wide operands (over 31 significant bits) keep IEEE accumulator overflow";
    if (p->zero_positive || p->floored)
        return "wide operands (over 31 significant bits) keep IEEE zero signs and an unfloored sum";
    return NULL;
}

/* The quiet form of NaN bits x of f (IEEE: the top fraction bit set). */
static uint64_t quiet(const tc_format *f, uint64_t x)
{
    return x | (1ull << (f->mbits - 1 + f->shift));
}

/* The order in which a step looks at its operands for a NaN to pass on
 * (model_nan_prop): 'a', 'b', 'c' for the accumulator. */
static const char nan_orders[MODEL_NAN_ORDERS][4] = {"", "cab", "cba", "abc", "bac", "acb", "bca"};

/* The NaN operand of one step that propagates under p, or false if none:
 * its quieted bits in *out (formats must hold its payload: the operand's
 * own format, since the wide path keeps every format as given). */
static bool step_nan(const model *m, const uint64_t *a, const uint64_t *b, int n, bool acc_nan,
                     uint64_t acc_bits, uint64_t *out)
{
    const char *ord = nan_orders[m->p.nan_prop];
    for (int i = 0; i < n; i++)
        for (int r = 0; r < 3; r++) {
            if (ord[r] == 'c') {
                if (i == 0 && acc_nan) {
                    *out = acc_bits;
                    return true;
                }
                continue;
            }
            const tc_format *f = ord[r] == 'a' ? m->f.a : m->f.b;
            uint64_t x = ord[r] == 'a' ? a[i] : b[i];
            if (tc_classify(f, x) == TC_NAN) {
                *out = quiet(f, x);
                return true;
            }
        }
    if (acc_nan) {   /* a step without products */
        *out = acc_bits;
        return true;
    }
    return false;
}

static exact_val wide_load(const tc_format *f, uint64_t bits, bool daz)
{
    return exact_val_of(tc_decode(f, bits, daz));
}

/* sum a[i]*b[i] (+ c) exactly, rounded once into f with r. */
static uint64_t wide_sum(const exact_val *a, const exact_val *b, int n, const exact_val *c,
                         const tc_format *f, tc_rounding r)
{
    exact_sum s;
    exact_dot(a, 1, b, 1, n, c, r.mode, &s);
    uint64_t bits = exact_sum_round(&s, f, r);
    exact_sum_free(&s);
    return bits;
}

bool model_wide_payloads_ok(const model_params *p, oracle_formats f)
{
    return p->nan_prop == MODEL_NAN_CANONICAL ||
           (model_same_format(f.a, f.d) && model_same_format(f.b, f.d) && model_same_format(f.c, f.d) &&
            (p->acc_exact || model_same_format(&p->acc_fmt, f.d)));
}

uint64_t model_dot_wide(const model *m, int k, const uint64_t *a, const uint64_t *b, uint64_t c)
{
    const model_params *p = &m->p;
    exact_val va[256], vb[256], *xa = va, *xb = vb;
    uint64_t ba[256], bb[256], *ra = ba, *rb = bb;
    int idx[256], *ord = idx;
    if (k > 256) {
        xa = exact_xmalloc((size_t)k * sizeof *xa);
        xb = exact_xmalloc((size_t)k * sizeof *xb);
        ra = exact_xmalloc((size_t)k * sizeof *ra);
        rb = exact_xmalloc((size_t)k * sizeof *rb);
        ord = exact_xmalloc((size_t)k * sizeof *ord);
    }
    bool ordered = model_step_order(p, k, ord);
    for (int i = 0; i < k; i++) {
        int q = ordered ? ord[i] : i;
        ra[i] = a[q];
        rb[i] = b[q];
        xa[i] = wide_load(m->f.a, a[q], p->ftz_a);
        xb[i] = wide_load(m->f.b, b[q], p->ftz_b);
    }
    const bool prop = p->nan_prop != MODEL_NAN_CANONICAL;
    const tc_format *fa = p->acc_exact ? m->f.d : &p->acc_fmt;
    tc_rounding ro = {p->out_round, p->out_ovf, p->ftz_out, 0, false};
    tc_rounding ra_ = {p->acc_round, TC_OVF_INF, p->ftz_acc, 0, false};
    tc_rounding rc = {p->c_round, TC_OVF_INF, p->ftz_acc, 0, false};
    const exact_val one = wide_load(&tc_f64, 0x3FF0000000000000ull, false);
    exact_val vc = wide_load(m->f.c, c, p->ftz_c);
    bool c_nan = tc_classify(m->f.c, c) == TC_NAN;
    /* The running accumulator: its exact value, and when it is a NaN the
     * bits it carries (a propagated payload, or nan_bits from an invalid
     * operation). */
    exact_val acc = vc;
    bool present = p->c_mode == MODEL_C_FIRST || p->acc_exact, acc_nan = present && c_nan;
    uint64_t nan = present && c_nan ? quiet(m->f.c, c) : p->nan_bits;
    int block = p->acc_exact ? (k > 0 ? k : 1) : p->block;
    for (int s = 0; s < k; s += block) {
        int n = k - s < block ? k - s : block;
        uint64_t x;
        if (prop && step_nan(m, ra + s, rb + s, n, acc_nan, nan, &x)) {
            acc_nan = true;
            nan = x;
        } else if (!acc_nan) {
            uint64_t r = wide_sum(xa + s, xb + s, n, present ? &acc : NULL, fa, p->acc_exact ? ro : ra_);
            acc_nan = tc_classify(fa, r) == TC_NAN;
            nan = p->nan_bits;
            acc = wide_load(fa, r, false);
        }
        present = true;
    }
    if (p->c_mode == MODEL_C_LAST && !p->acc_exact && !acc_nan) {
        if (prop && c_nan) {
            acc_nan = true;
            nan = quiet(m->f.c, c);
        } else if (present) {
            uint64_t r = wide_sum(&acc, &one, 1, &vc, fa, rc);
            acc_nan = tc_classify(fa, r) == TC_NAN;
            nan = p->nan_bits;
            acc = wide_load(fa, r, false);
        } else {
            acc = vc;
            acc_nan = c_nan;
            nan = p->nan_bits;
        }
    }
    uint64_t d = acc_nan ? (prop ? nan : p->nan_bits) : wide_sum(&acc, &one, 1, NULL, m->f.d, ro);
    if (!acc_nan && tc_classify(m->f.d, d) == TC_NAN)
        d = p->nan_bits;
    if (xa != va) {
        free(xa);
        free(xb);
        free(ra);
        free(rb);
        free(ord);
    }
    return d;
}
