/* Every GPU of a node in one run (cli/fleet.h, reports/fleet.h), without a
 * GPU: the cross-GPU comparison on corpus lines made here by two backends
 * (one with a bit flipped where this test chose), the spread, and the worker
 * and merge path of `--backend gpu:all` through the TCSCOPE_FAKE_GPUS test
 * hook (fake GPUs whose workers run model:h100; one told to flip a bit or to
 * fail). The bits expected are computed here, not taken from the code. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <math.h>
#include <jansson.h>

#include "probes/backend_corpus.h"
#include "probes/probes.h"
#include "reports/fleet.h"
#include "tests/corpus_lines.h"
#include "tests/testutil.h"

#define INSTR "mma.m16n8k16.f32.f16.f16.f32"

/* A backend that is model:h100 with one output element's lowest bit flipped. */
typedef struct {
    tc_backend *model;
    size_t flip;      /* element of the batch; (size_t)-1: none */
} flipper;

static int flip_fn(void *ctx, const tc_instr *ins, size_t ntiles, const uint64_t *A, const uint64_t *B,
                   const uint64_t *C, uint64_t *D, char *err, size_t errlen)
{
    flipper *f = ctx;
    int rc = tc_backend_mma(f->model, ins, ntiles, A, B, C, D, err, errlen);
    if (rc == 0 && f->flip < ntiles * (size_t)ins->m * ins->n)
        D[f->flip] ^= 1;
    return rc;
}

/* The corpus line `run --random` would print for this backend. */
static char *corpus_text(tc_backend *b, size_t elems, uint64_t seed)
{
    char *buf = NULL, err[384];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    if (tc_corpus_line(b, tc_instr_by_name(INSTR), elems, seed, f, err, sizeof err) != 0)
        fail_msg("corpus: %s", err);
    fclose(f);
    return buf;
}

static json_t *compare(char *const *texts, const int *gpus, size_t n)
{
    tc_fleet_cmp *c = tc_fleet_cmp_new();
    char err[600];
    for (size_t i = 0; i < n; i++)
        if (tc_fleet_cmp_add(c, gpus[i], texts[i], err, sizeof err) != 0)
            fail_msg("%s", err);
    json_t *r = tc_fleet_cmp_result(c);
    tc_fleet_cmp_free(c);
    assert_int_equal(json_array_size(r), 1);
    return r;
}

/* Line k (0: the header) of a record's text. */
static char *nth_line(char *text, int k)
{
    for (; k > 0 && text; k--)
        text = strchr(text, '\n') ? strchr(text, '\n') + 1 : NULL;
    assert_non_null(text);
    return text;
}

/* More lines than a parse batch (reports/fleet.c parses 64 at once on the
 * cores): the whole catalogue's corpus, the .rs twins resolved across
 * batches, compared with itself; an output bit flipped in a late line is
 * found in that instruction alone; a broken line in the second batch is
 * named, and nothing after it is taken. */
