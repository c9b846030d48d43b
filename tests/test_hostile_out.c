/* Hostile input, second sweep (issue 32), the output side: no write through
 * a link planted under --out, no two GPU folders writing one file, archives
 * read within their caps with nothing left behind, one run per output
 * folder, and no control character reaching the terminal, a file name or a
 * Markdown page. Items 1-4, 13 and 14 of the reproducers; the
 * inputs are in tests/data/hostile/ (km-*: made by a few lines of Python's
 * tarfile, listed in tests/data/hostile/README). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>

#include "tests/testutil.h"

#define H "tests/data/hostile/"
#define I2 "mma.m16n8k8.f16.f16.f16.f16,mma.m16n8k8.f32.f16.f16.f32"

/* Exit 2, msg in stderr, no sanitizer report. */
static void expect_usage(const char *args, const char *msg)
{
    tc_run_result r = tc_run_cli(args);
    if (r.status != 2 || !strstr(r.err, msg) || strstr(r.err, "Sanitizer"))
        fail_msg("tcscope %s\n  exit %d (want 2), stderr:\n%s  (want '%s')", args, r.status, r.err, msg);
    tc_run_result_free(&r);
}

static void expect_ok(const char *args)
{
    tc_run_result r = tc_run_cli(args);
    if (r.status != 0 || strstr(r.err, "Sanitizer"))
        fail_msg("tcscope %s\n  exit %d, stderr:\n%s", args, r.status, r.err);
    tc_run_result_free(&r);
}

static bool exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Entries of a folder, "." and ".." not counted. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d)
        closedir(d);
    return n;
}

/* A fresh folder under the test's private root. */
static const char *fresh(const char *name)
{
    static char ring[4][256];
    static int next;
    char *p = ring[next++ % 4], cmd[300];
    snprintf(p, sizeof ring[0], "%s/%s", tc_tmp_root(), name);
    snprintf(cmd, sizeof cmd, "rm -rf '%s' && mkdir -p '%s'", p, p);
    assert_int_equal(system(cmd), 0);
    return p;
}

/* km data in DIR/GPU/fp16/ (the reproducers' two-row set, renamed for GPU). */
static void km_set(const char *dir, const char *gpu)
{
    static const char *const files[] = {"a_T4_fp16.txt", "b_T4_fp16.txt", "c_T4_fp32.txt", "d_T4_fp32.txt"};
    char path[1024], from[256];
    snprintf(path, sizeof path, "%s/%s", dir, gpu);
    assert_int_equal(mkdir(path, 0777), 0);
    snprintf(path, sizeof path, "%s/%s/fp16", dir, gpu);
    assert_int_equal(mkdir(path, 0777), 0);
    for (int i = 0; i < 4; i++) {
        snprintf(from, sizeof from, H "km-ok/data/T4/fp16/%s", files[i]);
        char *text = tc_slurp(from);
        assert_true(text[0] != '\0');
        snprintf(path, sizeof path, "%s/%s/fp16/%c_%s_%s", dir, gpu, files[i][0], gpu, files[i] + 5);
        assert_int_equal(tc_put_file(path, text), 0);
        free(text);
    }
}

/* Item 1: audit --jobs wrote (and replaced files) through a link at
 * OUT/parts; now refused before any child starts, the target untouched. */
static void audit_jobs_refuses_linked_parts(void **state)
{
    const char *o = fresh("jobs-o"), *v = fresh("jobs-v");
    char link[300], args[700];
    snprintf(link, sizeof link, "%s/parts", o);
    assert_int_equal(symlink(v, link), 0);
    snprintf(args, sizeof args, "audit --backend exact --instr " I2 " --n 10 --no-timing --jobs 2 --out %s", o);
    expect_usage(args, "parts is a symbolic link: not followed");
    assert_int_equal(entries(v), 0);
    /* one level down: OUT/parts/NAME a link to elsewhere */
    assert_int_equal(unlink(link), 0);
    assert_int_equal(mkdir(link, 0777), 0);
    snprintf(link, sizeof link, "%s/parts/mma.m16n8k8.f32.f16.f16.f32", o);
    assert_int_equal(symlink(v, link), 0);
    snprintf(args, sizeof args, "audit --backend exact --instr " I2 " --n 10 --no-timing --jobs 2 --force --out %s", o);
    expect_usage(args, "mma.m16n8k8.f32.f16.f16.f32 is a symbolic link: not followed");
    assert_int_equal(entries(v), 0);
    /* and with real folders the same run works, leaving no lock behind */
    assert_int_equal(unlink(link), 0);
    expect_ok(args);
    snprintf(link, sizeof link, "%s/audit.jsonl", o);
    assert_true(exists(link));
    snprintf(link, sizeof link, "%s/.lock", o);
    assert_false(exists(link));
}

