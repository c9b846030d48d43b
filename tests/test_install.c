/* An installed tcscope finds its data from its own place, never from the
 * working folder: the binary under test copied to PREFIX/bin beside the
 * data that make install-data puts in PREFIX/share/tcscope, run from
 * another folder; and the same binary without the data fails, from that
 * folder and from the source tree (so neither the cwd nor the tree the test
 * runs in can have answered). The full make install is run by hand (its
 * report is in the branch's notes). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/testutil.h"

#define RUN_ARGS "run --backend model:h100 --instr mma.m16n8k16.f32.f16.f16.f32 --a 1,2 --b 3,4 --c 0.5"

/* Runs shell text in folder dir; the status, stdout and stderr. */
static tc_run_result sh_in(const char *dir, const char *bin, const char *args)
{
    char out[] = "/tmp/tcs-outXXXXXX", err[] = "/tmp/tcs-errXXXXXX", cmd[2048];
    close(mkstemp(out));
    close(mkstemp(err));
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s </dev/null >%s 2>%s", dir, bin, args, out, err);
    int st = system(cmd);
    tc_run_result r = {WIFEXITED(st) ? WEXITSTATUS(st) : 128, tc_slurp(out), tc_slurp(err)};
    unlink(out);
    unlink(err);
    return r;
}

static void expect(const char *dir, const char *bin, const char *args, int status, const char *in_out)
{
    tc_run_result r = sh_in(dir, bin, args);
    if (r.status != status || (in_out && !strstr(r.out, in_out)))
        fail_msg("(cd %s; %s %s): status %d, out '%.300s', err '%.300s'", dir, bin, args, r.status, r.out, r.err);
    tc_run_result_free(&r);
}

static void installed_binary_reads_its_prefix(void **state)
{
    char prefix[128], bin[160], elsewhere[160], cwd[512], cmd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    snprintf(prefix, sizeof prefix, "%s/prefix", tc_tmp_root());
    snprintf(bin, sizeof bin, "%s/bin/tcscope", prefix);
    snprintf(elsewhere, sizeof elsewhere, "%s/elsewhere", tc_tmp_root());
    snprintf(cmd, sizeof cmd, "make -s --no-print-directory NVCC= install-data PREFIX='%s' >/dev/null && "
             "mkdir -p '%s/bin' '%s' && cp '%s' '%s'", prefix, prefix, elsewhere, tc_cli_path(), bin);
    assert_int_equal(system(cmd), 0);

    /* installed: the profile (model:h100) and the baselines (choose) are found */
    expect(elsewhere, bin, RUN_ARGS, 0, "mma.m16n8k16.f32.f16.f16.f32");
    expect(elsewhere, bin, "list --backend model:h100", 0, "wgmma.");
    expect(elsewhere, bin, "choose --max-rel-err 0.01", 0, NULL);
    expect(elsewhere, bin, "verify --backend exact --profile h100 --instr mma.m16n8k8.f32.f16.f16.f32 --count 64 "
                           "--hunt-count 0", 1, NULL);   /* exact is not an H100: found, and it differs */

    /* without the data: refused, from elsewhere and from the source tree */
    snprintf(cmd, sizeof cmd, "rm -rf '%s/share'", prefix);
    assert_int_equal(system(cmd), 0);
    expect(elsewhere, bin, RUN_ARGS, 2, NULL);
    expect(cwd, bin, RUN_ARGS, 2, NULL);
    expect(cwd, bin, "choose --max-rel-err 0.01", 2, NULL);
    tc_run_result r = sh_in(cwd, bin, "choose");
    assert_non_null(strstr(r.err, "reports/baselines/h100-sweep.json is not beside the binary"));
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(installed_binary_reads_its_prefix),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
