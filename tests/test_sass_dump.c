/* The disassembly the timing checks read (probes/sass.h tc_sass_dump): a
 * given file as it is, a missing one refused; the build's file beside the
 * program used only when its header names this very binary's build-id,
 * arch and prefix (anything else ignored, cuobjdump run instead); the
 * build's write, through a stand-in cuobjdump (a shell script answering
 * as cuobjdump does), read back; and, in a CUDA build where a cuobjdump is
 * found (TCSCOPE_CUOBJDUMP, /usr/local/cuda/bin, PATH; CI has none:
 * skipped), this very program's timing cubins disassembled one cuobjdump
 * each: every timing kernel of every catalogue instruction is in the text,
 * and nothing but timing kernels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "probes/build_id.h"
#include "probes/gpu.h"
#include "probes/probes.h"
#include "probes/sass.h"
#include "probes/timing.h"
#include "tests/testutil.h"

static void a_file_as_it_is(void **state)
{
    char path[200], err[300];
    snprintf(path, sizeof path, "%s/k.sass", tc_tmp_root());
    const char *text = "\t\tFunction : tct_x_i1\n        /*0000*/                   HMMA.16816.F32 R0, R2, R4, R0 ;\n";
    assert_int_equal(tc_put_file(path, text), 0);
    char from[300];
    char *got = tc_sass_dump(path, "sm_90a", "tct_", from, sizeof from, err, sizeof err);
    assert_non_null(got);
    assert_string_equal(got, text);
    assert_string_equal(from, path);
    free(got);
    snprintf(path, sizeof path, "%s/none.sass", tc_tmp_root());
    assert_null(tc_sass_dump(path, "sm_90a", "tct_", NULL, 0, err, sizeof err));
    assert_non_null(strstr(err, "cannot read the SASS file"));
}

/* The text after a build file's header in these tests. */
static const char body[] = "\t\tFunction : tct_x_i1\n        /*0000*/                   HMMA.16816.F32 R0, R2, R4, R0 ;\n";

/* This test program's path (as tc_sass_dump finds its own). */
static void my_path(char *path, size_t len)
{
    ssize_t n = readlink("/proc/self/exe", path, len - 1);
    assert_true(n > 0 && (size_t)n < len - 1);
    path[n] = '\0';
}

static void self_id(char id[TC_BUILD_ID_HEX])
{
    if (tc_build_id_self(id) != 0)
        fail_msg("this test program has no GNU build-id (linked without --build-id?)");
}

/* A build file at path: header (as tc_sass_build_header writes it, for
 * build-id id, arch, prefix) and body; raw instead when not NULL. */
static void put_build_file(const char *path, const char *id, const char *arch, const char *prefix, const char *raw)
{
    char header[512], text[1024];
    assert_int_equal(tc_sass_build_header(header, sizeof header, id, arch, prefix), 0);
    snprintf(text, sizeof text, "%s%s", header, body);
    assert_int_equal(tc_put_file(path, raw ? raw : text), 0);
}

static void this_programs_build_id(void **state)
{
    char id[TC_BUILD_ID_HEX], again[TC_BUILD_ID_HEX], file_id[TC_BUILD_ID_HEX];
    self_id(id);
    size_t n = strlen(id);
    assert_true(n >= 16 && n % 2 == 0);
    assert_int_equal(strspn(id, "0123456789abcdef"), n);
    self_id(again);
    assert_string_equal(id, again);
    /* the file's notes, read from disk, are the loaded ones */
    assert_int_equal(tc_build_id_of_file("/proc/self/exe", file_id), 0);
    assert_string_equal(file_id, id);
    /* and what binutils reads there, where it is installed (in a shell of
     * its own, /proc/self is the shell: the path is named) */
    char self[4096], cmd[4200];
    my_path(self, sizeof self);
    assert_null(strchr(self, '\''));
    snprintf(cmd, sizeof cmd, "readelf -n '%s' 2>/dev/null | sed -n 's/.*Build ID: *//p'", self);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[300] = "";
    if (fgets(line, sizeof line, p))
        line[strcspn(line, "\n")] = '\0';
    assert_int_equal(pclose(p), 0);
    if (line[0])
        assert_string_equal(line, id);
    /* a file that is not ELF, and none at all */
    char path[200];
    snprintf(path, sizeof path, "%s/not-elf", tc_tmp_root());
    assert_int_equal(tc_put_file(path, "\177ELF but not really, and far too short\n"), 0);
    assert_int_equal(tc_build_id_of_file(path, file_id), -1);
    snprintf(path, sizeof path, "%s/none", tc_tmp_root());
    assert_int_equal(tc_build_id_of_file(path, file_id), -1);
}

