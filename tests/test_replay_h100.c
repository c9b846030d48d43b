/* Replays every recorded H100 answer of the audit against the model with the
 * committed profile: the fingerprint holds only if this is 0 mismatches.
 * TC_REPLAY_AUDIT / TC_REPLAY_PROFILE point it at another audit run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases/audit.h"
#include "oracle/model.h"
#include "oracle/profile.h"
#include "probes/probes.h"
#include "reports/reports.h"

static const char *path_or(const char *env, const char *dflt)
{
    const char *v = getenv(env);
    return v ? v : dflt;
}

/* Replays one instruction's recorded answers; returns the mismatches. */
static size_t replay_answers(const tc_instr *ins, const model *m, const json_t *ans)
{
    infer_case *cs;
    size_t n;
    char err[512];
    /* A changed case generator cannot be replayed against old answers. */
    if (audit_answer_cases(ins, ans, &cs, &n, err, sizeof err) != 0)
        fail_msg("%s", err);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t hw = cs[i].d;
        uint64_t got = model_dot(m, cs[i].k, cs[i].a, cs[i].b, cs[i].c);
        if (got != hw && bad++ < 3)
            print_message("%s: case %zu (%s): hardware 0x%llx, model 0x%llx\n", ins->name, i,
                          cs[i].family, (unsigned long long)hw, (unsigned long long)got);
    }
    audit_cases_free(cs, n);
    return bad;
}

typedef struct {
    tc_record rec;
    model_profile prof;
} replay_data;

static void load_data(replay_data *d)
{
    const char *audit = path_or("TC_REPLAY_AUDIT", "reports/baselines/h100-audit.jsonl.gz");
    const char *ppath = path_or("TC_REPLAY_PROFILE", "oracle/profiles/h100.profile");
    char err[512], plain[64];
    /* the record is kept compressed (the GPU machine's fetch and tree limits) */
    snprintf(plain, sizeof plain, "/tmp/tcs-replay-%d.jsonl", (int)getpid());
    const char *src = audit;
    size_t len = strlen(audit);
    if (len > 3 && !strcmp(audit + len - 3, ".gz")) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "gzip -dc '%s' > %s", audit, plain);
        if (system(cmd) != 0)
            fail_msg("cannot decompress %s", audit);
        src = plain;
    }
    int rc = tc_record_load(src, &d->rec, err, sizeof err);
    if (src == plain)
        unlink(plain);
    if (rc != 0)
        fail_msg("%s", err);
    if (profile_load(ppath, &d->prof, err, sizeof err) != 0)
        fail_msg("%s", err);
}

static void free_data(replay_data *d)
{
    profile_free(&d->prof);
    tc_record_free(&d->rec);
}

/* Replays every audit object; *ninstr and *ncases count what was replayed. */
static size_t replay_record(const replay_data *d, size_t *ninstr, size_t *ncases)
{
    json_t *audits = tc_record_objects_of(&d->rec, "audit");
    size_t i, mismatches = 0;
    json_t *o;
    char err[512];
    *ninstr = *ncases = 0;
    json_array_foreach(audits, i, o) {
        const char *name = json_string_value(json_object_get(o, "instr"));
        const tc_instr *ins = tc_instr_by_name(name);
        assert_non_null(ins);
        const model_params *p = profile_lookup(&d->prof, name);
        if (json_object_get(o, "control"))
            continue; /* outside the model: judged against the exact oracle at audit time */
        if (!p) {
            /* Only verified fingerprints enter the profile. */
            assert_false(json_is_true(json_object_get(json_object_get(o, "verification"), "verified")));
            continue;
        }
        oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
        model *m = model_new(p, f, err, sizeof err);
        if (!m)
            fail_msg("%s: %s", name, err);
        const json_t *ans = json_object_get(o, "answers");
        assert_non_null(ans);
        mismatches += replay_answers(ins, m, ans);
        *ncases += (size_t)json_integer_value(json_object_get(ans, "count"));
        ++*ninstr;
        model_free(m);
    }
    json_decref(audits);
    return mismatches;
}

static void recorded_answers_match_the_profile(void **state)
{
    replay_data d;
    load_data(&d);
    size_t ninstr, ncases;
    size_t mismatches = replay_record(&d, &ninstr, &ncases);
    print_message("replayed %zu recorded answers of %zu instructions: %zu mismatches\n", ncases,
                  ninstr, mismatches);
    /* every floating-point instruction of the catalogue (the integer ones are
     * controls, judged against the exact sum): a truncated record fails here */
    assert_int_equal(ninstr, 252);
    assert_true(ncases > ninstr * 1000);
    assert_int_equal(mismatches, 0);
    free_data(&d);
}

/* The replay must notice one flipped answer bit. */
static void a_flipped_answer_bit_is_caught(void **state)
{
    replay_data d;
    load_data(&d);
    json_t *audits = tc_record_objects_of(&d.rec, "audit");
    size_t i;
    json_t *o;
    json_array_foreach(audits, i, o) {
        json_t *ans = json_object_get(o, "answers");
        if (!ans || !profile_lookup(&d.prof, json_string_value(json_object_get(o, "instr"))))
            continue;
        char *bits = strdup(json_string_value(json_object_get(ans, "bits")));
        size_t last = strlen(bits) - 1;
        bits[last] = bits[last] == '0' ? '1' : '0';
        json_object_set_new(ans, "bits", json_string(bits));
        free(bits);
        break;
    }
    json_decref(audits);
    size_t ninstr, ncases;
    assert_int_equal(replay_record(&d, &ninstr, &ncases), 1);
    free_data(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(recorded_answers_match_the_profile),
        cmocka_unit_test(a_flipped_answer_bit_is_caught),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
