/* Output folders: every file a command writes is created here, inside the
 * folder given with --out, under a plain name, through a temporary file that
 * is renamed into place, never through a symbolic link. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reports/reports_internal.h"
#include "reports/reports.h"

bool tc_out_name_ok(const char *name, char *err, size_t len)
{
    const char *why = NULL;
    size_t n = name ? strlen(name) : 0;
    if (n == 0)
        why = "empty";
    else if (n > TC_OUT_NAME_MAX)
        why = "longer than 200 bytes";
    for (const char *p = name; p && *p && !why; p++)
        if (*p == '/')
            why = "contains '/' (a plain file name, written inside the output folder)";
        else if ((unsigned char)*p < 0x20 || *p == 0x7f)
            why = "contains a control character";
    if (!why && name[0] == '.')
        why = "starts with '.' (hidden files, '.' and '..' are not output names)";
    if (why && !strcmp(why, "contains a control character")) /* not echoed to a terminal */
        rep_set_err(err, len, "bad output name: %s", why);
    else if (why)
        rep_set_err(err, len, "bad output name '%.*s': %s", n > 64 ? 64 : (int)n, name ? name : "", why);
    return !why;
}

/* Opens component `name` of the folder path under `at`, creating it when
 * missing. A component made here, and the output folder itself, are opened
 * without following a symbolic link: a link put there by someone else is
 * refused rather than written through. */
static int open_component(int at, const char *name, bool last, const char *shown, char *err, size_t len)
{
    bool made = mkdirat(at, name, 0777) == 0;
    if (!made && errno != EEXIST) {
        rep_set_err(err, len, "cannot create %s: %s", shown, strerror(errno));
        return -1;
    }
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | (made || last ? O_NOFOLLOW : 0));
    if (fd < 0) {
        struct stat st;
        if ((errno == ELOOP || errno == ENOTDIR) && fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISLNK(st.st_mode))
            rep_set_err(err, len, "%s is a symbolic link: not followed (give the folder it points to)", shown);
        else
            rep_set_err(err, len, "cannot open the folder %s: %s", shown, strerror(errno));
    }
    return fd;
}