static void a_build_file_of_this_binary_is_used(void **state)
{
    char id[TC_BUILD_ID_HEX], path[200], header[512];
    self_id(id);
    snprintf(path, sizeof path, "%s/b.sass", tc_tmp_root());
    put_build_file(path, id, "sm_90a", "tct_", NULL);
    char *got = tc_sass_from_build_file(path, "sm_90a", "tct_");
    assert_non_null(got);
    assert_string_equal(got, body);
    free(got);
    assert_int_equal(tc_sass_build_header(header, sizeof header, id, "sm_90a", "tct_"), 0);
    assert_true(!strncmp(header, "# tcscope-sass build-id ", 24) && strstr(header, " arch sm_90a prefix tct_\n"));
}

static void another_builds_file_is_ignored(void **state)
{
    char id[TC_BUILD_ID_HEX], other[TC_BUILD_ID_HEX], cut[TC_BUILD_ID_HEX], path[200], raw[1024];
    self_id(id);
    snprintf(other, sizeof other, "%s", id);
    other[strlen(other) - 1] = other[strlen(other) - 1] == '0' ? '1' : '0';
    snprintf(cut, sizeof cut, "%.*s", (int)strlen(id) - 2, id);
    snprintf(path, sizeof path, "%s/b.sass", tc_tmp_root());
    struct {
        const char *id, *arch, *prefix;
    } wrong[] = {
        {other, "sm_90a", "tct_"}, {cut, "sm_90a", "tct_"}, {"", "sm_90a", "tct_"},
        {id, "sm_90", "tct_"}, {id, "sm_100a", "tct_"}, {id, "sm_90a", "tcx_"}, {id, "sm_90a", "tct"},
    };
    for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
        put_build_file(path, wrong[i].id, wrong[i].arch, wrong[i].prefix, NULL);
        char *got = tc_sass_from_build_file(path, "sm_90a", "tct_");
        if (got)
            fail_msg("used a file of build-id '%s', arch %s, prefix %s", wrong[i].id, wrong[i].arch, wrong[i].prefix);
    }
    /* malformed: no header, the header alone or cut, another spelling of
     * it; each format takes the id, then the text (%.0s: left out). The
     * first is the header as written: used, so the others differ from it
     * in their shape alone. */
    const char *shapes[] = {"# tcscope-sass build-id %s arch sm_90a prefix tct_\n%s",
                            "%.0s%s",
                            "# tcscope-sass build-id %s arch sm_90a prefix tct_\n%.0s",
                            "# tcscope-sass build-id %s arch sm_90a prefix tct_%.0s",
                            "# tcscope-sass build-id %s%.0s",
                            "# tcscope-sass build-id %s arch sm_90a prefix tct_ \n%s",
                            "#tcscope-sass build-id %s arch sm_90a prefix tct_\n%s",
                            "# tcscope-sass build-id %s arch sm_90a prefix tct_\r\n%s",
                            "\n# tcscope-sass build-id %s arch sm_90a prefix tct_\n%s",
                            "%.0s%.0s"};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        snprintf(raw, sizeof raw, shapes[i], id, body);
        put_build_file(path, id, "sm_90a", "tct_", raw);
        char *got = tc_sass_from_build_file(path, "sm_90a", "tct_");
        if (i == 0 && (!got || strcmp(got, body)))
            fail_msg("the header as written was not used: %s", raw);
        if (i > 0 && got)
            fail_msg("used a malformed file: %s", raw);
        free(got);
    }
    /* the uppercase spelling of the very id is another header too */
    for (char *c = id; *c; c++)
        *c = *c >= 'a' && *c <= 'f' ? (char)(*c - 'a' + 'A') : *c;
    put_build_file(path, id, "sm_90a", "tct_", NULL);
    assert_null(tc_sass_from_build_file(path, "sm_90a", "tct_"));
    snprintf(path, sizeof path, "%s/none.sass", tc_tmp_root());
    assert_null(tc_sass_from_build_file(path, "sm_90a", "tct_"));
}

