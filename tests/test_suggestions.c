/* Errors that help (issue 31): every option a message suggests exists in
 * that command's table; format names in any case, with the names people
 * use (fp8, fp16) answered; one no-GPU message everywhere, pointing to what
 * answers without a GPU. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "probes/probes.h"
#include "testutil.h"

#define INS "mma.m16n8k16.f32.f16.f16.f32"

#define run tc_run_clif   /* tests/testutil.h */

/* Every "--name" in text is an option of cmd (its table, or --help/--version). */
static void options_exist(const char *cmd, const char *text, const char *what)
{
    tc_run_result o = run("help --options %s", cmd);
    assert_int_equal(o.status, 0);
    char *said = strdup(text);   /* what the user typed is quoted ('--conut'): not a suggestion */
    for (char *q = said; (q = strchr(q, '\'')); ) {
        char *end = strchr(q + 1, '\'');
        if (!end)
            break;
        memset(q, ' ', (size_t)(end - q + 1));
        q = end + 1;
    }
    for (const char *p = said; (p = strstr(p, "--")); ) {
        char name[64];
        size_t n = 2;
        while (p[n] && (isalnum((unsigned char)p[n]) || p[n] == '-') && n < sizeof name - 1)
            n++;
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        p += n;
        if (n <= 2)
            continue;
        char line[80];
        snprintf(line, sizeof line, "%s\n", name);
        bool found = !strncmp(o.out, line, strlen(line));
        char with_nl[82];
        snprintf(with_nl, sizeof with_nl, "\n%s", line);
        found = found || strstr(o.out, with_nl);
        if (!found)
            fail_msg("%s: the message names %s, which tcscope %s does not have:\n%s", what, name, cmd, text);
    }
    free(said);
    tc_run_result_free(&o);
}

static void suggested_options_exist(void **state)
{
    (void)state;
    char dir[] = "/tmp/tcs-suggestXXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    static const char *const files[] = {"choose.html", "gemm.html", "bench.json", "audit.jsonl", "sweep.json",
                                        "hunt.jsonl", "step_A.npy", "verify_D.npy"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i]);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs("{}\n", f);
        fclose(f);
    }
    /* an existing result in the folder: kept, and the way out named */
    static const char *const kept[][2] = {
        {"choose", "choose --m 16 --n 16 --k 16 --outputs 8 --backend model:h100 --no-library --report %s"},
        {"gemm", "gemm --report %s --from reports/baselines/h100-gemm.packed.xz"},
        {"bench", "bench --out %s"},
        {"audit", "audit --backend exact --instr mma.m16n8k32.s32.s8.s8.s32 --count 10 --no-timing --out %s"},
        {"sweep", "sweep --backend exact --formats f16 --chain 1..2 --trials 2 --out %s"},
        {"hunt", "hunt --backend model:h100 --instr " INS " --count 10 --samples 0 --out %s"},
        {"probe", "probe export --m 16 --n 16 --k 16 --format f16 --out %s"},
    };
    for (size_t i = 0; i < sizeof kept / sizeof kept[0]; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, kept[i][1], dir);
        tc_run_result r = run("%s", cmd);
        if (r.status != 2 || !strstr(r.err, "--force"))
            fail_msg("'%s': status %d, stderr %s", cmd, r.status, r.err);
        options_exist(kept[i][0], r.err, cmd);
        tc_run_result_free(&r);
    }
    /* and that way works: hunt and probe export replace with --force (the export's earlier D's go too) */
    tc_run_result f = run("hunt --backend model:h100 --instr " INS " --count 10 --samples 0 --out %s --force", dir);
    assert_int_equal(f.status, 0);
    tc_run_result_free(&f);
    snprintf(path, sizeof path, "%s/hunt.jsonl", dir);
    char *text = tc_slurp(path);
    assert_non_null(strstr(text, "\"record\":\"hunt\""));
    free(text);
    f = run("probe export --m 16 --n 16 --k 16 --format f16 --out %s --force", dir);
    assert_int_equal(f.status, 0);
    tc_run_result_free(&f);
    struct stat st;
    snprintf(path, sizeof path, "%s/verify_D.npy", dir);
    assert_int_not_equal(stat(path, &st), 0);
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    assert_int_equal(stat(path, &st), 0);
    /* a mistyped option: the nearest one that exists */
    static const char *const typo[][3] = {
        {"audit", "audit --conut 5", "--count"},   {"choose", "choose --metrc p90", "--metric"},
        {"sweep", "sweep --scalng none", "--scaling"}, {"bench", "bench --devce 0", NULL},
        {"regress", "regress --timing-tl 5%", "--timing-tol"},
    };
    for (size_t i = 0; i < sizeof typo / sizeof typo[0]; i++) {
        tc_run_result r = run("%s", typo[i][1]);
        assert_int_equal(r.status, 2);
        if (typo[i][2] && !strstr(r.err, typo[i][2]))
            fail_msg("'%s' does not suggest %s: %s", typo[i][1], typo[i][2], r.err);
        options_exist(typo[i][0], r.err, typo[i][1]);
        tc_run_result_free(&r);
    }
    snprintf(path, sizeof path, "rm -rf %s", dir);
    assert_int_equal(system(path), 0);
}

