/* The fields on which MMA-Sim or a Khattak-Mikaitis model states another
 * value than h200.profile (tools/thirdparty_params.py), settled on the H200
 * (reports/baselines/h200-thirdparty-settled.jsonl.gz, tools/thirdparty_settle.py):
 * each question an input on which the two values give different bits, alone
 * in a tile, D[0][0] read back. Replayed here through the reference model:
 * both values' answers are computed again (h200.profile's parameters with
 * the field set to each value) and must still differ and equal the
 * recorded ones, the hardware's answer must be the one of the side the
 * record names, and model:h200 (the profile as it is now) must give the
 * hardware's answer wherever the record says the H200 sided with tcscope. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "oracle/model.h"
#include "oracle/model_fields.h"
#include "oracle/profile.h"
#include "probes/probes.h"

#define RECORD "reports/baselines/h200-thirdparty-settled.jsonl.gz"
#define PROFILE "oracle/profiles/h200.profile"
#define MAXK 64

static uint64_t hex(const json_t *j)
{
    const char *s = json_string_value(j);
    assert_non_null(s);
    char *end;
    uint64_t v = strtoull(s, &end, 16);
    assert_true(end != s && *end == '\0');
    return v;
}

static const char *str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    if (!s)
        fail_msg("%s: no string \"%s\"", RECORD, key);
    return s;
}

/* D of the profile's parameters for ins with field `key` set to `value`. */
static uint64_t answer(const model_params *base, const tc_instr *ins, const char *key, const char *value,
                       const uint64_t *a, const uint64_t *b, uint64_t c)
{
    model_params p = *base;
    int i = model_field_find(key);
    if (i < 0)
        fail_msg("%s: unknown field %s", RECORD, key);
    if (model_fields[i].parse(value, &p) != MODEL_FIELD_SET)
        fail_msg("%s: %s = %s does not parse", RECORD, key, value);
    char err[512];
    oracle_formats fm = {ins->a, ins->b, ins->c, ins->d};
    model *m = model_new(&p, fm, err, sizeof err);
    if (!m)
        fail_msg("%s %s = %s: %s", ins->name, key, value, err);
    uint64_t d = model_dot(m, ins->k, a, b, c);
    model_free(m);
    return d;
}

static void hardware_answers_replay(void **state)
{
    if (access(RECORD, R_OK)) {
        printf("%s not recorded yet (tools/device/settle.sh on an H200)\n", RECORD);
        skip();
    }
    model_profile prof;
    char err[512];
    if (profile_load(PROFILE, &prof, err, sizeof err))
        fail_msg("%s", err);
    FILE *f = popen("gzip -dc " RECORD, "r");
    assert_non_null(f);
    char line[16384];
    size_t n = 0, side[3] = {0, 0, 0}, stale = 0;
    static const char *sides[3] = {"tcscope", "third_party", "neither"};
    while (fgets(line, sizeof line, f)) {
        json_error_t je;
        json_t *o = json_loads(line, 0, &je);
        if (!o)
            fail_msg("%s: %s", RECORD, je.text);
        const tc_instr *ins = tc_instr_by_name(str(o, "instr"));
        assert_non_null(ins);
        const json_t *ja = json_object_get(o, "a"), *jb = json_object_get(o, "b");
        assert_int_equal(json_array_size(ja), (size_t)ins->k);
        assert_int_equal(json_array_size(jb), (size_t)ins->k);
        uint64_t a[MAXK], b[MAXK];
        for (int k = 0; k < ins->k; k++) {
            a[k] = hex(json_array_get(ja, (size_t)k));
            b[k] = hex(json_array_get(jb, (size_t)k));
        }
        uint64_t c = hex(json_object_get(o, "c")), gpu = hex(json_object_get(o, "gpu_d"));
        const model_params *p = profile_lookup(&prof, ins->name);
        assert_non_null(p);
        const char *key = str(o, "field");
        uint64_t ours = answer(p, ins, key, str(o, "h200"), a, b, c);
        uint64_t theirs = answer(p, ins, key, str(o, "value"), a, b, c);
        /* the input still separates the two values, with the answers recorded */
        assert_true(ours != theirs);
        assert_true(ours == hex(json_object_get(o, "tcscope_d")));
        assert_true(theirs == hex(json_object_get(o, "third_d")));
        const char *agrees = str(o, "agrees");
        int s = gpu == ours ? 0 : gpu == theirs ? 1 : 2;
        if (strcmp(agrees, sides[s]))
            fail_msg("%s %s: the record says the H200 sided with %s, its answer %llx is %s's", ins->name, key,
                     agrees, (unsigned long long)gpu, sides[s]);
        side[s]++;
        if (s == 0) {
            char e2[512];
            oracle_formats fm = {ins->a, ins->b, ins->c, ins->d};
            model *m = model_new(p, fm, e2, sizeof e2);
            if (!m)
                fail_msg("%s: %s", ins->name, e2);
            uint64_t now = model_dot(m, ins->k, a, b, c);
            model_free(m);
            if (now != gpu && stale++ < 5)
                fprintf(stderr, "%s: H200 %llx, model:h200 %llx\n", ins->name, (unsigned long long)gpu,
                        (unsigned long long)now);
        }
        n++;
        json_decref(o);
    }
    assert_int_equal(pclose(f), 0);
    profile_free(&prof);
    printf("settled on the H200: %zu questions; the H200 sided with tcscope on %zu, the third-party model on %zu, "
           "neither on %zu; model:h200 differs from the H200 on %zu of tcscope's\n",
           n, side[0], side[1], side[2], stale);
    assert_true(n > 0);
    assert_int_equal(stale, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hardware_answers_replay),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
