/* reports/file_tree.h: a folder's or an archive's regular files, in memory,
 * within LIMITS.md's caps. The caps are checked on the bytes actually read,
 * not on the sizes a member's header claims. */
#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reports/file_tree.h"
#include "reports/reports_internal.h"
#include "reports/text.h"

/* A name for messages: escaped, cut as LIMITS.md says. */
static const char *shown(const char *name, char buf[TC_TEXT_CUT_MAX])
{
    tc_text_cut(name, buf);
    return buf;
}

void tc_tree_free(tc_tree *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->files[i].name);
        free(t->files[i].data);
    }
    free(t->files);
    memset(t, 0, sizeof *t);
}

const tc_tree_file *tc_tree_find(const tc_tree *t, const char *name)
{
    for (size_t i = 0; i < t->n; i++)
        if (!strcmp(t->files[i].name, name))
            return &t->files[i];
    return NULL;
}

/* "./a//b/" -> "a/b"; NULL for an empty, absolute or ".." name. */
static char *clean_name(const char *raw)
{
    if (!raw || raw[0] == '/')
        return NULL;
    char *out = malloc(strlen(raw) + 1), *o = out;
    if (!out)
        return NULL;
    for (const char *p = raw; *p;) {
        size_t n = strcspn(p, "/");
        if ((n == 2 && !strncmp(p, "..", 2))) {
            free(out);
            return NULL;
        }
        if (n && !(n == 1 && p[0] == '.')) {
            if (o > out)
                *o++ = '/';
            memcpy(o, p, n);
            o += n;
        }
        p += n + (p[n] == '/');
    }
    *o = '\0';
    if (o == out) {
        free(out);
        return NULL;
    }
    return out;
}

/* Adds name (stolen) with data (stolen, size bytes + NUL); checks the caps. */
static int add_file(tc_tree *t, char *name, unsigned char *data, size_t size, char *err, size_t len)
{
    char b[TC_TEXT_CUT_MAX];
    if (tc_tree_find(t, name)) {
        rep_set_err(err, len, "member '%s' is given twice", shown(name, b));
        goto fail;
    }
    if (t->n >= TC_TREE_FILES_MAX) {
        rep_set_err(err, len, "more than %d files", TC_TREE_FILES_MAX);
        goto fail;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        tc_tree_file *g = realloc(t->files, cap * sizeof *g);
        if (!g) {
            rep_set_err(err, len, "out of memory");
            goto fail;
        }
        t->files = g;
        t->cap = cap;
    }
    t->files[t->n++] = (tc_tree_file){name, data, size};
    return 0;
fail:
    free(name);
    free(data);
    return -1;
}

/* Reads at most the caps' worth through read_fn into a new buffer. */
typedef ssize_t (*read_fn)(void *src, void *buf, size_t n);

static unsigned char *read_capped(read_fn rd, void *src, const tc_tree *t, const char *name, size_t *size,
                                  bool *read_failed, char *err, size_t len)
{
    *read_failed = false;
    size_t cap = 0, n = 0;
    unsigned char *buf = NULL;
    char b[TC_TEXT_CUT_MAX];
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            unsigned char *g = realloc(buf, cap + 1);
            if (!g) {
                rep_set_err(err, len, "out of memory");
                break;
            }
            buf = g;
        }
        ssize_t got = rd(src, buf + n, cap - n);
        if (got < 0) {
            *read_failed = true;
            rep_set_err(err, len, "%s: read error", shown(name, b));
            break;
        }
        if (got == 0) {
            buf[n] = '\0';
            *size = n;
            return buf;
        }
        n += (size_t)got;
        if (n > TC_TREE_MEMBER_MAX) {
            rep_set_err(err, len, "%s: larger than %zu MiB (the cap of one file, LIMITS.md)", shown(name, b),
                        TC_TREE_MEMBER_MAX >> 20);
            break;
        }
        if (t->total + n > TC_TREE_TOTAL_MAX) {
            rep_set_err(err, len, "more than %zu MiB in all (the cap of an archive, LIMITS.md) at %s",
                        TC_TREE_TOTAL_MAX >> 20, shown(name, b));
            break;
        }
    }
    free(buf);
    return NULL;
}

static ssize_t read_archive(void *a, void *buf, size_t n)
{
    la_ssize_t got = archive_read_data(a, buf, n);
    return got < 0 ? -1 : (ssize_t)got;
}

static ssize_t read_fd(void *fd, void *buf, size_t n)
{
    return read(*(int *)fd, buf, n);
}

static const char *kind_of(mode_t type)
{
    switch (type) {
    case AE_IFLNK: return "a symbolic link";
    case AE_IFCHR: return "a character device";
    case AE_IFBLK: return "a block device";
    case AE_IFIFO: return "a FIFO";
    case AE_IFSOCK: return "a socket";
    default: return "not a regular file";
    }
}