/* A program linked without a build-id (compiled here from probes/'s two
 * files) finds none, neither loaded nor in its file, and so never uses a
 * build file, even one whose header names an empty id: a library's id
 * (libc's) is never taken for the program's. */
static void no_build_id_no_file(void **state)
{
    char dir[200], file[220], cmd[1200], id[TC_BUILD_ID_HEX];
    snprintf(dir, sizeof dir, "%s/noid", tc_tmp_root());
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(file, sizeof file, "%s/main.c", dir);
    assert_int_equal(tc_put_file(file, "#include <stdio.h>\n#include \"probes/build_id.h\"\n#include \"probes/sass.h\"\n"
                                      "int main(int argc, char **argv)\n{\n    char id[TC_BUILD_ID_HEX];\n"
                                      "    int rc = tc_build_id_self(id);\n"
                                      "    char *text = tc_sass_from_build_file(argv[1], \"sm_90a\", \"tct_\");\n"
                                      "    printf(\"%d %s\\n\", rc, text ? \"used\" : \"ignored\");\n    return 0;\n}\n"),
                     0);
    snprintf(file, sizeof file, "%s/p.sass", dir);
    put_build_file(file, "", "sm_90a", "tct_", NULL);
    snprintf(cmd, sizeof cmd,
             "cc -std=c11 -D_GNU_SOURCE -I. -Wl,--build-id=none -o %1$s/p %1$s/main.c probes/build_id.c "
             "probes/sass_dump.c && %1$s/p %1$s/p.sass > %1$s/out",
             dir);
    if (system(cmd) != 0)
        fail_msg("could not build or run %s/p", dir);
    snprintf(file, sizeof file, "%s/out", dir);
    char *out = tc_slurp(file);
    assert_string_equal(out, "-1 ignored\n");
    free(out);
    snprintf(file, sizeof file, "%s/p", dir);
    assert_int_equal(tc_build_id_of_file(file, id), -1);
}

/* A stand-in for cuobjdump, answering as tc_sass_disassemble runs it:
 * -xelf ARCH EXE leaves two sm_90a cubins in the folder (one holding a
 * timing kernel's name, one an executor's), -sass CUBIN prints a function
 * named by the cubin's text; the whole-program forms fail, so that only the
 * per-cubin way can give a text. Its path in tool. */
static void stand_in_cuobjdump(char *tool, size_t len)
{
    snprintf(tool, len, "%s/cuobjdump", tc_tmp_root());
    assert_int_equal(tc_put_file(tool, "#!/bin/sh\n"
                                       "case \"$1 $#\" in\n"
                                       "'-xelf 3') [ \"$2\" = sm_90a ] && [ -s \"$3\" ] || exit 1\n"
                                       "  printf 'tct_k_i1' > one.sm_90a.cubin && printf 'tcx_e' > two.sm_90a.cubin ;;\n"
                                       "'-sass 2') case \"$2\" in *.cubin) ;; *) exit 1 ;; esac\n"
                                       "  printf '\\t\\tFunction : %s\\n' \"$(cat \"$2\")\" ;;\n"
                                       "*) exit 1 ;;\n"
                                       "esac\n"),
                     0);
    assert_int_equal(chmod(tool, 0755), 0);
}

static const char stand_in_text[] = "\t\tFunction : tct_k_i1\n";

