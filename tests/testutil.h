/* Test helpers: run the tcscope binary and capture what it prints.
 * Header-only so every test program stays one file. */
#ifndef TC_TESTUTIL_H
#define TC_TESTUTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    int status;     /* exit status, or 128+signal */
    char *out;      /* stdout, NUL-terminated */
    char *err;      /* stderr */
} tc_run_result;

static inline char *tc_slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

/* The binary under test: the sanitized one in the sanitized test build. */
static inline const char *tc_cli_path(void)
{
    const char *env = getenv("TCSCOPE");
    if (env)
        return env;
#if defined(__SANITIZE_ADDRESS__)
    return "build/san/tcscope";
#else
    return "build/tcscope";
#endif
}

/* Runs "tcscope ARGS" through the shell (ARGS is shell text) with standard
 * input read from stdin_path (NULL: empty). */
static inline tc_run_result tc_run_cli_from(const char *args, const char *stdin_path)
{
    char out[] = "/tmp/tcs-outXXXXXX", err[] = "/tmp/tcs-errXXXXXX";
    int fo = mkstemp(out), fe = mkstemp(err);
    close(fo);
    close(fe);
    const char *in = stdin_path ? stdin_path : "/dev/null";
    size_t len = strlen(args) + strlen(tc_cli_path()) + strlen(in) + 2 * sizeof out + 32;
    char *cmd = malloc(len);
    snprintf(cmd, len, "%s %s <%s >%s 2>%s", tc_cli_path(), args, in, out, err);
    int st = system(cmd);
    free(cmd);
    tc_run_result r;
    r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    r.out = tc_slurp(out);
    r.err = tc_slurp(err);
    unlink(out);
    unlink(err);
    return r;
}

/* The same with n bytes of standard input (NUL bytes included). */
static inline tc_run_result tc_run_cli_bytes(const char *args, const char *input, size_t n)
{
    char in[] = "/tmp/tcs-inXXXXXX";
    int fi = mkstemp(in);
    if (n && write(fi, input, n) != (ssize_t)n)
        abort();
    close(fi);
    tc_run_result r = tc_run_cli_from(args, in);
    unlink(in);
    return r;
}

/* The same with optional stdin text. */
static inline tc_run_result tc_run_cli_stdin(const char *args, const char *input)
{
    return tc_run_cli_bytes(args, input ? input : "", input ? strlen(input) : 0);
}

static inline tc_run_result tc_run_cli(const char *args)
{
    return tc_run_cli_stdin(args, NULL);
}

/* tc_run_cli with the arguments formatted as printf does. */
static inline tc_run_result tc_run_clif(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline tc_run_result tc_run_clif(const char *fmt, ...)
{
    char cmd[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    return tc_run_cli(cmd);
}

static inline void tc_run_result_free(tc_run_result *r)
{
    free(r->out);
    free(r->err);
}

/* One private folder per test program (mkdtemp), as a cmocka group setup
 * and teardown: tc_tmp_root() names it. */
static inline char *tc_tmp_root(void)
{
    static char root[64];
    return root;
}

static inline int tc_tmp_root_make(void **state)
{
    snprintf(tc_tmp_root(), 64, "/tmp/tcs-testXXXXXX");
    return mkdtemp(tc_tmp_root()) ? 0 : -1;
}

static inline int tc_tmp_root_remove(void **state)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tc_tmp_root());
    return system(cmd) == 0 ? 0 : -1;
}

/* Writes text to path (replacing it); 0 or -1. */
static inline int tc_put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int rc = fputs(text, f) < 0 ? -1 : 0;
    return fclose(f) != 0 ? -1 : rc;
}

#endif
