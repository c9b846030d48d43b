/* Record files: header construction, JSON Lines reading and writing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "reports/record_packed.h"
#include "reports/reports_internal.h"
#include "reports/reports.h"

#ifndef TCSCOPE_VERSION
#define TCSCOPE_VERSION "0.1-unknown"
#endif

const char *tc_version(void)
{
    return TCSCOPE_VERSION;
}

uint64_t tc_corpus_hash(const uint64_t *bits, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 8; b++) {
            h ^= (bits[i] >> (8 * b)) & 0xff;
            h *= 0x100000001b3ull;
        }
    return h;
}

static json_t *bits_array(const uint64_t *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, tc_json_bits(v[i]));
    return a;
}

json_t *tc_record_corpus_new(const char *instr, const uint64_t *D, size_t n, size_t nkeep,
                             int k, const uint64_t *A, const uint64_t *B, const uint64_t *C)
{
    size_t keep = n < nkeep ? n : nkeep;
    char hash[24];
    snprintf(hash, sizeof hash, "0x%016llx", (unsigned long long)tc_corpus_hash(D, n));
    json_t *o = json_pack("{s:s, s:s, s:I, s:s, s:o}", "kind", "corpus", "instr", instr,
                          "count", (json_int_t)n, "hash", hash, "outputs", bits_array(D, keep));
    if (A && B && C && k > 0) {
        json_t *cases = json_array();
        for (size_t i = 0; i < keep; i++)
            json_array_append_new(cases, json_pack("{s:o, s:o, s:o}", "a",
                                                   bits_array(A + i * (size_t)k, (size_t)k), "b",
                                                   bits_array(B + i * (size_t)k, (size_t)k), "c",
                                                   tc_json_bits(C[i])));
        json_object_set_new(o, "inputs", cases);
    }
    return o;
}

json_t *tc_record_header(const char *kind, const tc_run_info *info, const uint64_t *seeds, size_t nseeds)
{
    char date[32], host[256] = "";
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (gethostname(host, sizeof host - 1) != 0)
        host[0] = '\0';
    json_t *sd = json_array();
    for (size_t i = 0; i < nseeds; i++)
        json_array_append_new(sd, tc_json_bits(seeds[i]));
    json_t *h = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "schema", TC_RECORD_SCHEMA, "record", kind,
                          "tcscope_version", tc_version(), "date", date, "host", host, "seeds", sd);
    json_object_set_new(h, "backend", json_string(info ? info->backend : ""));
    json_object_set_new(h, "gpu", json_string(info ? info->device : ""));
    json_object_set_new(h, "driver", json_string(info ? info->driver : ""));
    json_object_set_new(h, "cuda", json_string(info ? info->cuda : ""));
    json_object_set_new(h, "compiler", json_string(info ? info->compiler : ""));
    json_object_set_new(h, "sm", info && info->sm ? json_integer(info->sm) : json_null());
    json_object_set_new(h, "sm_count", info && info->sm_count ? json_integer(info->sm_count) : json_null());
    json_object_set_new(h, "clock_mhz",
                        info && info->clock_mhz ? json_integer(info->clock_mhz) : json_null());
    return h;
}

tc_record tc_record_new(json_t *header)
{
    tc_record r = {header, json_array()};
    return r;
}

int tc_record_add(tc_record *rec, json_t *obj, char *err, size_t len)
{
    if (!tc_record_check_object(obj, err, len)) {
        json_decref(obj);
        return -1;
    }
    json_array_append_new(rec->objects, obj);
    return 0;
}

void tc_record_free(tc_record *rec)
{
    json_decref(rec->header);
    json_decref(rec->objects);
    rec->header = rec->objects = NULL;
}

json_t *tc_record_objects_of(const tc_record *rec, const char *kind)
{
    json_t *out = json_array();
    size_t i;
    json_t *o;
    json_array_foreach(rec->objects, i, o)
    {
        const char *k = json_string_value(json_object_get(o, "kind"));
        if (k && !strcmp(k, kind))
            json_array_append(out, o);
    }
    return out;
}

/* The longest record line read (a corpus object with its outputs is the
 * longest kind; the baselines' longest line is under 1 MB). */
#define RECORD_LINE_MAX ((size_t)256 << 20)

/* One line of the file; NULL at end of file, or with *why set: a NUL byte
 * (json_loads would stop there and accept a line with garbage after it),
 * a line longer than RECORD_LINE_MAX, or no memory. */
static char *read_line(FILE *f, const char **why)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    int ch = 0;
    *why = buf ? NULL : "out of memory";
    while (buf && (ch = fgetc(f)) != EOF && ch != '\n') {
        if (ch == '\0' && !*why)
            *why = "NUL byte in the line";
        if (n + 1 >= cap) {
            char *nb = cap < RECORD_LINE_MAX ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                *why = cap < RECORD_LINE_MAX ? "out of memory" : "line longer than 256 MB";
                free(buf);
                return NULL;
            }
            buf = nb, cap *= 2;
        }
        buf[n++] = (char)ch;
    }
    if (!buf || (n == 0 && ch == EOF) || *why) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    return buf;
}

