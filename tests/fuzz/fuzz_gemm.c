/* gemm records (reports/record_gemm.h): the input is a record's text, a
 * tcscope-record/1 of kind gemm or the older tcscope-gemm lines. It loads
 * or fails with a message; every case loaded has its path and a k, m, n in
 * range (the checker's spans: nothing sized by them can overflow), and a
 * record of cases compares with itself without a difference. */
#include <stdio.h>

#include "reports/compare.h"
#include "reports/record_gemm.h"
#include "tests/fuzz/fuzz.h"

static bool in_range(const json_t *c, const char *key)
{
    const json_t *v = json_object_get(c, key);
    return !v || (json_is_integer(v) && json_integer_value(v) >= 1 && json_integer_value(v) <= 1048576);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[600] = "";
    json_t *hdr = NULL, *cases = tc_gemm_records_parse(text, "fuzz", &hdr, err, sizeof err);
    if (!cases) {
        FUZZ_CHECK(err[0] != '\0');
        free(text);
        return 0;
    }
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c)
    {
        FUZZ_CHECK(json_is_string(json_object_get(c, "path")));
        FUZZ_CHECK(json_is_integer(json_object_get(c, "k")));
        FUZZ_CHECK(in_range(c, "k") && in_range(c, "m") && in_range(c, "n"));
    }
    tc_record r;
    if (hdr && tc_record_parse(text, "fuzz", &r, err, sizeof err) == 0) {
        char why[600];
        if (tc_compare_check(&r, "fuzz", why, sizeof why)) {
            tc_compare_opts o = tc_compare_defaults();
            json_t *diffs = json_array(), *ctx = json_array();
            FUZZ_CHECK(tc_compare_records(&r, &r, &o, diffs, ctx) == 0);
            json_decref(diffs);
            json_decref(ctx);
        }
        tc_record_free(&r);
    }
    json_decref(hdr);
    json_decref(cases);
    free(text);
    return 0;
}
