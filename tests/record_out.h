/* Tests: what a command printed with --json, read as the record it must be
 * (reports/record.c tc_record_parse: a header the checker accepts, every
 * object of a registered kind with its required fields, the trailer's
 * count). Separate from testutil.h, which needs no tcscope library. */
#ifndef TC_RECORD_OUT_H
#define TC_RECORD_OUT_H

#include <jansson.h>

#include "reports/reports.h"
#include "tests/testutil.h"

/* The record in out, or a failed test naming why it is none. Free with tc_record_free. */
static inline tc_record tc_out_record(const char *out, const char *what)
{
    tc_record rec;
    char err[600];
    if (tc_record_parse(out, what, &rec, err, sizeof err) != 0)
        fail_msg("%s: --json output is not a valid record: %s", what, err);
    return rec;
}

/* The objects of kind in out's record (a new array). */
static inline json_t *tc_out_objects(const char *out, const char *what, const char *kind)
{
    tc_record rec = tc_out_record(out, what);
    json_t *o = tc_record_objects_of(&rec, kind), *copy = json_deep_copy(o);
    json_decref(o);
    tc_record_free(&rec);
    return copy;
}

#endif
