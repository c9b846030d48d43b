/* Opening a record for reading: a file that starts with xz's magic bytes is
 * a packed record (record_packed.h), unpacked whole into memory and read
 * from there; one that starts with gzip's is read through `gzip -dc`
 * (spawned without a shell, its output on a pipe); any other file directly.
 * A truncated or corrupt .gz is an error when the stream is closed. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reports/record_packed.h"
#include "reports/reports.h"
#include "reports/reports_internal.h"

extern char **environ;

/* The packed record f (at its start) as a stream of its text. */
static FILE *open_packed(FILE *f, const char *path, tc_record_file *s, char *err, size_t len)
{
    char *xz = NULL, why[600];
    size_t n = 0, tl = 0;
    FILE *m = open_memstream(&xz, &n);
    rewind(f);
    char buf[1 << 16];
    for (size_t got; m && (got = fread(buf, 1, sizeof buf, f)) > 0;)
        fwrite(buf, 1, got, m);
    int bad = ferror(f);
    fclose(f);
    if (m)
        fclose(m);
    if (!m || bad || tc_packed_read((unsigned char *)xz, n, &s->text, &tl, NULL, why, sizeof why)) {
        rep_set_err(err, len, "%s: %s", path, !m || bad ? "cannot read it" : why);
        free(xz);
        return NULL;
    }
    free(xz);
    /* fmemopen refuses a size of 0: an empty text reads as an empty file */
    f = tl ? fmemopen(s->text, tl, "r") : fopen("/dev/null", "r");
    if (!f) {
        free(s->text);
        s->text = NULL;
        rep_set_err(err, len, "%s: %s", path, strerror(errno));
    }
    return f;
}

FILE *tc_record_open(const char *path, tc_record_file *s, char *err, size_t len)
{
    s->pid = -1;
    s->text = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        rep_set_err(err, len, "%s: %s", path, strerror(errno));
        return NULL;
    }
    unsigned char magic[6];
    size_t got = fread(magic, 1, 6, f);
    if (tc_packed_is(magic, got))
        return open_packed(f, path, s, err, len);
    if (got < 2 || magic[0] != 0x1f || magic[1] != 0x8b) {
        rewind(f);
        return f;
    }
    fclose(f);
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0) {
        rep_set_err(err, len, "%s: pipe: %s", path, strerror(errno));
        return NULL;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, p[1], STDOUT_FILENO);
    char *argv[] = {"gzip", "-dc", "--", (char *)path, NULL};
    int rc = posix_spawnp(&s->pid, "gzip", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(p[1]);
    if (rc != 0) {
        close(p[0]);
        s->pid = -1;
        rep_set_err(err, len, "%s: cannot run gzip -dc: %s", path, strerror(rc));
        return NULL;
    }
    f = fdopen(p[0], "r");
    if (!f) {
        close(p[0]);
        tc_record_close(NULL, s);
        rep_set_err(err, len, "%s: %s", path, strerror(errno));
    }
    return f;
}

int tc_record_close(FILE *f, tc_record_file *s)
{
    if (f)
        fclose(f); /* first: a gzip still writing gets SIGPIPE instead of blocking */
    free(s->text);
    s->text = NULL;
    if (s->pid < 0)
        return 0;
    int st = 0;
    pid_t w;
    while ((w = waitpid(s->pid, &st, 0)) < 0 && errno == EINTR)
        ;
    s->pid = -1;
    return w > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

json_t *tc_json_load_file(const char *path, size_t flags, char *err, size_t len)
{
    tc_record_file s;
    FILE *f = tc_record_open(path, &s, err, len);
    if (!f)
        return NULL;
    json_error_t je;
    json_t *doc = json_loadf(f, flags, &je);
    if (tc_record_close(f, &s) != 0) {
        json_decref(doc);
        rep_set_err(err, len, "%s: gzip -dc failed (a truncated or corrupt file)", path);
        return NULL;
    }
    if (!doc)
        rep_set_err(err, len, "%s: %s (line %d)", path, je.text, je.line);
    return doc;
}