static bool is_kind(const json_t *o, const char *kind)
{
    const char *k = json_string_value(json_object_get(o, "kind"));
    return k && !strcmp(k, kind);
}

static bool is_trailer(const json_t *o)
{
    return is_kind(o, "end");
}

static bool is_partial(const json_t *o)
{
    return is_kind(o, "partial");
}

/* A slim record's full record loads as a record (the loader calls itself
 * here: the only recursion of record loading); one that is slim itself
 * would chain (or loop) and is refused. */
static _Thread_local int loading_reference;

/* NULL with err empty when header is not slim (record_slim.c reads it),
 * NULL with err set when its full record cannot be read. */
static rep_slim *slim_open(const char *path, const json_t *header, char *err, size_t len)
{
    char from[512];
    if (rep_slim_reference(path, header, from, sizeof from, err, len) <= 0)
        return NULL;
    if (loading_reference) {
        rep_set_err(err, len, "%s: slim record used as another slim record's full record", path);
        return NULL;
    }
    tc_record ref;
    char why[512];
    loading_reference = 1;
    int rc = tc_record_load(from, &ref, why, sizeof why);
    loading_reference = 0;
    if (rc) {
        rep_set_err(err, len, "%s: slim record: its full record %s: %s", path, from, why);
        return NULL;
    }
    rep_slim *s = rep_slim_new(header, from, ref.objects);
    tc_record_free(&ref);
    if (!s)
        rep_set_err(err, len, "%s: out of memory", path);
    return s;
}

/* The lines of f as a record (path names it in messages); the header and
 * objects are stored in rec only when it is whole and valid. 0 or -1. */
static int load_lines(FILE *f, const char *path, tc_record *rec, char *err, size_t len)
{
    json_t *objects = json_array(), *header = NULL;
    rep_slim *slim = NULL;
    bool ended = false;
    int lineno = 0, rc = -1;
    char *line;
    const char *why_line = NULL;
    while ((line = read_line(f, &why_line))) {
        lineno++;
        if (line[strspn(line, " \t\r")] == '\0') {
            free(line);
            continue;
        }
        json_error_t je;
        json_t *o = json_loads(line, JSON_REJECT_DUPLICATES, &je);
        free(line);
        if (!o || !json_is_object(o)) {
            rep_set_err(err, len, "%s:%d: not a JSON object%s%s", path, lineno, o ? "" : ": ",
                    o ? "" : je.text);
            json_decref(o);
            goto out;
        }
        if (ended) {
            rep_set_err(err, len, "%s:%d: data after the end trailer", path, lineno);
            json_decref(o);
            goto out;
        }
        if (!header) {
            header = o;
            char why[200];
            if (!tc_record_check_header(header, why, sizeof why)) {
                rep_set_err(err, len, "%s:%d: %s", path, lineno, why);
                goto out;
            }
            char why_slim[1024];
            if (!(slim = slim_open(path, header, why_slim, sizeof why_slim)) && why_slim[0]) {
                rep_set_err(err, len, "%s", why_slim);
                goto out;
            }
            continue;
        }
        if (is_partial(o)) {
            rep_set_err(err, len, "%s:%d: partial record: the run stopped after %lld objects (%s); not complete",
                        path, lineno, (long long)json_integer_value(json_object_get(o, "objects")),
                        json_string_value(json_object_get(o, "stopped")) ? json_string_value(json_object_get(o, "stopped"))
                                                                        : "no reason given");
            json_decref(o);
            goto out;
        }
        if (is_trailer(o)) {
            char why[200];
            if (!rep_trailer_count_ok(o, json_array_size(objects), "objects", why, sizeof why)) {
                rep_set_err(err, len, "%s:%d: %s", path, lineno, why);
                json_decref(o);
                goto out;
            }
            json_decref(o);
            ended = true;
            continue;
        }
        char why[700];
        if (slim && rep_slim_fill(slim, o, why, sizeof why)) {
            rep_set_err(err, len, "%s:%d: %s", path, lineno, why);
            json_decref(o);
            goto out;
        }
        if (!tc_record_check_object(o, why, sizeof why)) {
            rep_set_err(err, len, "%s:%d: %s", path, lineno, why);
            json_decref(o);
            goto out;
        }
        json_array_append_new(objects, o);
    }
    if (why_line) {
        rep_set_err(err, len, "%s:%d: %s", path, lineno + 1, why_line);
        goto out;
    }
    if (ferror(f)) {
        rep_set_err(err, len, "%s: read error: %s", path, strerror(errno ? errno : EIO));
        goto out;
    }
    if (!header) {
        rep_set_err(err, len, "%s: empty file, no record header", path);
        goto out;
    }
    if (!ended) {
        rep_set_err(err, len, "%s: truncated: no end trailer after %d lines", path, lineno);
        goto out;
    }
    char why_kinds[300];
    if (!tc_record_check_kinds(header, objects, why_kinds, sizeof why_kinds)) {
        rep_set_err(err, len, "%s: %s", path, why_kinds);
        goto out;
    }
    rc = 0;
out:
    rep_slim_close(slim);
    if (rc == 0) {
        rec->header = header;
        rec->objects = objects;
    } else {
        json_decref(header);
        json_decref(objects);
    }
    return rc;
}

