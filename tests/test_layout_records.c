/* The recorded H100 layout proofs (doc/findings.md: "proved all 256 layouts", and the
 * sparse fragments and metadata "proven on the H100 for all six two-of-four
 * patterns"): reports/baselines/h100-layout.jsonl and h100-sparse-layout.jsonl
 * hold one line per catalogue entry, each a pass on the GPU, with well-formed
 * and internally consistent fields. The checker is shown to refuse broken
 * copies: a record cut short (its last line gone, or cut mid-line), one
 * failed proof, a duplicated entry, a name outside the catalogue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <jansson.h>

#include "probes/probes.h"
#include "tests/testutil.h"

#define DENSE "reports/baselines/h100-layout.jsonl"
#define SPARSE "reports/baselines/h100-sparse-layout.jsonl"

/* Says why a record is refused (into msg, len of the caller), -1. */
#define REFUSE(...) (snprintf(msg, len, __VA_ARGS__), -1)

/* One sparse line's fields beyond the proof: the 2:4 (1:2 for tf32) ratio,
 * the SASS the kernel compiled to, and the batch statistics. */
static int check_sparse_fields(const tc_instr *ins, json_t *o, char *msg, size_t len)
{
    const char *ratio = json_string_value(json_object_get(o, "ratio"));
    if (!ratio || strcmp(ratio, ins->a == &tc_tf32 ? "1:2" : "2:4"))
        return REFUSE("%s: ratio %s", ins->name, ratio ? ratio : "missing");
    const char *dev = json_string_value(json_object_get(o, "device"));
    if (!dev || !strstr(dev, "H100") || !json_is_true(json_object_get(o, "supported")) ||
        !json_is_true(json_object_get(o, "ok")))
        return REFUSE("%s: not a supported, ok run on an H100 (%s)", ins->name, dev ? dev : "no device");
    json_t *s = json_object_get(o, "sass");
    const char *op = json_string_value(json_object_get(s, "opcode")), *v = json_string_value(json_object_get(s, "verdict"));
    if (!op || !v || strncmp(op, ins->sass, strlen(ins->sass)) || !strstr(op, ".SP"))
        return REFUSE("%s: SASS opcode %s", ins->name, op ? op : "missing");
    /* native: one tensor opcode, no conversions; emulated only where the
     * doc/findings.md says so (FP8 mma.sp: 2 x HMMA.SP with unpacking) */
    bool fp8_mma = !strcmp(ins->api, "mma.sp") && ins->a->storage_bits == 8 && !tc_format_is_int(ins->a);
    bool native = json_is_true(json_object_get(s, "native"));
    json_int_t per = json_integer_value(json_object_get(s, "per_mma")),
               conv = json_integer_value(json_object_get(s, "conversions"));
    if (fp8_mma ? strcmp(v, "emulated") || native || per != 2 || conv < 1
                : strcmp(v, "match") || !native || per != 1 || conv != 0)
        return REFUSE("%s: SASS verdict %s unlike the catalogue's", ins->name, v);
    json_t *b = json_object_get(o, "batch");
    json_int_t el = json_integer_value(json_object_get(b, "elements")), t = json_integer_value(json_object_get(b, "tiles"));
    json_int_t cnt[5];
    static const char *const counts[] = {"equal_rne", "within_half_ulp", "within_one_ulp", "inf_or_nan",
                                         "inf_or_nan_unlike_rne"};
    for (int i = 0; i < 5; i++) {
        json_t *c = json_object_get(b, counts[i]);
        cnt[i] = json_integer_value(c);
        if (!json_is_integer(c) || cnt[i] < 0 || cnt[i] > el)
            return REFUSE("%s: batch %s out of range", ins->name, counts[i]);
    }
    double mx = json_number_value(json_object_get(b, "max_abs_ulps")),
           mean = json_number_value(json_object_get(b, "mean_abs_ulps"));
    if (el != t * ins->m * ins->n || el < 1 || cnt[1] > cnt[2] || cnt[4] > cnt[3] || !(0 <= mean && mean <= mx) ||
        json_integer_value(json_object_get(b, "wild")) != 0)
        return REFUSE("%s: batch statistics inconsistent", ins->name);
    return 0;
}

/* 0 when text is a complete record of the proof on the GPU: one line per
 * catalogue entry (dense file: all; sparse file: the sparse ones), each a
 * pass; else -1 with the first problem in msg. */