/* Item 2: import km replaced what a link at OUT/km-<gpu>.jsonl pointed to,
 * without --force; now refused with or without it, the target kept. An
 * existing file is replaced with --force only. */
static void import_km_refuses_links_and_keeps_files(void **state)
{
    const char *o = fresh("km-link");
    char victim[300], link[300], args[700];
    snprintf(victim, sizeof victim, "%s/../victim.txt", o);
    assert_int_equal(tc_put_file(victim, "victim\n"), 0);
    snprintf(link, sizeof link, "%s/km-t4.jsonl", o);
    assert_int_equal(symlink(victim, link), 0);
    snprintf(args, sizeof args, "import km " H "km-ok/data --out %s", o);
    expect_usage(args, "km-t4.jsonl is a symbolic link: not written through");
    snprintf(args, sizeof args, "import km " H "km-ok/data --out %s --force", o);
    expect_usage(args, "km-t4.jsonl is a symbolic link: not written through");
    char *text = tc_slurp(victim);
    assert_string_equal(text, "victim\n");
    free(text);
    /* a regular file: kept without --force, replaced with it */
    assert_int_equal(unlink(link), 0);
    assert_int_equal(tc_put_file(link, "mine\n"), 0);
    snprintf(args, sizeof args, "import km " H "km-ok/data --out %s", o);
    expect_usage(args, "km-t4.jsonl exists: kept (give --force");
    snprintf(args, sizeof args, "import km " H "km-ok/data --out %s --force", o);
    expect_ok(args);
    text = tc_slurp(link);
    assert_non_null(strstr(text, "\"record\":\"dots\""));
    free(text);
}

/* Item 3: two GPU folders whose file names collide (case, or the first 31
 * bytes) wrote one file, the second replacing the first, exit 0. */
static void import_km_refuses_colliding_names(void **state)
{
    const char *d = fresh("km-case"), *o = fresh("km-case-out");
    char args[700];
    km_set(d, "A100");
    km_set(d, "a100");
    snprintf(args, sizeof args, "import km %s --out %s", d, o);
    expect_usage(args, "GPU folders 'A100' and 'a100' would both write km-a100.jsonl");
    assert_int_equal(entries(o), 0);
    d = fresh("km-long");
    km_set(d, "GPU_with_a_very_long_name_0123456789_A");
    km_set(d, "GPU_with_a_very_long_name_0123456789_B");
    snprintf(args, sizeof args, "import km %s --out %s", d, o);
    expect_usage(args, "would both write km-gpu_with_a_very_long_name_01234.jsonl (names are lower-cased and cut at 31");
    assert_int_equal(entries(o), 0);
}

/* Item 4: archives are read in memory by libarchive within LIMITS.md's
 * caps: nothing is unpacked, so nothing is left in TMPDIR on a failure; a
 * member past 64 MiB (65 MiB of zeros in 10 KB of xz), more than 256 MiB
 * in all, more than 4096 files, a link to /dev/zero, a device and a ".."
 * name are refused. */
