/* decide_classify: what the answers to the deciding inputs decide (see decide.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/decide.h"
#include "cases/decide_internal.h"
#include "oracle/model_equiv.h"
#include "oracle/model_fields.h"
#include "oracle/model_ranges.h"

/* ---- what the answers decide ---- */

const char *decide_status_name(decide_status s)
{
    static const char *const names[DECIDE_NSTATUS] = {"construction", "sampled", "undecided"};
    return s < DECIDE_NSTATUS ? names[s] : "?";
}

/* A pair the search spent its budget on without separating it. */
static bool listed_open(const decide_set *s, int field, const char *value)
{
    for (size_t i = 0; i < s->nopen; i++)
        if (!s->open[i].equivalent && s->open[i].field == field && !strcmp(s->open[i].value, value))
            return true;
    return false;
}

/* The first input on which w's answer is not the hardware's (SIZE_MAX: none). */
static size_t excluding_input(const decide_set *s, const model *mw, const uint64_t *hw, uint64_t *w_answer)
{
    for (size_t i = 0; hw && i < s->ninputs; i++) {
        const infer_case *c = &s->inputs[i];
        if ((*w_answer = model_dot(mw, c->k, c->a, c->b, c->c)) != hw[i])
            return i;
    }
    return SIZE_MAX;
}

int decide_classify_pairs(const decide_set *s, const model_params *p, const uint64_t *hw, decide_field *out,
                          size_t *contradicted, decide_pair_fn each, void *ctx, char *err, size_t errlen)
{
    const tc_instr *ins = s->ins;
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    model *mp = model_new(p, f, err, errlen);
    model_params *range = malloc(MODEL_RANGE_MAX * sizeof *range);
    if (!mp || !range) {
        if (mp)
            snprintf(err, errlen, "out of memory");
        model_free(mp);
        free(range);
        return -1;
    }
    *contradicted = 0;
    for (size_t i = 0; hw && i < s->ninputs; i++) {
        const infer_case *c = &s->inputs[i];
        *contradicted += model_dot(mp, c->k, c->a, c->b, c->c) != hw[i];
    }
    bool built_from_p = model_params_diff(&s->v, p, NULL) == 0;
    model_field_scope sc = decide_scope(ins, s->k);
    for (int i = 0; i < model_field_count(); i++) {
        decide_field *d = &out[i];
        memset(d, 0, sizeof *d);
        int nr = model_field_range(i, p, &sc, range);
        for (int j = 0; j < nr; j++) {
            if (model_fields[i].same(p, &range[j]))
                continue;
            char merr[128];
            decide_pair pr = {i, "", SIZE_MAX, 0, 0, 0, DECIDE_PAIR_OPEN};
            model *mw = model_new(&range[j], f, merr, sizeof merr);
            if (!mw)
                continue;
            d->alternatives++;
            model_field_text(&range[j], i, pr.value, sizeof pr.value);
            pr.input = excluding_input(s, mw, hw, &pr.w_answer);
            if (pr.input != SIZE_MAX) {
                const infer_case *c = &s->inputs[pr.input];
                pr.v_answer = model_dot(mp, c->k, c->a, c->b, c->c);
                pr.hw_answer = hw[pr.input];
                pr.kind = DECIDE_PAIR_EXCLUDED;
                d->excluded++;
            } else if (model_field_equivalent(i, p, &range[j], &sc)) {
                pr.kind = DECIDE_PAIR_EQUIVALENT;
                d->equivalent++;
            } else if (built_from_p && listed_open(s, i, pr.value)) {
                pr.kind = DECIDE_PAIR_UNSEPARATED;
                d->unseparated++;
            } else if (!d->open++)
                snprintf(d->first_open, sizeof d->first_open, "%s", pr.value);
            model_free(mw);
            if (each)
                each(ctx, &pr);
        }
        /* answers p misses leave every field open: which one is wrong is the refit's to say; a pair
           the search's budget left unseparated is decided only by the audit's sampled evidence */
        if (!hw)
            d->status = DECIDE_SAMPLED;
        else if (d->open || *contradicted)
            d->status = DECIDE_UNDECIDED;
        else
            d->status = d->unseparated ? DECIDE_SAMPLED : DECIDE_CONSTRUCTION;
    }
    model_free(mp);
    free(range);
    return 0;
}

int decide_classify(const decide_set *s, const model_params *p, const uint64_t *hw, decide_field *out,
                    size_t *contradicted, char *err, size_t errlen)
{
    return decide_classify_pairs(s, p, hw, out, contradicted, NULL, NULL, err, errlen);
}
