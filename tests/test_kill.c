/* An audit killed with SIGKILL at a random point never leaves a record that
 * compare accepts unless it is the whole record of the latest run that
 * started in the folder (issue 14). 20 trials on the model backend with the
 * optimized binary (the sanitized one would be slower, not safer: the kill
 * tests the files, not the arithmetic). Each trial starts over a finished
 * record of the trial before it (--force, a new seed): half are killed at a
 * uniform time over a whole run, half in the write phase (within 2 ms of the
 * first sign of the record: its temporary file, or audit.jsonl renamed into
 * place), where a record of the new run exists but the run has not finished. What compare accepts is checked against what
 * the test knows: the seed this trial gave and the instructions it asked. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <jansson.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <time.h>

#include "tests/testutil.h"
#include "probes/clock.h"

#define TRIALS 20
#define INSTRS "mma.m16n8k8.f16.f16.f16.f16,mma.m8n8k4.f64.f64.f64.f64"
#define BIN "build/tcscope"

static pid_t start_audit(const char *out, unsigned seed)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char s[32];
        snprintf(s, sizeof s, "%u", seed);
        if (!freopen("/dev/null", "w", stdout) || !freopen("/dev/null", "w", stderr))
            _exit(127);
        execl(BIN, BIN, "audit", "--backend", "model:h100", "--instr", INSTRS, "--count", "100", "--no-timing",
              "--seed", s, "--force", "--out", out, (char *)NULL);
        _exit(127);
    }
    return pid;
}

/* Exit status of the audit, or 128 + signal. */
static int reap(pid_t pid)
{
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* compare's verdict on FILE against itself: 0 accepted, 2 refused. */
static int compare_accepts(const char *file)
{
    char cmd[700];
    snprintf(cmd, sizeof cmd, BIN " compare '%s' '%s' >/dev/null 2>&1", file, file);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

/* The record is whole and this trial's: header seed, both instructions, the trailer. */
static bool is_this_runs_whole_record(const char *file, unsigned seed)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return false;
    char *line = NULL, want[32];
    size_t cap = 0, nlines = 0, audits = 0;
    bool seed_ok = false, end_ok = false;
    snprintf(want, sizeof want, "0x%x", seed);
    while (getline(&line, &cap, f) > 0) {
        json_t *o = json_loads(line, 0, NULL);
        const char *kind = json_string_value(json_object_get(o, "kind"));
        if (nlines++ == 0)
            seed_ok = json_string_value(json_array_get(json_object_get(o, "seeds"), 0)) &&
                      !strcmp(json_string_value(json_array_get(json_object_get(o, "seeds"), 0)), want);
        else if (kind && !strcmp(kind, "audit"))
            audits++;
        else if (kind && !strcmp(kind, "end"))
            end_ok = json_integer_value(json_object_get(o, "objects")) == 2;
        json_decref(o);
    }
    free(line);
    fclose(f);
    return seed_ok && audits == 2 && end_ok;
}

/* A temporary file of audit.jsonl in the folder (being written). */
static bool temp_record_there(const char *out)
{
    DIR *dir = opendir(out);
    struct dirent *e;
    bool found = false;
    while (dir && !found && (e = readdir(dir)))
        found = !strncmp(e->d_name, ".audit.jsonl.tmp-", 17);
    if (dir)
        closedir(dir);
    return found;
}

/* Polls until the new run's record is being written: its marker replaced
 * (the run has begun), the earlier record gone (--force removed it), then
 * the temporary file of audit.jsonl (temp) or audit.jsonl itself. false when
 * the audit ended first (*status set, reaped). */
static bool wait_for_new_record(const char *out, const char *rec, const char *marker, const char *marker_before,
                                bool temp, pid_t pid, int *status)
{
    int phase = 0;
    for (;;) {
        if (phase == 0) {
            char *m = tc_slurp(marker);
            if (strcmp(m, marker_before) && access(rec, F_OK) != 0)
                phase = 1;
            free(m);
        } else if (access(rec, F_OK) == 0 || (temp && temp_record_there(out)))
            return true;
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid) {
            *status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
            return false;
        }
        struct timespec ns = {0, phase ? 20000 : 100000};
        nanosleep(&ns, NULL);
    }
}

