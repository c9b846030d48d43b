/* tools/tcscope_records.py, the stdlib-only Python reader: on two committed
 * records its one-line summary gives the object count tc_record_load_any
 * gives; its docstring example runs (doctest); and it refuses, exit 2, a
 * record whose trailer count is wrong and one without a trailer. Skipped,
 * with a message, where there is no python3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reports/reports.h"

#define READER "python3 tools/tcscope_records.py"

static bool have_python(void)
{
    if (system("command -v python3 >/dev/null 2>&1") == 0)
        return true;
    print_message("python3 not found: tools/tcscope_records.py not tested here\n");
    return false;
}

/* Runs cmd, its stdout into out; the exit status. */
static int run(const char *cmd, char *out, size_t len)
{
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, len - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The C loader's object count (a .gz decompressed into a temporary file). */
static size_t c_count(const char *path)
{
    char tmp[] = "/tmp/tcs-recpy-XXXXXX", cmd[600], err[600];
    const char *plain = path;
    if (strstr(path, ".gz")) {
        int fd = mkstemp(tmp);
        assert_true(fd >= 0);
        close(fd);
        snprintf(cmd, sizeof cmd, "gzip -dc %s > %s", path, tmp);
        assert_int_equal(system(cmd), 0);
        plain = tmp;
    }
    tc_record rec;
    if (tc_record_load_any(plain, &rec, err, sizeof err) != 0)
        fail_msg("%s", err);
    size_t n = json_array_size(rec.objects);
    tc_record_free(&rec);
    if (plain == tmp)
        unlink(tmp);
    return n;
}

static void counts_agree_with_the_c_loader(void **state)
{
    (void)state;
    if (!have_python())
        skip();
    const char *paths[] = {"reports/baselines/h100-hunt-final.packed.xz", "reports/baselines/h100-sweep.json"};
    for (size_t i = 0; i < 2; i++) {
        char cmd[400], out[4096], want[64];
        snprintf(cmd, sizeof cmd, READER " %s", paths[i]);
        assert_int_equal(run(cmd, out, sizeof out), 0);
        size_t n = c_count(paths[i]);
        assert_true(n > 0);
        snprintf(want, sizeof want, ", %zu objects (", n);
        if (!strstr(out, want))
            fail_msg("%s: the C loader reads %zu objects, the Python reader says: %s", paths[i], n, out);
    }
}

static void docstring_example_runs(void **state)
{
    (void)state;
    if (!have_python())
        skip();
    char out[4096];
    int rc = run("PYTHONPATH=tools python3 -m doctest tools/tcscope_records.py 2>&1", out, sizeof out);
    if (rc != 0)
        fail_msg("doctest failed:\n%s", out);
}

static void refuses_a_wrong_count_and_a_missing_trailer(void **state)
{
    (void)state;
    if (!have_python())
        skip();
    const char *header = "{\"schema\":\"tcscope-record/1\",\"kind\":\"hunt\"}\n"
                         "{\"kind\":\"hunt\",\"instr\":\"x\"}\n";
    const char *tails[] = {"{\"kind\":\"end\",\"objects\":2}\n", "", "{\"kind\":\"partial\",\"objects\":1}\n"};
    for (size_t i = 0; i < 3; i++) {
        char path[] = "/tmp/tcs-recpy-XXXXXX", cmd[200], out[4096];
        int fd = mkstemp(path);
        assert_true(fd >= 0);
        FILE *f = fdopen(fd, "w");
        fputs(header, f);
        fputs(tails[i], f);
        fclose(f);
        snprintf(cmd, sizeof cmd, READER " %s 2>/dev/null", path);
        assert_int_equal(run(cmd, out, sizeof out), 2);
        /* the same file with the right trailer is read */
        f = fopen(path, "w");
        fputs(header, f);
        fputs("{\"kind\":\"end\",\"objects\":1}\n", f);
        fclose(f);
        assert_int_equal(run(cmd, out, sizeof out), 0);
        unlink(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counts_agree_with_the_c_loader),
        cmocka_unit_test(docstring_example_runs),
        cmocka_unit_test(refuses_a_wrong_count_and_a_missing_trailer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