static void format_names_in_any_case(void **state)
{
    (void)state;
    static const char *const same[][2] = {{"E4M3", "e4m3"}, {"BF16", "bf16"}, {"BFloat16", "bf16"}, {"E5M3", "e5m3"}};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        tc_run_result a = run("convert --to %s 448", same[i][0]), b = run("convert --to %s 448", same[i][1]);
        assert_int_equal(a.status, 0);
        assert_string_equal(a.out, b.out);
        tc_run_result_free(&a);
        tc_run_result_free(&b);
    }
    tc_run_result a;
    static const char *const asked[][2] = {
        {"convert --to fp8 1", "did you mean e4m3 or e5m2?"},
        {"convert --to FP8 1", "did you mean e4m3 or e5m2?"},
        {"convert --to fp6 1", "did you mean e3m2 or e2m3?"},
        {"convert --to bf61 1", "did you mean bf16?"},
        {"sweep --backend exact --formats F16,fp8", "did you mean e4m3 or e5m2?"},
    };
    for (size_t i = 0; i < sizeof asked / sizeof asked[0]; i++) {
        tc_run_result r = run("%s", asked[i][0]);
        if (r.status != 2 || !strstr(r.err, asked[i][1]))
            fail_msg("'%s': status %d, stderr %s", asked[i][0], r.status, r.err);
        tc_run_result_free(&r);
    }
    a = run("sweep --backend exact --formats BF16 --chain 1..2 --trials 2 --json");
    assert_int_equal(a.status, 0);
    assert_non_null(strstr(a.out, "\"format\":\"bf16\""));
    tc_run_result_free(&a);
}

/* Without a GPU, every command that asks for one says so in the same words
 * and names what answers instead. */
static void one_no_gpu_message(void **state)
{
    (void)state;
    char err[384];
    tc_backend *g = tc_backend_open("gpu", err, sizeof err);
    if (g) {
        tc_backend_close(g);
        skip();   /* a GPU here: nothing to refuse */
    }
    static const char *const cmds[][2] = {
        {"bench", "reports/baselines/h100-bench.json.gz"},
        {"regress", "--model"},
        {"gemm --path f16 --k 64", "--backend model:h100"},
        {"run --backend gpu --instr " INS " --a 1 --b 1 --c 0", "--backend model:h100"},
        {"audit --backend gpu --instr " INS, "--backend model:h100"},
        {"verify --backend gpu --profile h100 --instr " INS, "--backend model:h100"},
        {"hunt --backend gpu --instr " INS, "--backend model:h100"},
        {"list --backend gpu", "--backend model:h100"},
        {"sweep --backend gpu --formats f16", "--backend model:h100"},
        {"record corpus --backend gpu --instr " INS " --count 1", "--backend model:h100"},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        tc_run_result r = run("%s", cmds[i][0]);
        if (r.status != 2 || !strstr(r.err, ": no GPU (") || !strstr(r.err, "); without one, ") ||
            !strstr(r.err, cmds[i][1]) || strstr(r.err, "insufficient"))
            fail_msg("'%s': status %d, stderr %s", cmds[i][0], r.status, r.err);
        tc_run_result_free(&r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(suggested_options_exist),
        cmocka_unit_test(format_names_in_any_case),
        cmocka_unit_test(one_no_gpu_message),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