static int outdir_open(tc_outdir *d, const char *path, bool force, bool lock, char *err, size_t len)
{
    memset(d, 0, sizeof *d);
    d->fd = -1;
    d->lock_fd = -1;
    d->force = force;
    size_t n = path ? strlen(path) : 0;
    if (n == 0 || n >= sizeof d->path) {
        rep_set_err(err, len, "bad output folder '%s' (empty, or longer than %zu bytes)", path ? path : "",
                    sizeof d->path - 1);
        return -1;
    }
    memcpy(d->path, path, n + 1);
    char walk[sizeof d->path];
    memcpy(walk, path, n + 1);
    int at = open(path[0] == '/' ? "/" : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    char *save = NULL, *comp = strtok_r(walk, "/", &save);
    if (!comp) /* "/" itself */
        comp = ".";
    while (at >= 0 && comp) {
        char *next = strtok_r(NULL, "/", &save);
        /* what has been walked so far, for messages */
        size_t shown_len = (size_t)(comp - walk) + strlen(comp);
        char shown[sizeof d->path];
        snprintf(shown, sizeof shown, "%.*s", (int)shown_len, path);
        int fd = strcmp(comp, ".") ? open_component(at, comp, !next, shown, err, len)
                                    : openat(at, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        close(at);
        at = fd;
        comp = next;
    }
    if (at < 0) {
        char why[600];
        snprintf(why, sizeof why, "%s", err ? err : "");
        rep_set_err(err, len, "output folder %s: %s", path, why);
        return -1;
    }
    d->fd = at;
    if (lock && rep_outdir_lock(d, err, len)) {
        close(d->fd);
        d->fd = -1;
        return -1;
    }
    return 0;
}

int tc_outdir_open(tc_outdir *d, const char *path, bool force, char *err, size_t len)
{
    return outdir_open(d, path, force, true, err, len);
}

int tc_outdir_open_for_file(tc_outdir *d, const char *path, bool force, char *err, size_t len)
{
    return outdir_open(d, path, force, false, err, len);
}

int tc_outdir_sub(const tc_outdir *parent, const char *name, tc_outdir *d, char *err, size_t len)
{
    memset(d, 0, sizeof *d);
    d->fd = -1;
    d->lock_fd = -1;
    d->force = parent->force;
    if (!tc_out_name_ok(name, err, len))
        return -1;
    if (snprintf(d->path, sizeof d->path, "%s/%s", parent->path, name) >= (int)sizeof d->path) {
        rep_set_err(err, len, "%s/%s: path too long", parent->path, name);
        return -1;
    }
    d->fd = open_component(parent->fd, name, true, d->path, err, len);
    return d->fd < 0 ? -1 : 0;
}

void tc_outdir_close(tc_outdir *d)
{
    rep_outdir_unlock(d);
    if (d->fd >= 0)
        close(d->fd);
    d->fd = -1;
    json_decref(d->run);
    d->run = NULL;
}

/* 0: nothing there; 1: something there (err says what); -1: a symbolic link
 * or not a regular file, never replaced. */
static int entry_state(const tc_outdir *d, const char *name, char *err, size_t len)
{
    struct stat st;
    if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return 0;
    if (S_ISLNK(st.st_mode)) {
        rep_set_err(err, len, "%s/%s is a symbolic link: not written through and not replaced (remove it)",
                    d->path, name);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        rep_set_err(err, len, "%s/%s exists and is not a regular file", d->path, name);
        return -1;
    }
    rep_set_err(err, len, "%s/%s exists: kept (give --force to replace it, or another folder)", d->path, name);
    return 1;
}

int tc_out_check_free(const tc_outdir *d, const char *const *names, size_t n, char *err, size_t len)
{
    for (size_t i = 0; i < n; i++) {
        if (!tc_out_name_ok(names[i], err, len))
            return -1;
        int st = entry_state(d, names[i], err, len);
        if (st < 0 || (st > 0 && !d->force))
            return -1;
    }
    return 0;
}

int tc_out_remove(const tc_outdir *d, const char *name, char *err, size_t len)
{
    if (!tc_out_name_ok(name, err, len) || entry_state(d, name, err, len) < 0)
        return -1;
    if (unlinkat(d->fd, name, 0) != 0 && errno != ENOENT) {
        rep_set_err(err, len, "cannot remove %s/%s: %s", d->path, name, strerror(errno));
        return -1;
    }
    return 0;
}

/* A new temporary file ".NAME.tmp-XXXXXXXX" in the folder: O_EXCL and
 * O_NOFOLLOW, so nothing that was there (a link, a file) is ever opened. */
static int open_temp(const tc_outdir *d, const char *name, char *tmp, size_t tmplen, char *err, size_t len)
{
    for (int attempt = 0; attempt < 16; attempt++) {
        unsigned int r;
        if (getrandom(&r, sizeof r, 0) != (ssize_t)sizeof r)
            r = (unsigned int)getpid() * 2654435761u + (unsigned int)attempt;
        snprintf(tmp, tmplen, ".%s.tmp-%08x", name, r);
        int fd = openat(d->fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST) {
            if (fd < 0)
                rep_set_err(err, len, "cannot create a file in %s: %s", d->path, strerror(errno));
            return fd;
        }
    }
    rep_set_err(err, len, "cannot create a temporary file in %s", d->path);
    return -1;
}

/* Puts tmp in place of name: replacing a regular file only with force (a
 * link there is refused: rename would replace the link, but a run never
 * removes what it did not write). Without force the name must still be free. */
static int commit(const tc_outdir *d, const char *tmp, const char *name, char *err, size_t len)
{
    int st = entry_state(d, name, err, len);
    if (st < 0 || (st > 0 && !d->force))
        return -1;
    if (d->force) {
        if (renameat(d->fd, tmp, d->fd, name) == 0)
            return 0;
    } else if (linkat(d->fd, tmp, d->fd, name, 0) == 0) { /* fails when name appeared meanwhile */
        unlinkat(d->fd, tmp, 0);
        return 0;
    }
    rep_set_err(err, len, "cannot write %s/%s: %s", d->path, name, strerror(errno));
    return -1;
}

int tc_out_write(const tc_outdir *d, const char *name, int (*emit)(FILE *f, const void *ctx), const void *ctx,
                 char *err, size_t len)
{
    if (!tc_out_name_ok(name, err, len))
        return -1;
    char tmp[TC_OUT_NAME_MAX + 32];
    int fd = open_temp(d, name, tmp, sizeof tmp, err, len);
    if (fd < 0)
        return -1;
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlinkat(d->fd, tmp, 0);
        rep_set_err(err, len, "cannot write %s/%s: out of memory", d->path, name);
        return -1;
    }
    int rc = emit(f, ctx);
    /* On disk before the rename, so that a crash cannot leave the name with
     * a partly written file behind it. */
    if (fflush(f) != 0 || fsync(fileno(f)) != 0 || ferror(f))
        rc = -1;
    if (fclose(f) != 0)
        rc = -1;
    if (rc) {
        unlinkat(d->fd, tmp, 0);
        rep_set_err(err, len, "%s/%s: write failed", d->path, name);
        return -1;
    }
    if (commit(d, tmp, name, err, len)) {
        unlinkat(d->fd, tmp, 0);
        return -1;
    }
    return 0;
}

static int emit_text(FILE *f, const void *ctx)
{
    return fputs(ctx, f) < 0 ? -1 : 0;
}

int tc_out_write_text(const tc_outdir *d, const char *name, const char *text, char *err, size_t len)
{
    return tc_out_write(d, name, emit_text, text, err, len);
}