/* TCSCOPE_CUOBJDUMP as the test sets it; restored by restore. The value
 * before the test's first use_tool is the one kept (NULL: it was unset), not
 * one a second use_tool finds there. */
static bool saved;
static char *saved_tool;
static void use_tool(const char *tool)
{
    const char *was = getenv("TCSCOPE_CUOBJDUMP");
    if (!saved) {
        saved = true;
        if (was)
            assert_non_null(saved_tool = strdup(was));
    }
    assert_int_equal(setenv("TCSCOPE_CUOBJDUMP", tool, 1), 0);
}

static void beside_me(char *path, size_t len)
{
    char self[4096];
    my_path(self, sizeof self);
    snprintf(path, len, "%s.sass", self);
}

/* Teardown: no build file left beside this program (a later test, or a
 * later run, would read it), TCSCOPE_CUOBJDUMP as it was. */
static int restore(void **state)
{
    char path[4200];
    beside_me(path, sizeof path);
    unlink(path);
    int rc = saved_tool ? setenv("TCSCOPE_CUOBJDUMP", saved_tool, 1) : unsetenv("TCSCOPE_CUOBJDUMP");
    free(saved_tool);
    saved_tool = NULL;
    saved = false;
    return rc;
}

static void the_dump_takes_the_file_beside_this_program_when_its_own(void **state)
{
    char id[TC_BUILD_ID_HEX], other[TC_BUILD_ID_HEX], path[4200], from[4200], err[600], tool[300];
    self_id(id);
    beside_me(path, sizeof path);
    /* the file is taken: cuobjdump, failing, is never run */
    use_tool("/bin/false");
    put_build_file(path, id, "sm_90a", "tct_", NULL);
    char *got = tc_sass_dump(NULL, "sm_90a", "tct_", from, sizeof from, err, sizeof err);
    if (!got)
        fail_msg("the build's file was not used: %s", err);
    assert_string_equal(got, body);
    assert_string_equal(from, path);
    free(got);
    /* for another prefix it is not: cuobjdump runs, and fails */
    assert_null(tc_sass_dump(NULL, "sm_90a", "tcx_", from, sizeof from, err, sizeof err));
    assert_non_null(strstr(err, "no SASS"));
    /* another build's file: cuobjdump gives the text */
    snprintf(other, sizeof other, "%s", id);
    other[0] = other[0] == '0' ? '1' : '0';
    put_build_file(path, other, "sm_90a", "tct_", NULL);
    stand_in_cuobjdump(tool, sizeof tool);
    use_tool(tool);
    got = tc_sass_dump(NULL, "sm_90a", "tct_", from, sizeof from, err, sizeof err);
    if (!got)
        fail_msg("%s", err);
    assert_string_equal(got, stand_in_text);
    assert_string_equal(from, "cuobjdump");
    free(got);
}

static void a_build_writes_the_file_its_binary_reads(void **state)
{
    char self[4096], out[200], tmp[220], tool[300], err[600], id[TC_BUILD_ID_HEX], header[512];
    my_path(self, sizeof self);
    snprintf(out, sizeof out, "%s/w.sass", tc_tmp_root());
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    stand_in_cuobjdump(tool, sizeof tool);
    use_tool(tool);
    if (tc_sass_write_build(self, out, "sm_90a", "tct_", err, sizeof err) != 0)
        fail_msg("%s", err);
    /* the header names this binary; the text is the timing cubin's alone,
     * as tc_sass_format writes what the parser reads of it */
    self_id(id);
    assert_int_equal(tc_sass_build_header(header, sizeof header, id, "sm_90a", "tct_"), 0);
    tc_sass *s = tc_sass_parse(stand_in_text, err, sizeof err);
    assert_non_null(s);
    char *want = tc_sass_format(s);
    tc_sass_free(s);
    assert_string_equal(want, "Function : tct_k_i1\n");
    char *written = tc_slurp(out);
    assert_true(!strncmp(written, header, strlen(header)));
    assert_string_equal(written + strlen(header), want);
    free(written);
    char *got = tc_sass_from_build_file(out, "sm_90a", "tct_");
    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
    free(want);
    assert_int_equal(access(tmp, F_OK), -1);
    /* a failed write leaves no file, not even the earlier one */
    use_tool("/bin/false");
    assert_int_equal(tc_sass_write_build(self, out, "sm_90a", "tct_", err, sizeof err), -1);
    assert_int_equal(access(out, F_OK), -1);
    assert_int_equal(access(tmp, F_OK), -1);
    /* nor does a binary without a build-id (here a script) */
    use_tool(tool);
    assert_int_equal(tc_put_file(out, "stale"), 0);
    assert_int_equal(tc_sass_write_build(tool, out, "sm_90a", "tct_", err, sizeof err), -1);
    assert_non_null(strstr(err, "build-id"));
    assert_int_equal(access(out, F_OK), -1);
}