static int read_members(struct archive *a, tc_tree *t, char *err, size_t len)
{
    struct archive_entry *e;
    int r;
    char b[TC_TEXT_CUT_MAX];
    while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
        const char *raw = archive_entry_pathname(e);
        mode_t type = archive_entry_filetype(e);
        if (type == AE_IFDIR)
            continue;
        if (archive_entry_hardlink(e) || type != AE_IFREG) {
            rep_set_err(err, len, "member '%s' is %s: only regular files are read", shown(raw, b),
                        archive_entry_hardlink(e) ? "a hard link" : kind_of(type));
            return -1;
        }
        char *name = clean_name(raw);
        if (!name) {
            rep_set_err(err, len, "member '%s': an empty or absolute name, or one with a '..' part",
                        shown(raw, b));
            return -1;
        }
        if (archive_entry_size_is_set(e) && archive_entry_size(e) > (la_int64_t)TC_TREE_MEMBER_MAX) {
            rep_set_err(err, len, "%s: larger than %zu MiB (the cap of one file, LIMITS.md)", shown(name, b),
                        TC_TREE_MEMBER_MAX >> 20);
            free(name);
            return -1;
        }
        size_t size;
        bool bad;
        unsigned char *data = read_capped(read_archive, a, t, name, &size, &bad, err, len);
        if (!data) {
            const char *why = archive_error_string(a);
            if (bad)
                rep_set_err(err, len, "%s: %s", shown(name, b), why ? why : "read error");
            free(name);
            return -1;
        }
        t->total += size;
        if (add_file(t, name, data, size, err, len))
            return -1;
    }
    if (r != ARCHIVE_EOF) {
        const char *why = archive_error_string(a);
        rep_set_err(err, len, "not a readable archive (%s)", why ? why : "unknown error");
        return -1;
    }
    return 0;
}

/* libarchive's reader for tar, plain or compressed by a filter it has
 * built in (never one run as an external program). */
static struct archive *new_reader(void)
{
    struct archive *a = archive_read_new();
    if (a) {
        archive_read_support_filter_xz(a);
        archive_read_support_filter_gzip(a);
        archive_read_support_filter_zstd(a);
        archive_read_support_format_tar(a);
    }
    return a;
}

static int finish(struct archive *a, int opened, tc_tree *t, char *err, size_t len)
{
    int rc = -1;
    if (opened != ARCHIVE_OK) {
        const char *why = archive_error_string(a);
        rep_set_err(err, len, "not a readable archive (%s)", why ? why : "unknown error");
    } else
        rc = read_members(a, t, err, len);
    archive_read_free(a);
    if (rc)
        tc_tree_free(t);
    return rc;
}

int tc_tree_from_archive(const char *path, tc_tree *t, char *err, size_t len)
{
    memset(t, 0, sizeof *t);
    struct archive *a = new_reader();
    if (!a) {
        rep_set_err(err, len, "out of memory");
        return -1;
    }
    int rc = finish(a, archive_read_open_filename(a, path, 65536), t, err, len);
    if (rc) {
        char b[TC_TEXT_CUT_MAX], why[400];
        snprintf(why, sizeof why, "%s", err);
        rep_set_err(err, len, "%s: %s", shown(path, b), why);
    }
    return rc;
}

int tc_tree_from_memory(const void *buf, size_t size, tc_tree *t, char *err, size_t len)
{
    memset(t, 0, sizeof *t);
    struct archive *a = new_reader();
    if (!a) {
        rep_set_err(err, len, "out of memory");
        return -1;
    }
    return finish(a, archive_read_open_memory(a, buf, size), t, err, len);
}

/* Folder dir (rel: its name in the tree), `depth` levels of it. */
static int walk(const char *dir, const char *rel, int depth, tc_tree *t, char *err, size_t len)
{
    DIR *d = opendir(dir);
    char b[TC_TEXT_CUT_MAX];
    if (!d) {
        rep_set_err(err, len, "%s: %s", shown(dir, b), strerror(errno));
        return -1;
    }
    int rc = 0;
    struct dirent *e;
    while (!rc && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096], name[4096];
        struct stat st;
        if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
            snprintf(name, sizeof name, "%s%s%s", rel, *rel ? "/" : "", e->d_name) >= (int)sizeof name)
            continue;
        if (stat(path, &st) != 0)
            continue;
        if (depth > 1 && S_ISDIR(st.st_mode))
            rc = walk(path, name, depth - 1, t, err, len);
        else if (depth == 1 && S_ISREG(st.st_mode)) {
            int fd = open(path, O_RDONLY | O_CLOEXEC);
            size_t size;
            bool bad;
            unsigned char *data = fd >= 0 ? read_capped(read_fd, &fd, t, name, &size, &bad, err, len) : NULL;
            if (fd >= 0)
                close(fd);
            char *copy = strdup(name);
            if (!data || !copy) {
                if (fd < 0 || !copy)
                    rep_set_err(err, len, "%s: %s", shown(path, b), fd < 0 ? strerror(errno) : "out of memory");
                free(data);
                free(copy);
                rc = -1;
                break;
            }
            t->total += size;
            rc = add_file(t, copy, data, size, err, len);
        }
    }
    closedir(d);
    return rc;
}

int tc_tree_from_dir(const char *root, int depth, tc_tree *t, char *err, size_t len)
{
    memset(t, 0, sizeof *t);
    int rc = walk(root, "", depth, t, err, len);
    if (rc)
        tc_tree_free(t);
    return rc;
}

static int cmp_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

void tc_tree_names_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

size_t tc_tree_folders(const tc_tree *t, const char *prefix, char ***out)
{
    size_t pl = strlen(prefix), n = 0;
    *out = NULL;
    for (size_t i = 0; i < t->n; i++) {
        const char *name = t->files[i].name;
        if (strncmp(name, prefix, pl))
            continue;
        const char *rest = name + pl, *slash = strchr(rest, '/');
        if (!slash || rest[0] == '.')
            continue;
        size_t fl = (size_t)(slash - rest);
        bool seen = false;
        for (size_t k = 0; k < n && !seen; k++)
            seen = strlen((*out)[k]) == fl && !strncmp((*out)[k], rest, fl);
        if (seen)
            continue;
        char **g = realloc(*out, (n + 1) * sizeof *g);
        char *copy = strndup(rest, fl);
        if (!g || !copy) {
            free(copy);
            if (g)
                *out = g;
            break;
        }
        *out = g;
        (*out)[n++] = copy;
    }
    if (n)
        qsort(*out, n, sizeof **out, cmp_name);
    return n;
}
