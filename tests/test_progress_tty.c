/* On a terminal, audit --jobs draws a progress bar on stderr and prints a
 * result line per instruction on stdout (issue 31): every result line must
 * start on a line of its own, never after the bar's text. Run on a
 * pseudo-terminal (forkpty), where the bar is drawn. */
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

/* Everything the command writes to its terminal. */
static char *run_on_tty(const char *out_dir)
{
    int fd;
    pid_t pid = forkpty(&fd, NULL, NULL, NULL);
    assert_true(pid >= 0);
    if (pid == 0) {
        execl(tc_cli_path(), tc_cli_path(), "audit", "--backend", "model:h100", "--instr", INSTRS, "--count", "2000",
              "--no-timing", "--jobs", "2", "--out", out_dir, (char *)NULL);
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
    assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    return buf;
}

static void result_lines_never_follow_the_bar(void **state)
{
    (void)state;
    char dir[] = "/tmp/tcs-ttyXXXXXX", out[64], cmd[128];
    assert_non_null(mkdtemp(dir));
    snprintf(out, sizeof out, "%s/a", dir);
    char *text = run_on_tty(out);
    assert_non_null(strstr(text, "] "));   /* the bar was drawn: this is a terminal */
    /* Each line as the terminal shows it: the text after its last '\r' (the
     * terminal's own "\r\n" line ends dropped), an erase ("\033[K") at its start
     * dropped. A result line must show from its first character. */
    int results = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        size_t len = strlen(line);
        while (len && line[len - 1] == '\r')
            line[--len] = '\0';
        char *shown = strrchr(line, '\r') ? strrchr(line, '\r') + 1 : line;
        if (!strncmp(shown, "\033[K", 3))
            shown += 3;
        if (!strstr(shown, "VERIFIED"))
            continue;
        if (strncmp(shown, "mma.", 4))
            fail_msg("a result line shows after other text (the bar): '%s'", shown);
        results++;
    }
    assert_int_equal(results, 3);
    free(text);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(result_lines_never_follow_the_bar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
