/* Run markers: a run writes OUT/NAME.run when it starts (state "running")
 * and again when it ends ("done", or "stopped" with the reason), and stamps
 * its run id into every record it writes. A record beside a marker of its
 * name is current only when both carry the same run id and the run is done:
 * a run that was killed or stopped leaves nothing that reads as complete. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "reports/reports_internal.h"
#include "reports/reports.h"

#define MARKER_SCHEMA "tcscope-run/1"
#define MARKER_MAX 65536

static void utc_now(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The start time to the second and 64 random bits: unique per run. */
static void new_run_id(char *buf, size_t len)
{
    char t[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(t, sizeof t, "%Y%m%dT%H%M%SZ", &tm);
    unsigned long long r;
    if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
        r = (unsigned long long)getpid() << 32 ^ (unsigned long long)clock();
    snprintf(buf, len, "%s-%016llx", t, r);
}

char *tc_run_command_line(int argc, char **argv)
{
    size_t n = strlen("tcscope") + 1;
    for (int i = 0; i < argc; i++)
        n += strlen(argv[i]) + 1;
    char *s = malloc(n);
    if (!s)
        return NULL;
    size_t o = (size_t)snprintf(s, n, "tcscope");
    for (int i = 0; i < argc; i++)
        o += (size_t)snprintf(s + o, n - o, " %s", argv[i]);
    return s;
}

static int emit_marker(FILE *f, const void *ctx)
{
    char *s = json_dumps(ctx, JSON_COMPACT | JSON_PRESERVE_ORDER);
    int rc = s && fputs(s, f) >= 0 && fputc('\n', f) != EOF ? 0 : -1;
    free(s);
    return rc;
}

static int write_marker(const tc_outdir *d, char *err, size_t len)
{
    char name[TC_OUT_NAME_MAX + 8];
    snprintf(name, sizeof name, "%s.run", d->run_name);
    /* the marker is the run's own bookkeeping: always replaced */
    tc_outdir always = *d;
    always.force = true;
    return tc_out_write(&always, name, emit_marker, d->run, err, len);
}

int tc_run_begin(tc_outdir *d, const char *name, int argc, char **argv, const char *const *files, size_t nfiles,
                 char *err, size_t len)
{
    if (!tc_out_name_ok(name, err, len) || strchr(name, '.')) {
        if (strchr(name, '.'))
            rep_set_err(err, len, "bad run name '%s' (no '.')", name);
        return -1;
    }
    if (tc_out_check_free(d, files, nfiles, err, len))
        return -1;
    snprintf(d->run_name, sizeof d->run_name, "%s", name);
    new_run_id(d->run_id, sizeof d->run_id);
    char started[32], host[256] = "";
    utc_now(started, sizeof started);
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    char *cmd = tc_run_command_line(argc, argv);
    json_decref(d->run);
    d->run = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:I}", "schema", MARKER_SCHEMA, "run_id", d->run_id,
                       "state", "running", "started", started, "command", cmd ? cmd : "", "host", host, "pid",
                       (json_int_t)getpid());
    free(cmd);
    json_t *list = json_array();
    for (size_t i = 0; i < nfiles; i++)
        json_array_append_new(list, json_string(files[i]));
    json_object_set_new(d->run, "files", list);
    if (!d->run || write_marker(d, err, len))
        return -1;
    /* --force: what an earlier run left under these names goes now, so that
     * a run stopped half way leaves none of it beside its own files. */
    for (size_t i = 0; i < nfiles; i++)
        if (tc_out_remove(d, files[i], err, len))
            return -1;
    return 0;
}

int tc_run_end(const tc_outdir *d, const char *stopped, char *err, size_t len)
{
    if (!d->run)
        return 0;
    char ended[32];
    utc_now(ended, sizeof ended);
    json_object_set_new(d->run, "state", json_string(stopped ? "stopped" : "done"));
    json_object_set_new(d->run, "ended", json_string(ended));
    if (stopped)
        json_object_set_new(d->run, "stopped", json_string(stopped));
    return write_marker(d, err, len);
}

/* OUT/NAME.run for the record OUT/NAME.ext (leading dots skipped, cut at the
 * next dot: a temporary .NAME.ext.tmp-X maps to the same marker). */
static bool marker_path(const char *record, char *out, size_t len)
{
    const char *slash = strrchr(record, '/');
    const char *base = slash ? slash + 1 : record;
    while (*base == '.')
        base++;
    size_t stem = strcspn(base, ".");
    if (stem == 0)
        return false;
    int dirlen = slash ? (int)(slash - record) + 1 : 0;
    return snprintf(out, len, "%.*s%.*s.run", dirlen, record, (int)stem, base) < (int)len;
}

/* The marker's JSON object, NULL when there is none; *bad on any other error. */
static json_t *load_marker(const char *path, bool *bad, char *err, size_t len)
{
    *bad = false;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0 && errno == ENOENT)
        return NULL;
    char *buf = malloc(MARKER_MAX + 1);
    ssize_t n = fd >= 0 && buf ? read(fd, buf, MARKER_MAX) : -1;
    if (fd >= 0)
        close(fd);
    json_t *m = NULL;
    if (n >= 0) {
        buf[n] = '\0';
        m = json_loads(buf, JSON_DISABLE_EOF_CHECK, NULL);
    }
    free(buf);
    const char *schema = json_string_value(json_object_get(m, "schema"));
    if (!json_is_object(m) || !schema || strcmp(schema, MARKER_SCHEMA) ||
        !json_is_string(json_object_get(m, "run_id")) || !json_is_string(json_object_get(m, "state"))) {
        json_decref(m);
        *bad = true;
        rep_set_err(err, len, "run marker %s is unreadable or not a %s object: the record beside it cannot be "
                    "told current", path, MARKER_SCHEMA);
        return NULL;
    }
    return m;
}

int tc_record_check_current(const char *path, const json_t *header, char *err, size_t len)
{
    char mpath[4200];
    if (!marker_path(path, mpath, sizeof mpath))
        return 0;
    bool bad;
    json_t *m = load_marker(mpath, &bad, err, len);
    if (!m)
        return bad ? -1 : 0; /* no run of this name recorded here: a record copied or kept on its own */
    const char *mid = json_string_value(json_object_get(m, "run_id"));
    const char *state = json_string_value(json_object_get(m, "state"));
    const char *rid = json_string_value(json_object_get(header, "run_id"));
    const char *started = json_string_value(json_object_get(m, "started"));
    int rc = 0;
    if (!rid || strcmp(rid, mid)) {
        rep_set_err(err, len, "%s is not the record of the latest run here: %s names run %s (started %s, %s), "
                    "the record %s%s%s",
                    path, mpath, mid, started ? started : "?", state, rid ? "is of run " : "has no run id (older)",
                    rid ? rid : "", rid ? " (an earlier run)" : "");
        rc = -1;
    } else if (strcmp(state, "done")) {
        const char *why = json_string_value(json_object_get(m, "stopped"));
        rep_set_err(err, len, "%s: the run %s that wrote it did not finish (%s%s%s): not complete", path, mid,
                    state, why ? ": " : "", why ? why : "");
        rc = -1;
    }
    json_decref(m);
    return rc;
}