static void the_catalogue_in_batches(void **state)
{
    (void)state;
    tc_run_result run = tc_run_cli("run --backend model:h100 --instr all --random 64");
    assert_int_equal(run.status, 0);
    char *flipped = strdup(run.out), *broken = strdup(run.out), err[600];
    assert_non_null(flipped), assert_non_null(broken);
    /* line 200's last output digit, its lowest bit flipped */
    char *line = nth_line(flipped, 200), *d = strstr(line, "\"d\":\"");
    assert_true(d && d < strchr(line, '\n'));
    char *end = strchr(d + 5, '"'), name[160];
    int v = end[-1] <= '9' ? end[-1] - '0' : end[-1] - 'a' + 10;
    end[-1] = "0123456789abcdef"[v ^ 1];
    assert_int_equal(sscanf(strstr(line, "\"instr\":\"") + 9, "%159[^\"]", name), 1);
    char *t[2] = {run.out, flipped};
    int g[2] = {0, 1};
    tc_fleet_cmp *c = tc_fleet_cmp_new();
    for (int i = 0; i < 2; i++)
        if (tc_fleet_cmp_add(c, g[i], t[i], err, sizeof err) != 0)
            fail_msg("%s", err);
    json_t *r = tc_fleet_cmp_result(c), *o;
    tc_fleet_cmp_free(c);
    size_t k, differ = 0;
    assert_int_equal(json_array_size(r), 252);
    json_array_foreach(r, k, o) {
        bool same = json_is_true(json_object_get(o, "same"));
        assert_true(json_is_true(json_object_get(o, "inputs_same")));
        if (!same) {
            differ++;
            assert_string_equal(json_string_value(json_object_get(o, "instr")), name);
            assert_int_equal(json_array_size(json_object_get(o, "differences")), 1);
        }
    }
    assert_int_equal(differ, 1);
    json_decref(r);
    /* line 70: ntiles 0, not a corpus line */
    char *nt = strstr(nth_line(broken, 70), "\"ntiles\":1");
    assert_non_null(nt);
    nt[9] = '0';
    c = tc_fleet_cmp_new();
    assert_int_equal(tc_fleet_cmp_add(c, 0, broken, err, sizeof err), -1);
    assert_non_null(strstr(err, "not a corpus line"));
    assert_non_null(strstr(err, "ntiles 0 out of range"));
    tc_fleet_cmp_free(c);
    free(flipped), free(broken);
    tc_run_result_free(&run);
}

/* Identical bits are reported identical; a flipped bit is reported with its
 * element, tile, row and column and both bit patterns; other inputs are not
 * called the same. */
static void cross_gpu_comparison_finds_the_flipped_element(void **state)
{
    char err[300];
    tc_backend *model = tc_backend_open("model:h100", err, sizeof err);
    assert_non_null(model);
    const tc_instr *ins = tc_instr_by_name(INSTR);
    size_t mn = (size_t)ins->m * ins->n, target = mn + 2 * ins->n + 5; /* tile 1, row 2, col 5 */
    flipper fl = {model, target};
    tc_backend *bad = tc_backend_open_fn("flipped", flip_fn, &fl);
    char *t[3] = {corpus_text(model, 1000, 7), corpus_text(model, 1000, 7), corpus_text(bad, 1000, 7)};
    int g[3] = {0, 3, 5};

    json_t *r = compare(t, g, 2), *o = json_array_get(r, 0);
    assert_true(json_is_true(json_object_get(o, "same")));
    assert_int_equal(json_integer_value(json_object_get(o, "compared")), 2);
    assert_int_equal(json_array_size(json_object_get(o, "differences")), 0);
    json_decref(r);

    r = compare(t, g, 3), o = json_array_get(r, 0);
    assert_true(json_is_false(json_object_get(o, "same")));
    assert_true(json_is_true(json_object_get(o, "inputs_same")));
    json_t *d = json_object_get(o, "differences");
    assert_int_equal(json_array_size(d), 1);
    json_t *d0 = json_array_get(d, 0);
    assert_int_equal(json_integer_value(json_object_get(d0, "gpu")), 5);
    assert_int_equal(json_integer_value(json_object_get(d0, "reference_gpu")), 0);
    assert_int_equal(json_integer_value(json_object_get(d0, "element")), (long long)target);
    assert_int_equal(json_integer_value(json_object_get(d0, "tile")), 1);
    assert_int_equal(json_integer_value(json_object_get(d0, "row")), 2);
    assert_int_equal(json_integer_value(json_object_get(d0, "col")), 5);
    uint64_t ref = strtoull(json_string_value(json_object_get(d0, "reference")), NULL, 16);
    uint64_t got = strtoull(json_string_value(json_object_get(d0, "bits")), NULL, 16);
    assert_int_equal(ref ^ got, 1);
    json_t *gp = json_object_get(o, "gpus");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(gp, 1), "differing")), 0);
    assert_int_equal(json_integer_value(json_object_get(json_array_get(gp, 2), "differing")), 1);
    assert_string_not_equal(json_string_value(json_object_get(json_array_get(gp, 0), "hash")),
                            json_string_value(json_object_get(json_array_get(gp, 2), "hash")));
    json_decref(r);

    /* another seed: other inputs, never "same" */
    char *u[2] = {t[0], corpus_text(model, 1000, 8)};
    r = compare(u, g, 2), o = json_array_get(r, 0);
    assert_true(json_is_false(json_object_get(o, "inputs_same")));
    assert_true(json_is_false(json_object_get(o, "same")));
    json_decref(r);
    free(u[1]);
    for (int i = 0; i < 3; i++)
        free(t[i]);
    tc_backend_close(bad);
    tc_backend_close(model);
}