static void import_km_archives_within_limits(void **state)
{
    static const struct {
        const char *file, *msg;
    } bad[] = {
        {"km-member-cap.tar.xz", "a_T4_fp16.txt: larger than 64 MiB (the cap of one file, LIMITS.md)"},
        {"km-total-cap.tar.xz", "more than 256 MiB in all (the cap of an archive, LIMITS.md)"},
        {"km-symlink-zero.tar.xz", "member 'data/T4/fp16/a_T4_fp16.txt' is a symbolic link: only regular files"},
        {"km-device.tar.xz", "is a character device: only regular files are read"},
        {"km-dotdot.tar.xz", "member 'data/../../evil.txt': an empty or absolute name, or one with a '..' part"},
        {"km-corrupt.tar.xz", "km-corrupt.tar.xz: not a readable archive"},
        {"km-files-cap.tar.xz", "km-files-cap.tar.xz: more than 4096 files"},
    };
    const char *tmp = fresh("km-tmpdir"), *o = fresh("km-tar-out");
    char args[900], path[400];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "import km " H "%s --out %s", bad[i].file, o);
        setenv("TMPDIR", tmp, 1);
        expect_usage(args, bad[i].msg);
        unsetenv("TMPDIR");
        if (entries(tmp) != 0)
            fail_msg("%s left %d entries in TMPDIR %s", bad[i].file, entries(tmp), tmp);
        assert_int_equal(entries(o), 0);
    }
    snprintf(args, sizeof args, "import km " H "km-ok.tar.xz --out %s", o);
    setenv("TMPDIR", tmp, 1);
    expect_ok(args);
    unsetenv("TMPDIR");
    assert_int_equal(entries(tmp), 0);
    snprintf(path, sizeof path, "%s/km-t4.jsonl", o);
    char *text = tc_slurp(path);
    assert_non_null(strstr(text, "\"instr\":\"wmma.m16n16k16.f32.f16.f16.f32\",\"gpu\":\"T4\""));
    free(text);
}

/* A process (not tcscope) holding OUT/.lock as a run would, naming itself. */
static pid_t hold_lock(const char *dir)
{
    int ready[2];
    assert_int_equal(pipe(ready), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char path[400], text[200];
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlives the test, even a failed one */
        int null = open("/dev/null", O_WRONLY);
        dup2(null, STDOUT_FILENO);
        dup2(null, STDERR_FILENO);
        snprintf(path, sizeof path, "%s/.lock", dir);
        int fd = open(path, O_RDWR | O_CREAT, 0644);
        if (fd < 0 || flock(fd, LOCK_EX) != 0)
            _exit(1);
        int n = snprintf(text, sizeof text, "{\"pid\":%d,\"started\":\"2026-11-28T00:00:00Z\",\"command\":\"tcscope "
                                            "sweep --out x\"}\n", (int)getpid());
        if (write(fd, text, (size_t)n) != n || write(ready[1], "k", 1) != 1)
            _exit(1);
        pause();
        _exit(0);
    }
    char c;
    close(ready[1]);
    assert_int_equal(read(ready[0], &c, 1), 1);
    close(ready[0]);
    return pid;
}

/* Item 13: two runs into one folder both went on (1 in 19 mixed the
 * folder). A second run now exits 2 naming the first; the lock of a run that
 * was killed is taken over, and said so. */
static void one_run_per_output_folder(void **state)
{
    const char *o = fresh("lock-o");
    char args[600], want[200], path[400];
    pid_t holder = hold_lock(o);
    snprintf(args, sizeof args, "sweep --backend exact --formats f16 --trials 20 --chain 1..4 --force --out %s", o);
    snprintf(want, sizeof want, "is in use by another run (pid %d, started 2026-11-28T00:00:00Z: tcscope sweep --out x)",
             (int)holder);
    expect_usage(args, want);
    snprintf(args, sizeof args, "audit --backend exact --instr " I2 " --n 10 --no-timing --out %s", o);
    expect_usage(args, want);
    snprintf(args, sizeof args, "import km " H "km-ok/data --out %s", o);
    expect_usage(args, want);
    assert_int_equal(entries(o), 1); /* the lock only: nothing written */
    kill(holder, SIGKILL);
    waitpid(holder, NULL, 0);
    /* the holder is gone: its lock is taken over */
    snprintf(args, sizeof args, "sweep --backend exact --formats f16 --trials 20 --chain 1..4 --force --out %s", o);
    tc_run_result r = tc_run_cli(args);
    snprintf(want, sizeof want, "taking over the lock of pid %d (not running", (int)holder);
    if (r.status != 0 || !strstr(r.err, want))
        fail_msg("exit %d, stderr:\n%s(want '%s')", r.status, r.err, want);
    tc_run_result_free(&r);
    snprintf(path, sizeof path, "%s/.lock", o);
    assert_false(exists(path)); /* a run that ends removes it */
    /* a real run killed while it holds the lock */
    snprintf(path, sizeof path, "%s/.lock", o);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "%s sweep --backend exact --formats f16 --trials 100 --chain 1..20 --force --out %s "
                              ">/dev/null 2>&1 & echo $!", tc_cli_path(), o);
    FILE *p = popen(cmd, "r");
    int pid = 0;
    assert_int_equal(fscanf(p, "%d", &pid), 1);
    pclose(p);
    char *text = NULL;
    for (int i = 0; i < 3000; i++) { /* up to 30 s for the run to start */
        free(text);
        text = tc_slurp(path);
        if (strstr(text, "\"pid\""))
            break;
        usleep(10000);
    }
    assert_non_null(strstr(text, "\"command\":\"tcscope sweep --backend exact"));
    free(text);
    kill(pid, SIGKILL);
    for (int i = 0; i < 500 && kill(pid, 0) == 0; i++)
        usleep(10000);
    snprintf(args, sizeof args, "sweep --backend exact --formats f16 --trials 20 --chain 1..4 --force --out %s", o);
    r = tc_run_cli(args);
    snprintf(want, sizeof want, "taking over the lock of pid %d (not running", pid);
    if (r.status != 0 || !strstr(r.err, want))
        fail_msg("exit %d, stderr:\n%s(want '%s')", r.status, r.err, want);
    tc_run_result_free(&r);
}