/* The tests before set TCSCOPE_CUOBJDUMP to stand-ins; their teardowns must
 * have put back what this run began with. */
static const char *env_at_start;
static bool env_was_set;
static void the_environment_is_as_it_was(void **state)
{
    const char *now = getenv("TCSCOPE_CUOBJDUMP");
    assert_int_equal(now != NULL, env_was_set);
    if (now)
        assert_string_equal(now, env_at_start);
}

static void this_programs_timing_kernels(void **state)
{
#if TC_HAVE_CUDA
    const char *tool = getenv("TCSCOPE_CUOBJDUMP");
    if (!tool && access("/usr/local/cuda/bin/cuobjdump", X_OK) != 0 && system("command -v cuobjdump >/dev/null 2>&1"))
        skip();
    /* the executors' kernels are in this program too (sm_90a cubins without
     * a timing kernel): the whole disassembly would hold them */
    assert_non_null(tc_gpu_kernel_find("mma.m16n8k16.f32.f16.f16.f32"));
    char err[600];
    char *text = tc_sass_dump(NULL, "sm_90a", "tct_", NULL, 0, err, sizeof err);
    if (!text)
        fail_msg("%s", err);
    tc_sass *s = tc_sass_parse(text, err, sizeof err);
    free(text);
    if (!s)
        fail_msg("%s", err);
    size_t n, kernels = 0;
    const tc_instr *cat = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        const tct_kernel_set *ks = tct_find(cat[i].name);
        if (!ks)
            continue;
        for (int ilp = ks->group == 128 ? 0 : 1; ilp <= 8; ilp++) {
            char fn[200];
            snprintf(fn, sizeof fn, ilp ? "%s_i%d" : "%s_lat", ks->symbol, ilp);
            if (tc_sass_instruction_count(s, fn) <= 0)
                fail_msg("%s is not in the disassembly", fn);
            kernels++;
        }
    }
    assert_true(kernels > 2000);
    for (size_t f = 0; f < tc_sass_function_count(s); f++)
        if (strncmp(tc_sass_function_name(s, f), "tct_", 4))
            fail_msg("%s: not a timing kernel, yet disassembled", tc_sass_function_name(s, f));
    print_message("%zu timing kernels, %zu functions disassembled\n", kernels, tc_sass_function_count(s));
    tc_sass_free(s);
#else
    skip();   /* no timing kernels in a build without CUDA */
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_file_as_it_is),
        cmocka_unit_test(this_programs_build_id),
        cmocka_unit_test(a_build_file_of_this_binary_is_used),
        cmocka_unit_test(another_builds_file_is_ignored),
        cmocka_unit_test(no_build_id_no_file),
        cmocka_unit_test_teardown(the_dump_takes_the_file_beside_this_program_when_its_own, restore),
        cmocka_unit_test_teardown(a_build_writes_the_file_its_binary_reads, restore),
        cmocka_unit_test(the_environment_is_as_it_was),
        cmocka_unit_test(this_programs_timing_kernels),
    };
    const char *env = getenv("TCSCOPE_CUOBJDUMP");
    env_was_set = env != NULL;
    env_at_start = env ? strdup(env) : NULL;
    if (env && !env_at_start)
        return 1;
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
