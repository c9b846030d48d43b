/* The H100's answers to the boundary-directed search (tcscope hunt,
 * reports/baselines/h100-hunt-final.packed.xz, read as its text) replayed through model:h100:
 * the record keeps, per instruction and hunt family, the hardware's first
 * 128 outputs; their inputs are regenerated here from the record's seed by
 * cases/hunt.c, so this also fails if the generator drifts from the one that
 * ran on the GPU. A flipped sample digit must be caught. Each record's
 * inputs are regenerated with its header's stream ("draw": "tile", or
 * "family" where absent, cases/hunt.h): a record of the tile stream
 * (tests/data/hunt-tile-model.jsonl.gz, model:h100's answers) replays, and
 * fails when read as the family stream's; and the H200's hunt on the GPU path
 * (reports/baselines/h200-hunt-gpu.packed.xz, inputs drawn on the GPU) replays
 * through model:h200. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cases/audit.h"
#include "cases/hunt.h"
#include "oracle/model.h"
#include "oracle/profile.h"
#include "probes/probes.h"
#include "reports/record_packed.h"

#define RECORD "reports/baselines/h100-hunt-final.packed.xz"
#define TILE_RECORD "tests/data/hunt-tile-model.jsonl.gz"
#define PROFILE "oracle/profiles/h100.profile"
/* The H200's hunt on the GPU path (tools/device/hunt-gpu.sh, --count 400000):
 * its inputs were drawn on the GPU from the tile stream, so its replay here
 * also fails if the device's draw drifts from the host's. */
#define H200_RECORD "reports/baselines/h200-hunt-gpu.packed.xz"
#define H200_PROFILE "oracle/profiles/h200.profile"

/* Mismatching sample elements of one record object (its family samples). */
static size_t replay_object(const json_t *o, uint64_t seed, hunt_draw draw, const model_profile *prof,
                            size_t *checked)
{
    const tc_instr *ins = tc_instr_by_name(json_string_value(json_object_get(o, "instr")));
    assert_non_null(ins);
    const json_t *sample = json_object_get(o, "sample");
    const model_params *p = profile_lookup(prof, ins->name);
    if (!sample || !p)
        return 0;
    audit_backend_ctx ctx = {NULL, ins};
    infer_target t = audit_target(&ctx, seed);
    char err[256];
    model *m = model_new(p, t.f, err, sizeof err);
    if (!m)
        fail_msg("%s: %s", ins->name, err);
    size_t mn = (size_t)t.m * t.n, ta = (size_t)t.m * t.k, tb = (size_t)t.k * t.n, bad = 0;
    int digits = ins->d->storage_bits / 4;
    for (int fam = 0; fam < HUNT_NFAMILIES; fam++) {
        const char *hex = json_string_value(json_object_get(sample, hunt_family_name(fam)));
        assert_non_null(hex);
        size_t want = strlen(hex) / (size_t)digits, ntiles = (want + mn - 1) / mn;
        uint64_t *A = malloc(ntiles * ta * 8), *B = malloc(ntiles * tb * 8), *C = malloc(ntiles * mn * 8),
                 *D = malloc(ntiles * mn * 8);
        assert_true(A && B && C && D);
        hunt_fill_tiles(&t, draw, seed, fam, 0, ntiles, A, B, C);
        model_mma(m, t.m, t.n, t.k, ntiles, A, B, C, D);
        for (size_t e = 0; e < want; e++) {
            char buf[20];
            memcpy(buf, hex + e * (size_t)digits, (size_t)digits);
            buf[digits] = '\0';
            uint64_t hw = strtoull(buf, NULL, 16);
            if (hw != D[e] && bad++ < 3)
                print_message("%s %s element %zu: hardware 0x%llx, model 0x%llx\n", ins->name,
                              hunt_family_name(fam), e, (unsigned long long)hw, (unsigned long long)D[e]);
        }
        *checked += want;
        free(A), free(B), free(C), free(D);
    }
    model_free(m);
    return bad;
}

typedef struct {
    json_t **objs;
    size_t n;
    uint64_t seed;
    hunt_draw draw;
    model_profile prof;
} hunt_data;