static int check_layout_record(const char *text, bool sparse_file, char *msg, size_t len)
{
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    unsigned char *seen = calloc(n, 1);
    char *copy = strdup(text), *save = NULL;
    int rc = 0, lineno = 0;
    if (!*text || text[strlen(text) - 1] != '\n')
        rc = REFUSE("record does not end with a newline (cut mid-line)");
    for (char *line = strtok_r(copy, "\n", &save); !rc && line; line = strtok_r(NULL, "\n", &save)) {
        lineno++;
        json_error_t e;
        json_t *o = json_loads(line, 0, &e);
        const char *name = json_string_value(json_object_get(o, "instr"));
        const tc_instr *ins = name ? tc_instr_by_name(name) : NULL;
        const char *be = json_string_value(json_object_get(o, "backend")),
                   *lay = json_string_value(json_object_get(o, "layout"));
        if (!o)
            rc = REFUSE("not JSON: %.60s", line);
        else if (!ins)
            rc = REFUSE("'%s' is not a catalogue entry", name ? name : "(no instr)");
        else if (sparse_file && !ins->sparse)
            rc = REFUSE("%s: dense entry in the sparse record", name);
        else if (seen[ins - cat]++)
            rc = REFUSE("%s: recorded twice", name);
        else if (!be || strcmp(be, "gpu:0") || !lay || strcmp(lay, "pass"))
            rc = REFUSE("%s: layout %s, not a pass on gpu:0", name, lay ? lay : "missing");
        else if (!sparse_file && json_object_size(o) != 3)
            rc = REFUSE("%s: fields other than instr, backend, layout", name);
        else if (sparse_file)
            rc = check_sparse_fields(ins, o, msg, len);
        json_decref(o);
    }
    for (size_t i = 0; !rc && i < n; i++)
        if (!seen[i] && (!sparse_file || cat[i].sparse))
            rc = REFUSE("%s: missing (record truncated?)", cat[i].name);
    free(copy);
    free(seen);
    return rc;
}

static void check_real_and_broken(const char *path, bool sparse_file)
{
    char *text = tc_slurp(path), msg[512];
    if (check_layout_record(text, sparse_file, msg, sizeof msg))
        fail_msg("%s: %s", path, msg);
    size_t len = strlen(text);
    /* the last line gone */
    char *cut = strdup(text);
    cut[len - 1] = '\0';
    *(strrchr(cut, '\n') + 1) = '\0';
    assert_int_equal(check_layout_record(cut, sparse_file, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "missing (record truncated?)"));
    /* cut in the middle of a line */
    cut[strlen(cut) - 10] = '\0';
    assert_int_equal(check_layout_record(cut, sparse_file, msg, sizeof msg), -1);
    free(cut);
    /* one proof failed */
    char *bad = strdup(text), *p = strstr(bad, "\"layout\":\"pass\"");
    memcpy(p + 10, "fail", 4);
    assert_int_equal(check_layout_record(bad, sparse_file, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "not a pass"));
    free(bad);
    /* the first line twice, in place of the second */
    bad = strdup(text);
    char *l2 = strchr(bad, '\n') + 1;
    size_t l1 = (size_t)(l2 - bad);
    char *rest = strdup(strchr(l2, '\n') + 1);
    memcpy(l2, bad, l1);
    strcpy(l2 + l1, rest);
    assert_int_equal(check_layout_record(bad, sparse_file, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "recorded twice"));
    free(rest);
    free(bad);
    /* a name outside the catalogue */
    bad = strdup(text);
    p = strstr(bad, "\"instr\":\"") + 9;
    p[0] = 'x';
    assert_int_equal(check_layout_record(bad, sparse_file, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "not a catalogue entry"));
    free(bad);
    free(text);
}

static void dense_layout_record_is_complete_and_passes(void **state) { check_real_and_broken(DENSE, false); }

static void sparse_layout_record_is_complete_and_consistent(void **state)
{
    check_real_and_broken(SPARSE, true);
    /* a batch count beyond its elements is refused */
    char *text = tc_slurp(SPARSE), msg[512];
    char *p = strstr(text, "\"wild\":0");
    assert_non_null(p);
    p[7] = '1';
    assert_int_equal(check_layout_record(text, true, msg, sizeof msg), -1);
    assert_non_null(strstr(msg, "batch statistics"));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(dense_layout_record_is_complete_and_passes),
        cmocka_unit_test(sparse_layout_record_is_complete_and_consistent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
