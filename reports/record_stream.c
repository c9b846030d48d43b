/* A record printed as it is made (`tcscope audit --json`): the header
 * first, each object when it is finished, the trailer with the count last,
 * so that what a command prints is a record `compare` reads. */
#include <stdio.h>

#include "reports/reports_internal.h"
#include "reports/reports.h"

int tc_record_stream_begin(tc_record_stream *s, FILE *f, const json_t *header, char *err, size_t len)
{
    s->f = f;
    s->objects = 0;
    char why[200];
    if (!tc_record_check_header(header, why, sizeof why)) {
        rep_set_err(err, len, "header: %s", why);
        return -1;
    }
    s->kind = json_string_value(json_object_get(header, "kind"));
    int rc = rep_write_line(f, header);
    fflush(f);
    return rc;
}

int tc_record_stream_object(tc_record_stream *s, const json_t *o, char *err, size_t len)
{
    char why[300];
    json_t *one = json_pack("[O]", o);
    json_t *hdr = json_pack("{s:s}", "kind", s->kind ? s->kind : "mixed");
    bool ok = tc_record_check_object(o, why, sizeof why) && tc_record_check_kinds(hdr, one, why, sizeof why);
    json_decref(one);
    json_decref(hdr);
    if (!ok) {
        rep_set_err(err, len, "%s", why);
        return -1;
    }
    int rc = rep_write_line(s->f, o);
    fflush(s->f);
    s->objects += rc == 0;
    return rc;
}

int tc_record_stream_end(tc_record_stream *s, const char *partial)
{
    json_t *t = rep_trailer_new(s->objects, partial);
    int rc = rep_write_line(s->f, t);
    json_decref(t);
    fflush(s->f);
    return rc;
}