static void load_with(hunt_data *h, const char *record, const char *profile)
{
    memset(h, 0, sizeof *h);
    char err[256];
    if (profile_load(profile, &h->prof, err, sizeof err))
        fail_msg("%s", err);
    tc_record_file rf;
    FILE *f = tc_record_open(record, &rf, err, sizeof err);
    if (!f)
        fail_msg("%s", err);
    char *line = NULL;
    size_t cap = 0;
    h->objs = calloc(512, sizeof *h->objs);
    while (getline(&line, &cap, f) > 0) {
        json_error_t je;
        json_t *o = json_loads(line, 0, &je);
        if (!o)
            fail_msg("%s: %s", record, je.text);
        if (json_object_get(o, "schema")) {
            const char *s = json_string_value(json_array_get(json_object_get(o, "seeds"), 0));
            assert_non_null(s);
            h->seed = strtoull(s, NULL, 0);
            const json_t *d = json_object_get(o, "draw");   /* absent: the records before the tile stream */
            int draw = d ? hunt_draw_by_name(json_string_value(d)) : HUNT_DRAW_FAMILY;
            assert_true(draw >= 0);
            h->draw = (hunt_draw)draw;
        }
        if (json_is_string(json_object_get(o, "instr")) && h->n < 512)
            h->objs[h->n++] = o;
        else
            json_decref(o);
    }
    free(line);
    assert_int_equal(tc_record_close(f, &rf), 0);
    assert_true(h->seed != 0);
}

static void load(hunt_data *h, const char *record)
{
    load_with(h, record, PROFILE);
}

static void unload(hunt_data *h)
{
    for (size_t i = 0; i < h->n; i++)
        json_decref(h->objs[i]);
    free(h->objs);
    profile_free(&h->prof);
}

static void hunt_answers_match_the_profile(void **state)
{
    hunt_data h;
    load(&h, RECORD);
    assert_int_equal(h.draw, HUNT_DRAW_FAMILY);
    size_t bad = 0, checked = 0, ninstr = 0;
    for (size_t i = 0; i < h.n; i++) {
        size_t before = checked;
        bad += replay_object(h.objs[i], h.seed, h.draw, &h.prof, &checked);
        ninstr += checked > before;
    }
    print_message("hunt sample: %zu hardware answers of %zu instructions replayed, %zu mismatches\n", checked,
                  ninstr, bad);
    assert_true(ninstr == 252);   /* every floating-point instruction: the final hunt covered them all */
    assert_int_equal(bad, 0);
    unload(&h);
}

static void a_flipped_sample_digit_is_caught(void **state)
{
    hunt_data h;
    load(&h, RECORD);
    json_t *o = h.objs[0];
    json_t *sample = json_object_get(o, "sample");
    char *hex = strdup(json_string_value(json_object_get(sample, "cancel")));
    hex[3] = hex[3] == '0' ? '1' : '0';
    json_object_set_new(sample, "cancel", json_string(hex));
    free(hex);
    size_t checked = 0;
    assert_int_equal(replay_object(o, h.seed, h.draw, &h.prof, &checked), 1);
    unload(&h);
}

static void a_tile_record_replays_with_its_stream(void **state)
{
    hunt_data h;
    load(&h, TILE_RECORD);
    assert_int_equal(h.draw, HUNT_DRAW_TILE);
    size_t bad = 0, checked = 0, wrong = 0, checked2 = 0;
    for (size_t i = 0; i < h.n; i++) {
        bad += replay_object(h.objs[i], h.seed, h.draw, &h.prof, &checked);
        wrong += replay_object(h.objs[i], h.seed, HUNT_DRAW_FAMILY, &h.prof, &checked2);
    }
    print_message("tile record: %zu answers of %zu instructions replayed, %zu mismatches; read as the family "
                  "stream's, %zu\n", checked, h.n, bad, wrong);
    assert_true(h.n >= 4 && checked >= 4 * 11 * 24);
    assert_int_equal(bad, 0);
    assert_true(wrong > checked / 2);   /* the other stream's inputs: most answers differ */
    unload(&h);
}

static void the_h200_gpu_path_hunt_replays(void **state)
{
    hunt_data h;
    load_with(&h, H200_RECORD, H200_PROFILE);
    assert_int_equal(h.draw, HUNT_DRAW_TILE);
    size_t bad = 0, checked = 0, ninstr = 0, on_gpu = 0;
    for (size_t i = 0; i < h.n; i++) {
        size_t before = checked;
        bad += replay_object(h.objs[i], h.seed, h.draw, &h.prof, &checked);
        ninstr += checked > before;
        const char *path = json_string_value(json_object_get(h.objs[i], "path"));
        on_gpu += path && !strcmp(path, "gpu");
    }
    print_message("H200 GPU-path hunt: %zu answers of %zu instructions (%zu drawn on the GPU) replayed, %zu "
                  "mismatches\n", checked, ninstr, on_gpu, bad);
    assert_true(ninstr == 252 && on_gpu == 252);   /* f64 too, since the GPU model's wide kernel */
    assert_int_equal(bad, 0);
    unload(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hunt_answers_match_the_profile),
        cmocka_unit_test(a_flipped_sample_digit_is_caught),
        cmocka_unit_test(a_tile_record_replays_with_its_stream),
        cmocka_unit_test(the_h200_gpu_path_hunt_replays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