static void killed_audits_leave_nothing_compare_accepts(void **state)
{
    char out[256], rec[300], marker[300];
    snprintf(out, sizeof out, "%s/audit", tc_tmp_root());
    snprintf(rec, sizeof rec, "%s/audit.jsonl", out);
    snprintf(marker, sizeof marker, "%s/audit.run", out);
    double t0 = tc_now_s();
    pid_t pid = start_audit(out, 1000);
    assert_int_equal(reap(pid), 0);
    double full = tc_now_s() - t0;
    assert_int_equal(compare_accepts(rec), 0); /* a finished run is accepted */

    unsigned rng = (unsigned)time(NULL);
    print_message("kill trials: one run %.2f s, random seed %u\n", full, rng);
    srand(rng);
    int refused = 0, finished = 0, untouched = 0, leftovers_checked = 0;
    for (int t = 1; t <= TRIALS; t++) {
        unsigned seed = 1000 + (unsigned)t;
        char *marker_before = tc_slurp(marker);
        pid = start_audit(out, seed);
        bool write_phase = t % 2 == 0, reaped = false;
        int status = 0;
        double delay;
        if (write_phase) {
            /* the writes take a few ms: kill within 2 ms of the first sign of them */
            reaped = !wait_for_new_record(out, rec, marker, marker_before, t % 4 == 0, pid, &status);
            delay = (double)rand() / RAND_MAX * 0.002;
        } else
            delay = (double)rand() / RAND_MAX * 1.2 * full;
        struct timespec ts = {(time_t)delay, (long)((delay - (double)(time_t)delay) * 1e9)};
        nanosleep(&ts, NULL);
        if (!reaped) {
            kill(pid, SIGKILL);
            status = reap(pid);
        }
        int verdict = compare_accepts(rec);
        const char *what = "";
        if (verdict == 0) {
            char *marker_after = tc_slurp(marker);
            if (is_this_runs_whole_record(rec, seed)) {
                /* and the run had finished: exited, or killed after its last write */
                if (status != 0 && !strstr(marker_after, "\"state\":\"done\""))
                    fail_msg("trial %d: compare accepted the record of a run that did not finish", t);
                what = "accepted: this run's whole record (it had finished)";
                finished++;
            } else if (!strcmp(marker_after, marker_before)) {
                /* killed before it wrote anything: the folder is the last run's, unchanged */
                what = "accepted: folder untouched, the previous run's record";
                untouched++;
            } else
                fail_msg("trial %d: compare accepted a record that is not this run's whole record", t);
            free(marker_after);
        } else {
            assert_int_equal(verdict, 2);
            what = access(rec, F_OK) != 0                 ? "refused: no audit.jsonl"
                   : is_this_runs_whole_record(rec, seed) ? "refused: this run's whole audit.jsonl, run not done"
                                                          : "refused: an audit.jsonl not this run's";
            refused++;
        }
        /* anything else left in the folder (a temporary file) is refused too */
        DIR *dir = opendir(out);
        struct dirent *e;
        while (dir && (e = readdir(dir))) {
            if (e->d_name[0] != '.' || !strstr(e->d_name, ".jsonl.tmp-"))
                continue;
            char p[600];
            snprintf(p, sizeof p, "%s/%s", out, e->d_name);
            if (compare_accepts(p) == 0 && !is_this_runs_whole_record(p, seed))
                fail_msg("trial %d: compare accepted the temporary file %s", t, e->d_name);
            leftovers_checked++;
            unlink(p);
        }
        if (dir)
            closedir(dir);
        print_message("trial %2d: %-16s + %6.4f s, exit %3d: %s\n", t,
                      !write_phase ? "uniform" : t % 4 ? "after audit.jsonl" : "after its temp", delay, status,
                      what);
        free(marker_before);
    }
    print_message("kill trials: %d refused, %d finished and accepted, %d untouched, %d temporary files checked\n",
                  refused, finished, untouched, leftovers_checked);
    assert_int_equal(refused + finished + untouched, TRIALS);
    assert_true(refused > 0); /* some kill landed inside a run, or the test tested nothing */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(killed_audits_leave_nothing_compare_accepts),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
