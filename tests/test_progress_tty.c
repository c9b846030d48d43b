/* On a terminal, audit --jobs, hunt, gemm, pack and verify draw a progress bar on stderr
 * (count done of total, the time left) and print a result line per
 * instruction or case on stdout (issue 31): every result line must start on
 * a line of its own, never after the bar's text. Run on a pseudo-terminal
 * (forkpty), where the bar is drawn. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testutil.h"

#define INSTRS "mma.m16n8k16.f32.f16.f16.f32,mma.m16n8k16.f32.bf16.bf16.f32,mma.m16n8k8.f32.tf32.tf32.f32"

/* Everything tcscope ARGV... writes to its terminal (it must exit 0 or, with
 * a difference found, ok_status). */
static char *run_on_tty(char *const *args, int ok_status)
{
    int fd;
    pid_t pid = forkpty(&fd, NULL, NULL, NULL);
    assert_true(pid >= 0);
    if (pid == 0) {
        execv(tc_cli_path(), args);
        _exit(127);
    }
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (ssize_t got; (got = read(fd, buf + n, cap - n - 1)) > 0;) {
        n += (size_t)got;
        if (n + 1 >= cap)
            buf = realloc(buf, cap *= 2);
    }
    buf[n] = '\0';
    close(fd);
    int st;
    waitpid(pid, &st, 0);
    assert_true(WIFEXITED(st) && (WEXITSTATUS(st) == 0 || WEXITSTATUS(st) == ok_status));
    return buf;
}

/* The lines of text as the terminal shows them: each line's text after its
 * last '\r' (the terminal's own "\r\n" line ends dropped), an erase
 * ("\033[K") at its start dropped. Every line holding marker must show from
 * its first character, which is prefix; returns how many there are. */
static int clean_result_lines(char *text, const char *marker, const char *prefix)
{
    int results = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        size_t len = strlen(line);
        while (len && line[len - 1] == '\r')
            line[--len] = '\0';
        char *shown = strrchr(line, '\r') ? strrchr(line, '\r') + 1 : line;
        if (!strncmp(shown, "\033[K", 3))
            shown += 3;
        if (!strstr(shown, marker))
            continue;
        if (strncmp(shown, prefix, strlen(prefix)))
            fail_msg("a result line shows after other text (the bar): '%s'", shown);
        results++;
    }
    return results;
}

static void result_lines_never_follow_the_bar(void **state)
{
    (void)state;
    char dir[] = "/tmp/tcs-ttyXXXXXX", out[64], cmd[128];
    assert_non_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/a", dir);
    char *args[] = {(char *)tc_cli_path(), "audit", "--backend", "model:h100", "--instr", INSTRS, "--count", "2000",
                    "--no-timing", "--jobs", "2", "--out", out, NULL};
    char *text = run_on_tty(args, 0);
    assert_non_null(strstr(text, "] "));   /* the bar was drawn: this is a terminal */
    assert_int_equal(clean_result_lines(text, "VERIFIED", "mma."), 3);
    free(text);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* hunt: the bar counts instructions ("hunt", done of 3) between the result
 * lines, which still start clean. */
static void hunt_draws_its_count_between_clean_lines(void **state)
{
    (void)state;
    char *args[] = {(char *)tc_cli_path(), "hunt", "--backend", "model:h100", "--instr", INSTRS, "--count", "2000",
                    "--samples", "0", NULL};
    char *text = run_on_tty(args, 1);
    assert_non_null(strstr(text, "hunt "));
    assert_non_null(strstr(text, "0/3"));   /* the count, drawn before the first instruction ends */
    assert_int_equal(clean_result_lines(text, "elements   ", "mma."), 3);   /* not the "# N elements in" summary */
    free(text);
}

/* gemm (the simulated library): the bar counts cases between the case
 * lines ("[1/2] ..."), which still start clean. */
static void gemm_draws_its_count_between_clean_lines(void **state)
{
    (void)state;
    char *args[] = {(char *)tc_cli_path(), "gemm", "--backend", "model:h100", "--path", "f16", "--m", "32", "--n",
                    "32", "--k", "64,128", "--samples", "64", "--reps", "0", NULL};
    char *text = run_on_tty(args, 0);
    assert_non_null(strstr(text, "gemm "));
    assert_non_null(strstr(text, "0/2"));
    assert_int_equal(clean_result_lines(text, " s  ", "["), 2);
    free(text);
}

/* pack: the bar counts the bytes of text packed; the summary line after it
 * starts clean. The input is a committed hunt record as text. */
static void pack_draws_its_count_then_a_clean_line(void **state)
{
    (void)state;
    char dir[] = "/tmp/tcs-ttyXXXXXX", cmd[512], in[64], out[64];
    assert_non_null(mkdtemp(dir));
    snprintf(in, sizeof in, "%s/hunt.jsonl", dir);
    snprintf(out, sizeof out, "%s/hunt.packed.xz", dir);
    snprintf(cmd, sizeof cmd, "%s pack reports/baselines/h100-hunt-final.packed.xz --text > %s", tc_cli_path(), in);
    assert_int_equal(system(cmd), 0);
    char *args[] = {(char *)tc_cli_path(), "pack", in, "--out", out, NULL};
    char *text = run_on_tty(args, 0);
    assert_non_null(strstr(text, "pack "));
    assert_non_null(strstr(text, "0/"));   /* the count of bytes, drawn at the start */
    assert_int_equal(clean_result_lines(text, " lines, ", dir), 1);
    free(text);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

/* verify: the bar counts elements compared (reported by verify_run batch by
 * batch) and reaches its total; the result line after it starts clean. */
static void verify_draws_its_count_then_a_clean_line(void **state)
{
    (void)state;
    char *args[] = {(char *)tc_cli_path(), "verify", "--backend", "model:h100", "--profile", "h100", "--instr",
                    "mma.m16n8k16.f32.f16.f16.f32", "--count", "200000", NULL};
    char *text = run_on_tty(args, 1);
    assert_non_null(strstr(text, "verify "));
    assert_non_null(strstr(text, " 0/"));
    assert_non_null(strstr(text, "100.0%"));   /* every batch counted: the bar reached its total */
    assert_int_equal(clean_result_lines(text, " elements, ", "mma."), 1);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(result_lines_never_follow_the_bar),
        cmocka_unit_test(hunt_draws_its_count_between_clean_lines),
        cmocka_unit_test(gemm_draws_its_count_between_clean_lines),
        cmocka_unit_test(pack_draws_its_count_then_a_clean_line),
        cmocka_unit_test(verify_draws_its_count_then_a_clean_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
