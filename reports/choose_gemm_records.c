/* The library GEMM records choose reads (reports/choose_app.h
 * tc_choose_gemm_records), behind one function so that it can give way to
 * the gemm records' own reader: a file (gzip-compressed or not) holding
 * either `tcscope gemm` lines ({"record":"tcscope-gemm",...} per case) or a
 * tcscope-record/1 whose objects of kind "gemm" are the cases (header
 * "record":"gemm", ended by the "end" trailer). Either way the result is
 * the per-case objects with a path and a k. */
#include <stdlib.h>
#include <string.h>

#include "reports/choose_app.h"
#include "reports/reports_internal.h"

static const char *str_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

json_t *tc_choose_gemm_records(const char *path, char *err, size_t len)
{
    rep_stream st;
    FILE *f = rep_record_open(path, &st, err, len);
    if (!f)
        return NULL;
    json_t *all = json_array();
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    ssize_t n;
    bool bad = false, record1 = false, ended = false;
    while (!bad && (n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (strspn(line, " \t\r\n") == (size_t)n)
            continue;
        json_error_t je;
        json_t *o = json_loads(line, 0, &je);
        bool keep = false;
        if (!json_is_object(o)) {
            rep_set_err(err, len, "%s:%zu: not a JSON object (%s)", path, lineno, o ? "another JSON value" : je.text);
            bad = true;
        } else if (lineno == 1 && !strncmp(str_of(o, "schema"), "tcscope-record/", 15)) {
            record1 = true;   /* the header: nothing of a case in it */
            if (strcmp(str_of(o, "schema"), TC_RECORD_SCHEMA))
                rep_set_err(err, len, "%s: schema %s, this tcscope reads %s", path, str_of(o, "schema"),
                            TC_RECORD_SCHEMA), bad = true;
        } else if (record1 && ended) {
            rep_set_err(err, len, "%s:%zu: a line after the record's trailer", path, lineno), bad = true;
        } else if (record1) {
            ended = !strcmp(str_of(o, "kind"), "end");
            keep = !strcmp(str_of(o, "kind"), "gemm");
            if (!strcmp(str_of(o, "kind"), "partial"))
                ended = true;   /* a stopped run: its cases are still cases */
        } else if (strcmp(str_of(o, "record"), "tcscope-gemm")) {
            rep_set_err(err, len, "%s:%zu: neither a tcscope-gemm line nor a tcscope-record/1", path, lineno);
            bad = true;
        } else
            keep = true;
        if (!bad && keep && (!json_is_string(json_object_get(o, "path")) || !json_is_integer(json_object_get(o, "k")))) {
            rep_set_err(err, len, "%s:%zu: a gemm case without its path and k", path, lineno);
            bad = true;
        }
        if (!bad && keep)
            json_array_append(all, o);
        json_decref(o);
    }
    free(line);
    if (rep_record_close(f, &st) && !bad)
        rep_set_err(err, len, "%s: truncated or corrupt gzip stream", path), bad = true;
    if (!bad && record1 && !ended)
        rep_set_err(err, len, "%s: no trailer (a truncated record)", path), bad = true;
    if (!bad && !json_array_size(all))
        rep_set_err(err, len, "%s: no gemm case", path), bad = true;
    if (bad) {
        json_decref(all);
        return NULL;
    }
    return all;
}
