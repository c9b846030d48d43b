/* One run per output folder at a time: a run holds an advisory lock
 * (flock) on OUT/.lock for as long as it has the folder open, with its pid,
 * start time and command line written in the file. A second run into the
 * same folder is refused, naming the first. The kernel drops the lock when
 * the process ends, however it ends: the .lock of a killed run is simply
 * taken over (and said so); a run that ends normally removes it. A run
 * started by the run that holds the lock (audit --merge under the fleet, a
 * second open of the same folder in one process) works inside that run. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "reports/reports_internal.h"
#include "reports/reports.h"
#include "reports/text.h"

#define LOCK_NAME ".lock"
#define LOCK_MAX 4096

/* "tcscope ARG ARG..", this process's command line, from /proc (the lock is
 * taken where no argv is at hand). */
static char *own_command(void)
{
    char buf[LOCK_MAX];
    size_t n = 0;
    FILE *f = fopen("/proc/self/cmdline", "r");
    if (f) {
        n = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
    }
    buf[n] = '\0';
    size_t first = strlen(buf) + 1; /* argv[0]: the binary's path, said as "tcscope" */
    char *cmd = malloc(sizeof buf + 16);
    if (!cmd)
        return NULL;
    size_t o = (size_t)snprintf(cmd, 16, "tcscope");
    for (size_t i = first - 1; i < n; i++) /* from argv[0]'s NUL: a blank before each argument */
        cmd[o++] = buf[i] ? buf[i] : ' ';
    while (o > 7 && cmd[o - 1] == ' ')
        o--;
    cmd[o] = '\0';
    return cmd;
}

/* The holder's description: {"pid","started","command"}, or NULL. */
static json_t *read_holder(int fd)
{
    char buf[LOCK_MAX + 1];
    ssize_t n = pread(fd, buf, LOCK_MAX, 0);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    json_t *h = json_loads(buf, JSON_DISABLE_EOF_CHECK, NULL);
    if (!json_is_object(h) || !json_is_integer(json_object_get(h, "pid"))) {
        json_decref(h);
        return NULL;
    }
    return h;
}

static long holder_pid(const json_t *h)
{
    return h ? (long)json_integer_value(json_object_get(h, "pid")) : 0;
}

/* "pid N, started T: COMMAND", the command cut as LIMITS.md says. */
static void describe(const json_t *h, char *out, size_t len)
{
    if (!h) {
        snprintf(out, len, "it has not said which yet");
        return;
    }
    const char *cmd = json_string_value(json_object_get(h, "command"));
    const char *started = json_string_value(json_object_get(h, "started"));
    char cut[TC_TEXT_CUT_MAX];
    tc_text_cut(cmd ? cmd : "?", cut);
    snprintf(out, len, "pid %ld, started %s: %s", holder_pid(h), started ? started : "?", cut);
}

static int write_holder(int fd)
{
    char started[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &tm);
    char *cmd = own_command();
    json_t *h = json_pack("{s:I, s:s, s:s}", "pid", (json_int_t)getpid(), "started", started, "command",
                          cmd ? cmd : "tcscope");
    free(cmd);
    char *text = h ? json_dumps(h, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(h);
    int rc = -1;
    if (text && ftruncate(fd, 0) == 0) {
        size_t n = strlen(text);
        text[n] = '\n';
        rc = pwrite(fd, text, n + 1, 0) == (ssize_t)(n + 1) ? 0 : -1;
    }
    free(text);
    return rc;
}

/* The lock file, opened (created) without following a link. */
static int open_lock(const tc_outdir *d, char *err, size_t len)
{
    int fd = openat(d->fd, LOCK_NAME, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    struct stat st;
    if (fd < 0 && errno == ELOOP)
        rep_set_err(err, len, "%s/" LOCK_NAME " is a symbolic link: not followed (remove it)", d->path);
    else if (fd < 0)
        rep_set_err(err, len, "cannot create %s/" LOCK_NAME ": %s", d->path, strerror(errno));
    else if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        rep_set_err(err, len, "%s/" LOCK_NAME " is not a regular file", d->path);
        close(fd);
        fd = -1;
    }
    return fd;
}

/* Still the file of that name: a run that ended removed the one we opened. */
static bool still_named(const tc_outdir *d, int fd)
{
    struct stat a, b;
    return fstat(fd, &a) == 0 && fstatat(d->fd, LOCK_NAME, &b, AT_SYMLINK_NOFOLLOW) == 0 && a.st_dev == b.st_dev &&
           a.st_ino == b.st_ino;
}

int rep_outdir_lock(tc_outdir *d, char *err, size_t len)
{
    d->owns_lock = false;
    d->lock_fd = -1;
    for (int attempt = 0; attempt < 16; attempt++) {
        int fd = open_lock(d, err, len);
        if (fd < 0)
            return -1;
        if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
            int e = errno;
            json_t *h = e == EWOULDBLOCK ? read_holder(fd) : NULL;
            long pid = holder_pid(h);
            close(fd);
            if (h && (pid == (long)getpid() || pid == (long)getppid())) {
                json_decref(h);
                return 0; /* inside the run that holds it */
            }
            char who[400];
            describe(h, who, sizeof who);
            json_decref(h);
            if (e == EWOULDBLOCK)
                rep_set_err(err, len, "%s is in use by another run (%s); one run per output folder: wait for it to "
                            "end, or give another --out", d->path, who);
            else
                rep_set_err(err, len, "cannot lock %s/" LOCK_NAME ": %s", d->path, strerror(e));
            return -1;
        }
        if (!still_named(d, fd)) {
            close(fd);
            continue;
        }
        json_t *h = read_holder(fd);
        long pid = holder_pid(h);
        if (h && pid != (long)getpid()) {
            char who[400], safe[300];
            describe(h, who, sizeof who);
            tc_text_escape(d->path, safe, sizeof safe, false);
            fprintf(stderr, "tcscope: %s: taking over the lock of pid %ld (%s; %s)\n", safe, pid,
                    kill((pid_t)pid, 0) != 0 && errno == ESRCH ? "not running" : "no longer holding it", who);
        }
        json_decref(h);
        if (write_holder(fd) != 0) {
            rep_set_err(err, len, "cannot write %s/" LOCK_NAME ": %s", d->path, strerror(errno));
            close(fd);
            return -1;
        }
        d->lock_fd = fd;
        d->owns_lock = true;
        return 0;
    }
    rep_set_err(err, len, "cannot lock %s/" LOCK_NAME ": it keeps being replaced", d->path);
    return -1;
}

void rep_outdir_unlock(tc_outdir *d)
{
    if (!d->owns_lock)
        return;
    /* removed while still held: a run waiting on this file sees it gone */
    if (d->fd >= 0 && still_named(d, d->lock_fd))
        unlinkat(d->fd, LOCK_NAME, 0);
    close(d->lock_fd);
    d->lock_fd = -1;
    d->owns_lock = false;
}