static void spread_is_min_median_max(void **state)
{
    double odd[] = {30.0, 10.0, 20.0}, even[] = {4.0, 1.0, NAN, 3.0, 2.0};
    json_t *s = tc_fleet_spread(odd, 3);
    assert_true(json_real_value(json_object_get(s, "min")) == 10.0);
    assert_true(json_real_value(json_object_get(s, "median")) == 20.0);
    assert_true(json_real_value(json_object_get(s, "max")) == 30.0);
    json_decref(s);
    s = tc_fleet_spread(even, 5); /* the NaN (not measured) is left out: 1, 2, 3, 4 */
    assert_int_equal(json_integer_value(json_object_get(s, "gpus")), 4);
    assert_true(json_real_value(json_object_get(s, "median")) == 2.5);
    json_decref(s);
    s = tc_fleet_spread(even + 2, 1);
    assert_true(json_is_null(s));
}

/* ---- the command line, with the test hook ---- */

static json_t *parse(const char *text)
{
    json_error_t e;
    json_t *j = json_loads(text, 0, &e);
    if (!j)
        fail_msg("not JSON (%s): %.400s", e.text, text);
    return j;
}

static const json_t *gpu(const json_t *rec, size_t i)
{
    return json_array_get(json_object_get(rec, "gpus"), i);
}

#define RUN_ARGS "run --backend gpu:all --instr " INSTR " --random 300 --seed 11"

/* Runs "ENV tcscope ARGS" (ENV is shell text): status, stdout, stderr. */
static tc_run_result run_env(const char *env, const char *args)
{
    char *line = malloc(strlen(env) + strlen(args) + 600);
    char out[] = "/tmp/tcs-fleetXXXXXX", err[] = "/tmp/tcs-fleetXXXXXX";
    close(mkstemp(out));
    close(mkstemp(err));
    sprintf(line, "%s %s %s </dev/null >%s 2>%s", env, tc_cli_path(), args, out, err);
    int st = system(line);
    free(line);
    tc_run_result r = {WIFEXITED(st) ? WEXITSTATUS(st) : 128, tc_slurp(out), tc_slurp(err)};
    unlink(out);
    unlink(err);
    return r;
}

/* Three fake GPUs, the same model: identical bits, reported identical, exit 0. */
static void fake_gpus_agree(void **state)
{
    tc_run_result r = run_env("TCSCOPE_FAKE_GPUS=3", RUN_ARGS);
    assert_int_equal(r.status, 0);
    json_t *rec = parse(r.out);
    assert_true(json_is_true(json_object_get(rec, "fake_gpus")));
    assert_int_equal(json_array_size(json_object_get(rec, "gpus")), 3);
    assert_int_equal(json_array_size(json_object_get(rec, "failed_gpus")), 0);
    json_t *c = json_array_get(json_object_get(rec, "cross_gpu"), 0);
    assert_string_equal(json_string_value(json_object_get(c, "instr")), INSTR);
    assert_int_equal(json_integer_value(json_object_get(c, "compared")), 3);
    assert_true(json_is_true(json_object_get(c, "same")));
    json_t *gp = json_object_get(c, "gpus");
    for (size_t i = 1; i < 3; i++)
        assert_string_equal(json_string_value(json_object_get(json_array_get(gp, 0), "hash")),
                            json_string_value(json_object_get(json_array_get(gp, i), "hash")));
    json_decref(rec);
    tc_run_result_free(&r);
}

/* Fake GPU 1 flips the lowest bit of every batch's first output: exit 1,
 * the element named, GPU 1 against the reference GPU 0, one bit apart. */
