/* The toolkit matrix (issue #30): tools/toolkit-matrix.py check on the
 * committed record reports/baselines/toolkit-matrix.jsonl.xz (every catalogue
 * instruction has kernels, every CUDA release 12.0 ... 13.5 a row, the 13.0
 * reference assembles every kernel and each holds the SASS opcode
 * probes/isa/sm90a.def names) and doc/toolkits.md's table equal to what the
 * record generates. The checker must fail on a stale table and refuse a file
 * that is not a record (exit 2). Where nvcc, ptxas V13.0.88 and nvdisasm are
 * here (not on CI: no nvdisasm), the record is replayed: this machine's ptxas
 * gives the record's 13.0 tensor-core sequences for the mma.sp kernels.
 * Skipped, with a message, where there is no python3. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>

#include "tests/testutil.h"

#define TOOL "python3 tools/toolkit-matrix.py"

static bool have(const char *cmd)
{
    char c[300];
    snprintf(c, sizeof c, "%s >/dev/null 2>&1", cmd);
    return system(c) == 0;
}

/* Runs a shell command; its exit status, stdout in *out (caller frees). */
static int run(const char *cmd, char **out)
{
    char path[200], full[2048];
    snprintf(path, sizeof path, "%s/out.txt", tc_tmp_root());
    snprintf(full, sizeof full, "%s >%s 2>&1", cmd, path);
    int st = system(full);
    *out = tc_slurp(path);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void record_and_doc_table_are_current(void **state)
{
    (void)state;
    if (!have("command -v python3")) {
        print_message("python3 not found: the toolkit matrix not checked here\n");
        skip();
    }
    char *out;
    int st = run(TOOL " check", &out);
    if (st != 0)
        fail_msg("toolkit-matrix check: exit %d\n%s", st, out);
    assert_non_null(strstr(out, "the doc table is current"));
    free(out);
}

static void a_stale_table_and_a_bad_record_are_refused(void **state)
{
    (void)state;
    if (!have("command -v python3"))
        skip();
    char doc[200], cmd[600], *out;
    /* the doc with one cell changed: the table no longer matches the record */
    snprintf(doc, sizeof doc, "%s/toolkits.md", tc_tmp_root());
    snprintf(cmd, sizeof cmd, "sed '0,/| same |/s//| differs |/' doc/toolkits.md > %s && ! cmp -s doc/toolkits.md %s",
             doc, doc);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, TOOL " check --doc %s", doc);
    assert_int_equal(run(cmd, &out), 1);
    assert_non_null(strstr(out, "the table differs"));
    free(out);
    /* not a record: exit 2 with a message */
    snprintf(cmd, sizeof cmd, TOOL " check --record doc/toolkits.md");
    assert_int_equal(run(cmd, &out), 2);
    assert_non_null(strstr(out, "cannot read"));
    free(out);
}

/* The replay: needs this machine's nvcc and ptxas 13.0.88 and an nvdisasm. */
static void this_ptxas_gives_the_recorded_sequences(void **state)
{
    (void)state;
    if (!have("command -v python3") || !have("command -v nvcc") ||
        !have("ptxas --version | grep -q V13.0.88") ||
        !(have("command -v nvdisasm") || have("test -x \"$NVDISASM\"") ||
          have("test -x \"${CUDA_HOME:-/usr/local/cuda}/bin/nvdisasm\""))) {
        print_message("no nvcc, ptxas 13.0.88 or nvdisasm here: the record not replayed (CI has no nvdisasm)\n");
        skip();
    }
    char *out;
    int st = run(TOOL " regress --ptxas \"$(command -v ptxas)\" --files mma_sp_gen", &out);
    if (st != 0)
        fail_msg("regress with this ptxas: exit %d\n%s", st, out);
    assert_non_null(strstr(out, "mma.sp     same"));
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(record_and_doc_table_are_current),
        cmocka_unit_test(a_stale_table_and_a_bad_record_are_refused),
        cmocka_unit_test(this_ptxas_gives_the_recorded_sequences),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
