/* Opening a record for reading: the baselines are committed gzip-compressed,
 * so a file that starts with gzip's magic bytes is read through `gzip -dc`
 * (spawned without a shell, its output on a pipe); any other file directly.
 * A truncated or corrupt .gz is an error when the stream is closed. */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reports/reports.h"
#include "reports/reports_internal.h"

extern char **environ;

FILE *rep_record_open(const char *path, rep_stream *s, char *err, size_t len)
{
    s->pid = -1;
    FILE *f = fopen(path, "rb");
    if (!f) {
        rep_set_err(err, len, "%s: %s", path, strerror(errno));
        return NULL;
    }
    unsigned char magic[2];
    size_t got = fread(magic, 1, 2, f);
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
        rep_record_close(NULL, s);
        rep_set_err(err, len, "%s: %s", path, strerror(errno));
    }
    return f;
}

int rep_record_close(FILE *f, rep_stream *s)
{
    if (f)
        fclose(f); /* first: a gzip still writing gets SIGPIPE instead of blocking */
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
    rep_stream s;
    FILE *f = rep_record_open(path, &s, err, len);
    if (!f)
        return NULL;
    json_error_t je;
    json_t *doc = json_loadf(f, flags, &je);
    if (rep_record_close(f, &s) != 0) {
        json_decref(doc);
        rep_set_err(err, len, "%s: gzip -dc failed (a truncated or corrupt file)", path);
        return NULL;
    }
    if (!doc)
        rep_set_err(err, len, "%s: %s (line %d)", path, je.text, je.line);
    return doc;
}
