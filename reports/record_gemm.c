/* gemm records (reports/record_gemm.h): the run's header, and the reader
 * of gemm cases from a tcscope-record/1 or from the older lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/record_gemm.h"
#include "reports/reports.h"
#include "reports/record_packed.h"
#include "reports/reports_internal.h"

json_t *tc_gemm_record_header(const tc_gemm_run_facts *f)
{
    tc_run_info run;
    memset(&run, 0, sizeof run);
    snprintf(run.backend, sizeof run.backend, "%s", f->backend);
    snprintf(run.device, sizeof run.device, "%s", f->device);
    json_t *h = tc_record_header("gemm", &run, &f->seed, 1);
    json_object_set_new(h, "library", json_string(f->library));
    json_object_set_new(h, "library_version", json_integer(f->library_version));
    json_object_set_new(h, "cases_planned", json_integer(f->cases_planned));
    json_object_set_new(h, "time_limit_s", f->time_limit_s > 0 ? json_real(f->time_limit_s) : json_null());
    return h;
}

static const char *str_of(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "?";
}

/* An older line as a case object: "kind" first, "record" dropped. */
static json_t *from_line(json_t *o)
{
    json_t *c = json_pack("{s:s}", "kind", "gemm");
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) if (strcmp(k, "record") && strcmp(k, "kind")) json_object_set(c, k, v);
    json_decref(o);
    return c;
}

/* One non-blank line (the nth) of a file; 0, or -1 with err. *ended: a trailer was read. */
static int one_line(const char *line, size_t nth, const char *name, size_t lineno, json_t *all, json_t **hdr,
                    bool *ended, char *err, size_t len)
{
    json_error_t je;
    json_t *o = json_loads(line, JSON_REJECT_DUPLICATES, &je);
    char why[300];
    if (!json_is_object(o)) {
        rep_set_err(err, len, "%s:%zu: not a JSON object (%s)", name, lineno, o ? "another JSON value" : je.text);
        json_decref(o);
        return -1;
    }
    if (nth == 1 && json_object_get(o, "schema")) {   /* a record's header */
        const char *kind = tc_record_header_kind(o);
        if (!tc_record_check_header(o, why, sizeof why) || !kind || strcmp(kind, "gemm")) {
            rep_set_err(err, len, "%s:%zu: not a gemm record (%s)", name, lineno,
                        kind && strcmp(kind, "gemm") ? "another kind of record" : why);
            json_decref(o);
            return -1;
        }
        *hdr = o;
        return 0;
    }
    const char *kind = json_string_value(json_object_get(o, "kind"));
    if (*ended) {
        rep_set_err(err, len, "%s:%zu: data after the trailer", name, lineno);
    } else if (*hdr && kind && (!strcmp(kind, "end") || !strcmp(kind, "partial"))) {
        if (!rep_trailer_count_ok(o, json_array_size(all), "cases", why, sizeof why)) {
            rep_set_err(err, len, "%s:%zu: %s", name, lineno, why);
        } else {
            if (!strcmp(kind, "partial"))
                json_object_set_new(*hdr, "stopped", json_string(json_is_string(json_object_get(o, "stopped"))
                                                                     ? str_of(o, "stopped") : "no reason given"));
            *ended = true;
            json_decref(o);
            return 0;
        }
    } else if (*hdr && (!kind || strcmp(kind, "gemm") || !tc_record_check_object(o, why, sizeof why))) {
        rep_set_err(err, len, "%s:%zu: not a gemm case (%s)", name, lineno,
                    kind && strcmp(kind, "gemm") ? "another kind" : kind ? why : "no \"kind\"");
    } else if (!*hdr && strcmp(str_of(o, "record"), "tcscope-gemm")) {
        rep_set_err(err, len, "%s:%zu: neither a gemm record nor a tcscope-gemm line (\"record\": \"%.40s\")", name,
                    lineno, str_of(o, "record"));
    } else if (!json_is_string(json_object_get(o, "path")) || !json_is_integer(json_object_get(o, "k"))) {
        rep_set_err(err, len, "%s:%zu: a gemm case without its path and k", name, lineno);
    } else {
        o = *hdr ? o : from_line(o);
        if (rep_check_ranges(o, why, sizeof why)) {
            json_array_append_new(all, o);
            return 0;
        }
        rep_set_err(err, len, "%s:%zu: not a gemm case (%s)", name, lineno, why);
    }
    json_decref(o);
    return -1;
}

static json_t *read_cases(FILE *f, const char *name, json_t **header, char *err, size_t len)
{
    json_t *all = json_array(), *hdr = NULL;
    char *line = NULL;
    size_t cap = 0, lineno = 0, nth = 0;
    ssize_t n;
    bool ended = false;
    int bad = 0;
    while (!bad && (n = getline(&line, &cap, f)) >= 0) {
        lineno++;
        if (strspn(line, " \t\r\n") != (size_t)n)
            bad = one_line(line, ++nth, name, lineno, all, &hdr, &ended, err, len);
    }
    free(line);
    if (!bad && hdr && !ended) {
        rep_set_err(err, len, "%s: no trailer after %zu cases: the run was cut before it ended (killed?); "
                              "gemm --time-limit stops between cases and ends the record", name, json_array_size(all));
        bad = 1;
    }
    if (!bad && !json_array_size(all)) {
        rep_set_err(err, len, "%s: no gemm case", name);
        bad = 1;
    }
    if (bad) {
        json_decref(all), json_decref(hdr);
        return NULL;
    }
    if (header)
        *header = hdr;
    else
        json_decref(hdr);
    return all;
}

json_t *tc_gemm_records_load(const char *path, json_t **header, char *err, size_t len)
{
    if (header)
        *header = NULL;
    tc_record_file st;
    FILE *f = tc_record_open(path, &st, err, len);
    if (!f)
        return NULL;
    json_t *all = read_cases(f, path, header, err, len);
    if (tc_record_close(f, &st) && all) {
        rep_set_err(err, len, "%s: truncated or corrupt gzip stream", path);
        json_decref(all);
        if (header)
            json_decref(*header), *header = NULL;
        return NULL;
    }
    return all;
}

json_t *tc_gemm_records_parse(const char *text, const char *name, json_t **header, char *err, size_t len)
{
    if (header)
        *header = NULL;
    FILE *f = *text ? fmemopen((void *)text, strlen(text), "r") : NULL;
    if (!f) {
        rep_set_err(err, len, "%s: %s", name, *text ? "cannot read the text" : "empty: no gemm case");
        return NULL;
    }
    json_t *all = read_cases(f, name, header, err, len);
    fclose(f);
    return all;
}