static bool has_control(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++)
        if ((*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
            return true;
    return false;
}

/* Item 14: a case file's ESC sequence printed raw by cases -v; a km GPU
 * folder named with ESC or a newline printed raw and made a file name;
 * audit.md embedding a record's <script>. */
static void control_characters_and_markup(void **state)
{
    const char *d = fresh("esc");
    char path[600], args[900];
    snprintf(path, sizeof path, "%s/esc.case", d);
    assert_int_equal(tc_put_file(path, "[t]\ninstr = a=f16 b=f16 c=f32 d=f32 k=8\n"
                                       "probes = caf\033]0;pwned\007e \033[31mred\na = 1, 1\nb = 1, 1\n"
                                       "expect = exact rne\n"), 0);
    snprintf(args, sizeof args, "cases -v --backend model:h100 %s", path);
    tc_run_result r = tc_run_cli(args);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.out, "probes: caf\\x1B]0;pwned\\x07e \\x1B[31mred"));
    assert_false(has_control(r.out));
    tc_run_result_free(&r);
    /* GPU folders named with ESC, and with a newline: refused, said escaped */
    static const char *const names[] = {"T4\033[2J", "T4\nx"};
    for (int i = 0; i < 2; i++) {
        const char *km = fresh(i ? "km-nl" : "km-esc"), *o = fresh("km-esc-out");
        km_set(km, names[i]);
        snprintf(args, sizeof args, "import km %s --out %s", km, o);
        r = tc_run_cli(args);
        if (r.status != 2 || !strstr(r.err, i ? "GPU folder 'T4\\x0Ax'" : "GPU folder 'T4\\x1B[2J'") ||
            !strstr(r.err, "a control character") || has_control(r.out) || has_control(r.err))
            fail_msg("%s: exit %d\nstdout: %s\nstderr: %s", args, r.status, r.out, r.err);
        tc_run_result_free(&r);
        assert_int_equal(entries(o), 0);
    }
    /* an audit record's text in audit.md: text, never markup */
    char *rec = tc_slurp(H "audit-one.jsonl");
    char *host = strstr(rec, "\"host\":\"vm\"");
    assert_non_null(host);
    snprintf(path, sizeof path, "%s/evil.jsonl", d);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "%.*s\"host\":\"<script>alert(1)</script> [link](javascript:alert(2)) `x` a|b\"%s", (int)(host - rec),
            rec, host + strlen("\"host\":\"vm\""));
    fclose(f);
    free(rec);
    snprintf(args, sizeof args, "audit --render %s --out %s/r", path, d);
    expect_ok(args);
    snprintf(path, sizeof path, "%s/r/evil.md", d);
    char *md = tc_slurp(path);
    assert_null(strstr(md, "<script"));
    assert_null(strstr(md, "[link]"));
    assert_non_null(strstr(md, "| host | &lt;script&gt;alert(1)&lt;/script&gt; \\[link\\](javascript:alert(2)) \\`x\\` "
                               "a\\|b |"));
    free(md);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(audit_jobs_refuses_linked_parts),
        cmocka_unit_test(import_km_refuses_links_and_keeps_files),
        cmocka_unit_test(import_km_refuses_colliding_names),
        cmocka_unit_test(import_km_archives_within_limits),
        cmocka_unit_test(one_run_per_output_folder),
        cmocka_unit_test(control_characters_and_markup),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