static void a_flipped_bit_is_reported_with_its_element(void **state)
{
    tc_run_result r = run_env("TCSCOPE_FAKE_GPUS=3 TCSCOPE_FAKE_GPU_FLIP=1", RUN_ARGS);
    assert_int_equal(r.status, 1);
    json_t *rec = parse(r.out), *c = json_array_get(json_object_get(rec, "cross_gpu"), 0);
    assert_true(json_is_false(json_object_get(c, "same")));
    json_t *d = json_object_get(c, "differences");
    assert_int_equal(json_array_size(d), 1); /* 300 elements: 3 tiles of 128, one batch */
    json_t *d0 = json_array_get(d, 0);
    assert_int_equal(json_integer_value(json_object_get(d0, "gpu")), 1);
    assert_int_equal(json_integer_value(json_object_get(d0, "element")), 0);
    uint64_t ref = strtoull(json_string_value(json_object_get(d0, "reference")), NULL, 16);
    uint64_t got = strtoull(json_string_value(json_object_get(d0, "bits")), NULL, 16);
    assert_int_equal(ref ^ got, 1);
    assert_non_null(strstr(r.err, "DIFFERS"));
    json_decref(rec);
    tc_run_result_free(&r);
}

/* Fake GPU 2 fails at its first batch: reported by its index, exit 2, and
 * GPUs 0 and 1 still ran and were compared. */
static void a_failing_gpu_is_reported_and_the_others_finish(void **state)
{
    tc_run_result r = run_env("TCSCOPE_FAKE_GPUS=3 TCSCOPE_FAKE_GPU_FAIL=2", RUN_ARGS);
    assert_int_equal(r.status, 2);
    json_t *rec = parse(r.out);
    json_t *bad = json_object_get(rec, "failed_gpus");
    assert_int_equal(json_array_size(bad), 1);
    assert_int_equal(json_integer_value(json_array_get(bad, 0)), 2);
    assert_true(json_is_true(json_object_get(gpu(rec, 0), "ok")));
    assert_true(json_is_true(json_object_get(gpu(rec, 1), "ok")));
    assert_true(json_is_false(json_object_get(gpu(rec, 2), "ok")));
    assert_int_equal(json_integer_value(json_object_get(gpu(rec, 2), "exit")), 2);
    json_t *c = json_array_get(json_object_get(rec, "cross_gpu"), 0);
    assert_int_equal(json_integer_value(json_object_get(c, "compared")), 2);
    assert_true(json_is_true(json_object_get(c, "same")));
    assert_non_null(strstr(r.err, "GPU 2 failed"));
    json_decref(rec);
    tc_run_result_free(&r);
}

/* The corpus lines ("tiles" objects) of a record's text, each checked to say
 * layout and then without it, as an array. */
static json_t *tiles_of(const char *text, const char *layout)
{
    json_t *all = json_array();
    for (const char *l = text; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        json_t *o = json_loadb(l, len, 0, NULL);
        const char *kind = json_string_value(json_object_get(o, "kind"));
        if (kind && !strcmp(kind, "tiles")) {
            assert_string_equal(json_string_value(json_object_get(o, "layout")), layout);
            json_object_del(o, "layout");
            json_array_append(all, o);
        }
        json_decref(o);
        l += len + (e != NULL);
    }
    return all;
}

/* regress --cross-gpu: the instructions dealt out (one each here), each
 * GPU's verdicts, and the bits of the same inputs of every instruction on
 * every GPU, merged into OUT/fleet.json; a GPU list picks GPUs 0 and 2 of
 * three. */