int tc_record_load(const char *path, tc_record *rec, char *err, size_t len)
{
    rec->header = rec->objects = NULL;
    tc_record_file st;
    FILE *f = tc_record_open(path, &st, err, len);
    if (!f)
        return -1;
    int rc = load_lines(f, path, rec, err, len);
    if (rc == 0)
        rc = tc_record_check_current(path, rec->header, err, len);
    if (tc_record_close(f, &st) != 0 && rc == 0) {
        rep_set_err(err, len, "%s: gzip -dc failed (a truncated or corrupt file)", path);
        rc = -1;
    }
    if (rc != 0 && rec->header)
        tc_record_free(rec);
    return rc;
}

int tc_record_parse(const char *text, const char *name, tc_record *rec, char *err, size_t len)
{
    rec->header = rec->objects = NULL;
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    if (!f || !*text) { /* fmemopen of an empty buffer fails on some libcs */
        if (f)
            fclose(f);
        rep_set_err(err, len, "%s: empty output, no record header", name);
        return -1;
    }
    int rc = load_lines(f, name, rec, err, len);
    fclose(f);
    return rc;
}

bool rep_trailer_count_ok(const json_t *trailer, size_t have, const char *what, char *why, size_t len)
{
    json_t *cnt = json_object_get(trailer, "objects");
    if (json_is_integer(cnt) && json_integer_value(cnt) >= 0 && (size_t)json_integer_value(cnt) == have)
        return true;
    if (json_is_integer(cnt))
        snprintf(why, len, "the trailer says %lld %s, the file has %zu (truncated or edited)",
                 (long long)json_integer_value(cnt), what, have);
    else {
        char *text = cnt ? json_dumps(cnt, JSON_ENCODE_ANY) : NULL;
        snprintf(why, len, "the trailer's \"objects\" is %.56s, not a count (the file has %zu %s)",
                 text ? text : "absent", have, what);
        free(text);
    }
    return false;
}

json_t *rep_trailer_new(size_t objects, const char *partial)
{
    json_t *t = json_pack("{s:s, s:I}", "kind", partial ? "partial" : "end", "objects", (json_int_t)objects);
    if (partial)
        json_object_set_new(t, "stopped", json_string(partial));
    return t;
}

typedef struct {
    const json_t *header, *objects, *trailer;
} record_lines;

static int emit_record(FILE *f, const void *ctx)
{
    const record_lines *r = ctx;
    int rc = rep_write_line(f, r->header);
    size_t i;
    json_t *o;
    json_array_foreach(r->objects, i, o) if (rc == 0) rc = rep_write_line(f, o);
    return rc ? rc : rep_write_line(f, r->trailer);
}

int tc_record_write(const tc_outdir *d, const char *name, const tc_record *rec, const char *partial, char *err,
                    size_t len)
{
    char why[200];
    if (!tc_record_check_header(rec->header, why, sizeof why)) {
        rep_set_err(err, len, "header: %s", why);
        return -1;
    }
    size_t i;
    json_t *o;
    json_array_foreach(rec->objects, i, o)
    {
        if (!tc_record_check_object(o, why, sizeof why)) {
            rep_set_err(err, len, "object %zu: %s", i + 1, why);
            return -1;
        }
    }
    if (!tc_record_check_kinds(rec->header, rec->objects, why, sizeof why)) {
        rep_set_err(err, len, "%s", why);
        return -1;
    }
    json_t *header = json_copy(rec->header);
    if (d->run_id[0])
        json_object_set_new(header, "run_id", json_string(d->run_id));
    json_t *trailer = rep_trailer_new(json_array_size(rec->objects), partial);
    record_lines lines = {header, rec->objects, trailer};
    int rc = tc_out_write(d, name, emit_record, &lines, err, len);
    json_decref(header);
    json_decref(trailer);
    return rc;
}

int tc_record_save(const char *path, const tc_record *rec, char *err, size_t len)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + (slash == path) : 1, slash ? path : ".");
    tc_outdir d;
    if (tc_outdir_open_for_file(&d, dir, true, err, len))
        return -1;
    int rc = tc_record_write(&d, slash ? slash + 1 : path, rec, NULL, err, len);
    tc_outdir_close(&d);
    return rc;
}
