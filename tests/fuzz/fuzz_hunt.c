/* hunt records (SCHEMA.md "hunt"; what audit --counterexamples reads): the
 * input is a record's text. It loads or fails with a message; every hunt
 * loaded counts at most as many mismatches as elements, in total and per
 * family; it compares with itself without a difference; and the failures
 * of a catalogue instruction become counterexample cases or a message. */
#include "cases/audit.h"
#include "probes/probes.h"
#include "reports/compare.h"
#include "tests/fuzz/fuzz.h"

static bool counts_ok(const json_t *o)
{
    json_int_t e = json_integer_value(json_object_get(o, "elements")),
               m = json_integer_value(json_object_get(o, "mismatches"));
    return e >= 0 && m >= 0 && m <= e;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[600] = "";
    tc_record r;
    if (tc_record_parse(text, "fuzz", &r, err, sizeof err) != 0) {
        FUZZ_CHECK(err[0] != '\0');
        free(text);
        return 0;
    }
    size_t i;
    json_t *o;
    json_array_foreach(r.objects, i, o)
    {
        if (strcmp(json_string_value(json_object_get(o, "kind")), "hunt"))
            continue;
        FUZZ_CHECK(counts_ok(o));
        const char *k;
        json_t *f;
        json_object_foreach(json_object_get(o, "families"), k, f) FUZZ_CHECK(counts_ok(f));
        const tc_instr *ins = tc_instr_by_name(json_string_value(json_object_get(o, "instr")));
        infer_case *cases = NULL;
        size_t n = 0;
        if (ins && audit_given_cases(r.objects, ins, &cases, &n, err, sizeof err) == 0)
            audit_cases_free(cases, n);
    }
    char why[600];
    if (tc_compare_check(&r, "fuzz", why, sizeof why)) {
        tc_compare_opts opts = tc_compare_defaults();
        json_t *diffs = json_array(), *ctx = json_array();
        FUZZ_CHECK(tc_compare_records(&r, &r, &opts, diffs, ctx) == 0);
        json_decref(diffs);
        json_decref(ctx);
    }
    tc_record_free(&r);
    free(text);
    return 0;
}