static void regress_cross_gpu_merges_the_gpus(void **state)
{
    char args[700], path[300];
    snprintf(args, sizeof args, "regress --backend gpu:0,2 --cross-gpu --cross-count 300 --instr " INSTR
             ",mma.m16n8k8.f32.tf32.tf32.f32 --count 200 --out %s/rg", tc_tmp_root());
    tc_run_result r = run_env("TCSCOPE_FAKE_GPUS=3", args);
    if (r.status != 0)
        fail_msg("exit %d:\n%s\n%s", r.status, r.out, r.err);
    snprintf(path, sizeof path, "%s/rg/fleet.json", tc_tmp_root());
    char *text = tc_slurp(path);
    json_t *rec = parse(text);
    assert_int_equal(json_array_size(json_object_get(rec, "gpus")), 2);
    assert_int_equal(json_integer_value(json_object_get(gpu(rec, 0), "gpu")), 0);
    assert_int_equal(json_integer_value(json_object_get(gpu(rec, 1), "gpu")), 2);
    const char *verified[2];
    for (size_t i = 0; i < 2; i++) {   /* a share each: one instruction */
        json_t *res = json_object_get(gpu(rec, i), "results");
        assert_int_equal(json_array_size(res), 1);
        assert_true(json_is_true(json_object_get(json_array_get(res, 0), "same")));
        verified[i] = json_string_value(json_object_get(json_array_get(res, 0), "instr"));
        assert_non_null(verified[i]);
    }
    assert_string_not_equal(verified[0], verified[1]);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(rec, "cross_gpu_inputs"), "elements")), 300);
    json_t *cross = json_object_get(rec, "cross_gpu");
    assert_int_equal(json_array_size(cross), 2);   /* every instruction on every GPU */
    for (size_t k = 0; k < 2; k++)
        assert_true(json_is_true(json_object_get(json_array_get(cross, k), "same")));
    assert_true(json_is_null(json_object_get(rec, "timing_spread"))); /* the model has no timing */
    /* each worker ran the cross-GPU inputs in its own process (--cross-run):
     * its OUT/gpuN/cross.txt holds, line for line, the inputs and outputs `run
     * --random` with the same seed prints, only the layout not proved again */
    tc_run_result one = run_env("", "run --backend model:h100 --instr " INSTR ",mma.m16n8k8.f32.tf32.tf32.f32 "
                                     "--random 300 --seed 0x4e6e55");
    assert_int_equal(one.status, 0);
    json_t *want = tiles_of(one.out, "pass");
    assert_int_equal(json_array_size(want), 2);
    for (int g = 0; g <= 2; g += 2) {
        snprintf(path, sizeof path, "%s/rg/gpu%d/cross.txt", tc_tmp_root(), g);
        char *bits = tc_slurp(path);
        assert_non_null(bits);
        json_t *got = tiles_of(bits, "not checked (output bits only)");
        assert_true(json_equal(got, want));
        json_decref(got);
        free(bits);
    }
    json_decref(want);
    tc_run_result_free(&one);
    json_decref(rec);
    free(text);
    tc_run_result_free(&r);
}

/* audit: the instructions shared out across two fake GPUs, each GPU's folder
 * kept and all merged into OUT/audit.jsonl. */
static void audit_shares_out_and_merges(void **state)
{
    char args[700], path[300];
    snprintf(args, sizeof args, "audit --backend gpu:all --instr " INSTR
             ",mma.m16n8k8.f32.tf32.tf32.f32 --count 200 --no-timing --jobs 1 --out %s/au", tc_tmp_root());
    tc_run_result r = run_env("TCSCOPE_FAKE_GPUS=2", args);
    if (r.status != 0)
        fail_msg("exit %d:\n%s\n%s", r.status, r.out, r.err);
    snprintf(path, sizeof path, "%s/au/fleet.json", tc_tmp_root());
    char *text = tc_slurp(path);
    json_t *rec = parse(text);
    /* catalogue order, dealt out: the first to GPU 0, the second to GPU 1 */
    const char *s0 = json_string_value(json_object_get(gpu(rec, 0), "instructions"));
    const char *s1 = json_string_value(json_object_get(gpu(rec, 1), "instructions"));
    assert_non_null(s0);
    assert_non_null(s1);
    assert_null(strchr(s0, ','));
    assert_null(strchr(s1, ','));
    assert_string_not_equal(s0, s1);
    snprintf(path, sizeof path, "%s/au/audit.jsonl", tc_tmp_root());
    char *merged = tc_slurp(path);
    assert_non_null(strstr(merged, "\"instr\":\"" INSTR "\""));
    assert_non_null(strstr(merged, "\"instr\":\"mma.m16n8k8.f32.tf32.tf32.f32\""));
    free(merged);
    json_decref(rec);
    free(text);
    tc_run_result_free(&r);
}

