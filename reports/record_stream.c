/* A record printed as it is made (`tcscope audit --json`): the header
 * first, each object when it is finished, the trailer with the count last,
 * so that what a command prints is a record `compare` reads. */
#include <stdio.h>
#include <string.h>

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
    s->kind = tc_record_header_kind(header);
    int rc = rep_write_line(f, header);
    fflush(f);
    return rc;
}

int tc_record_stream_object(tc_record_stream *s, const json_t *o, char *err, size_t len)
{
    char why[300];
    json_t *one = json_pack("[O]", o);
    json_t *hdr = json_pack("{s:s}", "record", s->kind ? s->kind : "mixed");
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

int tc_json_out_begin(tc_json_out *j, bool on, json_t *header)
{
    *j = (tc_json_out){.on = on};
    if (!on) {
        json_decref(header);
        return 0;
    }
    j->header = header;
    char err[300];
    if (tc_record_stream_begin(&j->s, stdout, header, err, sizeof err) != 0) {
        fprintf(stderr, "tcscope: --json: %s\n", err);
        json_decref(header);
        j->header = NULL;
        j->failed = true;
        return -1;
    }
    return 0;
}

int tc_json_out_put(tc_json_out *j, const char *kind, json_t *o)
{
    if (!j->on || j->failed) {
        json_decref(o);
        return j->on ? -1 : 0;
    }
    /* "kind" first: a reader of the line sees what it is before the rest */
    json_t *line = json_pack("{s:s}", "kind", kind);
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v) if (strcmp(k, "kind")) json_object_set(line, k, v);
    json_decref(o);
    char err[300];
    int rc = tc_record_stream_object(&j->s, line, err, sizeof err);
    json_decref(line);
    if (rc != 0) {
        fprintf(stderr, "tcscope: --json: %s object: %s\n", kind, err);
        j->failed = true;
    }
    return rc;
}

/* Whether a --json record of this process ended "partial" (main's exit status). */
static bool ended_partial;

bool tc_json_out_ended_partial(void)
{
    return ended_partial;
}

int tc_json_out_end(tc_json_out *j, const char *why)
{
    int rc = 0;
    ended_partial = ended_partial || (j->on && j->header && (why || j->failed));
    if (j->on && j->header)
        rc = tc_record_stream_end(&j->s, why ? why : j->failed ? "an object failed the schema check" : NULL);
    json_decref(j->header);
    j->header = NULL;
    return rc;
}
