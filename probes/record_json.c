/* JSON lines of the probes' records (see record_json.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/record_json.h"

json_t *tc_line_load(const char *line, char *err, size_t errlen)
{
    json_error_t je;
    json_t *j = json_loads(line, 0, &je);
    if (!j)
        snprintf(err, errlen, "bad JSON: %s", je.text);
    return j;
}

static size_t digits_of(const tc_format *f)
{
    return (size_t)(f->storage_bits + 3) / 4;
}

int tc_hex_put(json_t *j, const char *key, const uint64_t *x, size_t n, const tc_format *f)
{
    size_t w = digits_of(f);
    char *s = malloc(n * w + 1);
    if (!s)
        return -1;
    static const char dig[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++)
        for (size_t q = 0; q < w; q++)
            s[i * w + q] = dig[(x[i] >> (4 * (w - 1 - q))) & 15];
    s[n * w] = '\0';
    json_object_set_new(j, key, json_string(s));
    free(s);
    return 0;
}

uint64_t *tc_hex_get(json_t *j, const char *key, size_t n, const tc_format *f)
{
    const char *s = json_string_value(json_object_get(j, key));
    size_t w = digits_of(f);
    if (!s || strlen(s) != n * w)
        return NULL;
    uint64_t *x = malloc(n * 8 + 8); /* + 8: n may be 0 */
    for (size_t i = 0; x && i < n; i++) {
        uint64_t v = 0;
        for (size_t q = 0; q < w; q++) {
            char c = s[i * w + q];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0) {
                free(x);
                return NULL;
            }
            v = v << 4 | (uint64_t)d;
        }
        x[i] = v;
    }
    return x;
}

/* ---- Bare lines or a record of them (record_json.h) --------------------- */

/* The probes do not include reports/reports.h (the layers of doc/design.md): this
 * is its TC_RECORD_SCHEMA, which test_corpus checks is the same string. */
#define LINES_SCHEMA "tcscope-record/1"

enum { TC_LINES_START, TC_LINES_BARE, TC_LINES_RECORD, TC_LINES_ENDED };

void tc_lines_init(tc_lines *s, const char *record)
{
    *s = (tc_lines){.record = record, .state = TC_LINES_START};
}

/* A header or trailer is told by how the writers begin it (reports'
 * tc_record_header, rep_trailer_new: "schema" first, "kind" first): the
 * lines themselves never begin so, and a 100 MB line is not parsed twice. */
static bool starts(const char *line, const char *p)
{
    return !strncmp(line, p, strlen(p));
}

static int check_header(const tc_lines *s, const char *line, char *err, size_t errlen)
{
    json_t *h = tc_line_load(line, err, errlen);
    if (!h)
        return -1;
    const char *schema = json_string_value(json_object_get(h, "schema")),
               *record = json_string_value(json_object_get(h, "record"));
    int rc = schema && !strcmp(schema, LINES_SCHEMA) && record && !strcmp(record, s->record) ? 0 : -1;
    if (rc)
        snprintf(err, errlen, "header: not a %s record \"%s\" (schema '%s', record '%s')", LINES_SCHEMA, s->record,
                 schema ? schema : "?", record ? record : "?");
    json_decref(h);
    return rc;
}

static int check_trailer(const tc_lines *s, const char *line, char *err, size_t errlen)
{
    json_t *t = tc_line_load(line, err, errlen);
    if (!t)
        return -1;
    const char *kind = json_string_value(json_object_get(t, "kind"));
    json_t *n = json_object_get(t, "objects");
    int rc = kind && !strcmp(kind, "end") && json_is_integer(n) && (uint64_t)json_integer_value(n) == s->objects &&
                     json_integer_value(n) >= 0
                 ? 0
                 : -1;
    if (rc && kind && !strcmp(kind, "partial"))
        snprintf(err, errlen, "the record ends \"partial\": the run that wrote it stopped (%s)",
                 json_string_value(json_object_get(t, "stopped")) ? json_string_value(json_object_get(t, "stopped"))
                                                                   : "no reason given");
    else if (rc)
        snprintf(err, errlen, "trailer: not {\"kind\":\"end\",\"objects\":%zu}", s->objects);
    json_decref(t);
    return rc;
}

int tc_lines_next(tc_lines *s, const char *line, char *err, size_t errlen)
{
    if (line[0] == '\n' || line[0] == '\0')
        return 0;
    bool header = starts(line, "{\"schema\":"),
         trailer = starts(line, "{\"kind\":\"end\"") || starts(line, "{\"kind\":\"partial\"");
    switch (s->state) {
    case TC_LINES_START:
        if (header) {
            if (check_header(s, line, err, errlen))
                return -1;
            s->state = TC_LINES_RECORD;
            return 0;
        }
        s->state = TC_LINES_BARE;
        break;
    case TC_LINES_RECORD:
        if (trailer) {
            if (check_trailer(s, line, err, errlen))
                return -1;
            s->state = TC_LINES_ENDED;
            return 0;
        }
        break;
    case TC_LINES_ENDED:
        snprintf(err, errlen, "a line after the record's trailer");
        return -1;
    default:
        break;
    }
    if (header || trailer) {
        snprintf(err, errlen, "a record %s where a line was expected", header ? "header" : "trailer");
        return -1;
    }
    s->objects++;
    return 1;
}

int tc_lines_end(const tc_lines *s, char *err, size_t errlen)
{
    if (s->state == TC_LINES_RECORD) {
        snprintf(err, errlen, "the record has no trailer after its %zu objects: the file is cut short", s->objects);
        return -1;
    }
    return 0;
}