/* audit on several GPUs stopped before its merge (here: the merged record
 * and one GPU's record removed, as a kill leaves them): a run into that
 * folder names each GPU's finished work with --resume and --force instead
 * of starting over; --resume keeps the finished instructions and merges. */
static void an_unfinished_fleet_audit_is_named_with_resume(void **state)
{
    char args[700], cmd[800];
    snprintf(args, sizeof args, "audit --backend gpu:all --instr " INSTR ",mma.m16n8k8.f32.tf32.tf32.f32,"
             "mma.m16n8k16.f32.bf16.bf16.f32,mma.m16n8k16.f16.f16.f16.f16 --count 200 --no-timing --jobs 2 "
             "--out %s/ur", tc_tmp_root());
    tc_run_result r = run_env("TCSCOPE_FAKE_GPUS=2", args);
    if (r.status != 0)
        fail_msg("exit %d:\n%s\n%s", r.status, r.out, r.err);
    tc_run_result_free(&r);
    snprintf(cmd, sizeof cmd, "rm %s/ur/audit.jsonl %s/ur/gpu1/audit.jsonl", tc_tmp_root(), tc_tmp_root());
    assert_int_equal(system(cmd), 0);
    r = run_env("TCSCOPE_FAKE_GPUS=2", args);
    if (r.status != 2 || !strstr(r.err, "holds an unfinished run on several GPUs (") ||
        !strstr(r.err, "gpu0 finished") || !strstr(r.err, "gpu1 2 instructions finished") ||
        !strstr(r.err, "--resume keeps") || !strstr(r.err, "--force starts over"))
        fail_msg("exit %d:\n%s", r.status, r.err);
    tc_run_result_free(&r);
    snprintf(cmd, sizeof cmd, "%s --resume", args);
    r = run_env("TCSCOPE_FAKE_GPUS=2", cmd);
    if (r.status != 0)
        fail_msg("--resume: exit %d:\n%s\n%s", r.status, r.out, r.err);
    tc_run_result_free(&r);
    snprintf(cmd, sizeof cmd, "%s/ur/audit.jsonl", tc_tmp_root());
    char *merged = tc_slurp(cmd);
    assert_non_null(strstr(merged, "\"instr\":\"mma.m16n8k16.f16.f16.f16.f16\""));
    free(merged);
}

/* Bad GPU lists, and gpu:all where there is no GPU and no hook: exit 2 and a message. */
static void bad_gpu_sets_exit_2(void **state)
{
    tc_run_result r = run_env("TCSCOPE_FAKE_GPUS=3", "run --backend gpu:0,5 --instr " INSTR " --random 10");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "no GPU 5"));
    tc_run_result_free(&r);
    r = run_env("TCSCOPE_FAKE_GPUS=3", "run --backend gpu:1,1 --instr " INSTR " --random 10");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "named twice"));
    tc_run_result_free(&r);
    r = run_env("TCSCOPE_FAKE_GPUS=3", "bench --backend gpu:all");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "needs --out"));
    tc_run_result_free(&r);
    r = run_env("", "regress --model --cross-gpu");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--cross-gpu needs"));
    tc_run_result_free(&r);
    r = run_env("TCSCOPE_FAKE_GPUS=2", "regress --backend gpu:all --cross-count 100");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "give --cross-gpu too"));
    tc_run_result_free(&r);
    r = run_env("TCSCOPE_FAKE_GPUS=2", "regress --backend gpu:all --cross-gpu --cross-run all");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--cross-run is one GPU's share"));
    tc_run_result_free(&r);
    r = run_env("", "regress --model --cross-run nosuch.instr");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "--cross-run"));
    tc_run_result_free(&r);
    void *nvml = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL);
    if (nvml) { /* a machine with NVML may have GPUs: the no-GPU message is not for it */
        dlclose(nvml);
        return;
    }
    static const char *const cmds[] = {"run --backend gpu:all --instr " INSTR " --random 10", "audit --backend gpu:all",
                                       "regress --backend gpu:all", "bench --backend gpu:all --out x"};
    for (int i = 0; i < 4; i++) {
        r = run_env("env -u TCSCOPE_FAKE_GPUS", cmds[i]);
        assert_int_equal(r.status, 2);
        if (!strstr(r.err, "no GPU"))
            fail_msg("%s: %s", cmds[i], r.err);
        tc_run_result_free(&r);
    }
}

