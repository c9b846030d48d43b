/* tools/ptxas-other.sh, the stand-in that `make PTXAS=...` puts first on
 * nvcc's PATH, against a fake assembler that behaves as an older ptxas does:
 * it refuses a newer PTX .version with the message real ptxas prints, and
 * otherwise copies its input to -o. The wrapper must lower the .version to
 * the one named, touch nothing else, log the lowering, pass every other
 * argument through, and pass other failures through unchanged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sys/stat.h>

#include "tests/testutil.h"

/* An "older ptxas": refuses .version 9.0 with ptxas's wording, fails on the
 * text "bad-instruction", else copies the .ptx argument to the -o argument
 * and records its arguments. */
static const char fake[] =
    "#!/bin/sh\n"
    "echo \"$@\" > \"$FAKE_ARGS\"\n"
    "out=; src=; prev=\n"
    "for a in \"$@\"; do [ \"$prev\" = -o ] && out=$a; case $a in *.ptx) src=$a;; esac; prev=$a; done\n"
    "if grep -q '^\\.version 9\\.0$' \"$src\"; then\n"
    "  echo \"ptxas fatal   : Unsupported .version 9.0; current version is '8.8'\" >&2; exit 255; fi\n"
    "if grep -q bad-instruction \"$src\"; then\n"
    "  echo \"ptxas $src, line $(grep -n bad-instruction \"$src\" | head -1 | cut -d: -f1); error   : Unknown instruction\" >&2; exit 255; fi\n"
    "cp \"$src\" \"$out\"\n";

/* env: extra VAR=value words before the wrapper ("" for none). */
static tc_run_result wrap_env(const char *env, const char *ptx_text)
{
    char cmd[2048], src[200], out[] = "/tmp/tcs-outXXXXXX", err[] = "/tmp/tcs-errXXXXXX";
    snprintf(src, sizeof src, "%s/k.ptx", tc_tmp_root());
    assert_int_equal(tc_put_file(src, ptx_text), 0);
    close(mkstemp(out));
    close(mkstemp(err));
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm -f out.cubin log && %s TC_PTXAS=./fake FAKE_ARGS=args TC_PTXAS_LOG=log "
             "\"$OLDPWD/tools/ptxas-other.sh\" -arch=sm_90a -m64 k.ptx -o out.cubin >%s 2>%s",
             tc_tmp_root(), env, out, err);
    int st = system(cmd);
    tc_run_result r = {WIFEXITED(st) ? WEXITSTATUS(st) : 128, tc_slurp(out), tc_slurp(err)};
    unlink(out);
    unlink(err);
    return r;
}

static tc_run_result wrap(const char *ptx_text)
{
    return wrap_env("", ptx_text);
}

static char *in_root(const char *name)
{
    char p[200];
    snprintf(p, sizeof p, "%s/%s", tc_tmp_root(), name);
    return tc_slurp(p);
}

static int setup(void **state)
{
    if (tc_tmp_root_make(state) != 0)
        return -1;
    char p[200];
    snprintf(p, sizeof p, "%s/fake", tc_tmp_root());
    return tc_put_file(p, fake) == 0 && chmod(p, 0755) == 0 ? 0 : -1;
}

static void accepted_version_passes_untouched(void **state)
{
    tc_run_result r = wrap(".version 8.8\n.target sm_90a\nmma;\n");
    assert_int_equal(r.status, 0);
    char *cubin = in_root("out.cubin"), *log = in_root("log");
    assert_string_equal(cubin, ".version 8.8\n.target sm_90a\nmma;\n");
    assert_string_equal(log, ""); /* nothing lowered, no log written */
    free(cubin), free(log);
    tc_run_result_free(&r);
}

static void refused_version_is_lowered_and_logged(void **state)
{
    tc_run_result r = wrap(".version 9.0\n.target sm_90a\n// .version 9.0 in a comment stays\nmma;\n");
    if (r.status != 0)
        fail_msg("status %d, err %s", r.status, r.err);
    char *cubin = in_root("out.cubin"), *log = in_root("log"), *args = in_root("args");
    assert_string_equal(cubin, ".version 8.8\n.target sm_90a\n// .version 9.0 in a comment stays\nmma;\n");
    assert_non_null(strstr(log, "k.ptx: .version 9.0 lowered to 8.8"));
    /* the other arguments reach the assembler as given, the .ptx replaced */
    assert_non_null(strstr(args, "-arch=sm_90a -m64 "));
    assert_non_null(strstr(args, ".ptx -o out.cubin"));
    assert_null(strstr(args, " k.ptx"));
    free(cubin), free(log), free(args);
    tc_run_result_free(&r);
}

static void other_failures_pass_through(void **state)
{
    tc_run_result r = wrap(".version 9.0\nbad-instruction;\n");
    assert_int_not_equal(r.status, 0);
    assert_non_null(strstr(r.err, "Unknown instruction"));
    tc_run_result_free(&r);
    r = wrap(".version 8.8\nbad-instruction;\n");
    assert_int_not_equal(r.status, 0);
    assert_non_null(strstr(r.err, "Unknown instruction"));
    tc_run_result_free(&r);
}

/* TC_PTXAS_DROP=1 (issue #30): the kernel the assembler refuses is left out
 * (tools/toolkit-matrix.py drop), the other one kept, the .version lowered,
 * the dropped kernel logged with the refused instruction and the words. */
static void drop_mode_leaves_out_the_refused_kernel(void **state)
{
    if (system("command -v python3 >/dev/null 2>&1") != 0)
        skip();
    tc_run_result r = wrap_env("TC_PTXAS_DROP=1",
                               ".version 9.0\n.target sm_90a\n.visible .entry good(\n)\n{\n\tmma;\n}\n"
                               ".visible .entry bad(\n)\n{\n\t{\n\tbad-instruction;\n\t}\n}\n");
    if (r.status != 0)
        fail_msg("status %d, err %s", r.status, r.err);
    char *cubin = in_root("out.cubin"), *log = in_root("log");
    assert_non_null(strstr(cubin, ".version 8.8\n"));
    assert_non_null(strstr(cubin, ".entry good("));
    assert_null(strstr(cubin, ".entry bad("));
    assert_null(strstr(cubin, "bad-instruction"));
    assert_non_null(strstr(log, "k.ptx: bad dropped: bad-instruction: Unknown instruction"));
    free(cubin), free(log);
    tc_run_result_free(&r);
    /* without the variable the same file fails, as before */
    r = wrap(".version 8.8\n.visible .entry bad(\n)\n{\n\tbad-instruction;\n}\n");
    assert_int_not_equal(r.status, 0);
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(accepted_version_passes_untouched),
        cmocka_unit_test(refused_version_is_lowered_and_logged),
        cmocka_unit_test(other_failures_pass_through),
        cmocka_unit_test(drop_mode_leaves_out_the_refused_kernel),
    };
    return cmocka_run_group_tests(tests, setup, tc_tmp_root_remove);
}