/* The node of two H200s (tools/device/fleet.sh, reports/baselines/h200x2-*):
 * regress's record has every GPU ok, shares that are disjoint and cover the
 * profile's 252 instructions, each the same as the baseline, and every
 * instruction's cross-GPU inputs compared on both GPUs with the same bits;
 * the audit's has both GPUs ok and its merged record named. */
static void h200_node_records_replay(void **state)
{
    FILE *p = popen("gzip -dc reports/baselines/h200x2-fleet-regress.json.gz", "r");
    assert_non_null(p);
    json_error_t je;
    json_t *rec = json_loadf(p, 0, &je);
    assert_int_equal(pclose(p), 0);
    if (!rec)
        fail_msg("h200x2-fleet-regress.json.gz: %s", je.text);
    assert_false(json_is_true(json_object_get(rec, "fake_gpus")));
    assert_int_equal(json_array_size(json_object_get(rec, "failed_gpus")), 0);
    json_t *seen = json_object();
    for (size_t g = 0; g < 2; g++) {
        assert_true(json_is_true(json_object_get(gpu(rec, g), "ok")));
        size_t k;
        json_t *r;
        json_array_foreach(json_object_get(gpu(rec, g), "results"), k, r) {
            const char *name = json_string_value(json_object_get(r, "instr"));
            assert_non_null(name);
            assert_null(json_object_get(seen, name));   /* on one GPU only */
            json_object_set_new(seen, name, json_true());
            assert_true(json_is_true(json_object_get(r, "same")));
            assert_int_equal(json_integer_value(json_object_get(r, "mismatches")), 0);
        }
    }
    assert_int_equal(json_array_size(json_object_get(rec, "gpus")), 2);
    assert_int_equal(json_object_size(seen), 252);
    json_decref(seen);
    size_t k, same = 0;
    json_t *c;
    json_array_foreach(json_object_get(rec, "cross_gpu"), k, c) {
        same += json_is_true(json_object_get(c, "same")) && json_is_true(json_object_get(c, "inputs_same")) &&
                json_integer_value(json_object_get(c, "compared")) == 2 &&
                json_integer_value(json_object_get(c, "elements")) >= 4096;   /* whole tiles */
    }
    assert_int_equal(json_array_size(json_object_get(rec, "cross_gpu")), 256);
    assert_int_equal(same, 256);
    json_decref(rec);
    rec = json_load_file("reports/baselines/h200x2-fleet-audit.json", 0, &je);
    if (!rec)
        fail_msg("h200x2-fleet-audit.json: %s", je.text);
    assert_int_equal(json_array_size(json_object_get(rec, "failed_gpus")), 0);
    for (size_t g = 0; g < 2; g++)
        assert_true(json_is_true(json_object_get(gpu(rec, g), "ok")));
    assert_true(json_is_string(json_object_get(rec, "merged_record")));
    json_decref(rec);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cross_gpu_comparison_finds_the_flipped_element),
        cmocka_unit_test(the_catalogue_in_batches),
        cmocka_unit_test(spread_is_min_median_max),
        cmocka_unit_test(fake_gpus_agree),
        cmocka_unit_test(a_flipped_bit_is_reported_with_its_element),
        cmocka_unit_test(a_failing_gpu_is_reported_and_the_others_finish),
        cmocka_unit_test(regress_cross_gpu_merges_the_gpus),
        cmocka_unit_test(h200_node_records_replay),
        cmocka_unit_test(audit_shares_out_and_merges),
        cmocka_unit_test(an_unfinished_fleet_audit_is_named_with_resume),
        cmocka_unit_test(bad_gpu_sets_exit_2),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
