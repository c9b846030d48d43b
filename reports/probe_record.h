/* What tcscope probe infer says (reports/probe_record.c): the summary line
 * and the tcscope-record/1 of kind gemm, one object: the gemm case fields
 * every gemm reader knows (reports/record_gemm.h; the first 512 verify
 * outputs, the main class's structure, its predictions) and "probe": the
 * call (call.json), each class of output blocks with its structure, the
 * masking values no test expected, and, unexplained, the outputs no
 * candidate predicts and the best candidates' rates. */
#ifndef TC_REPORTS_PROBE_RECORD_H
#define TC_REPORTS_PROBE_RECORD_H

#include <jansson.h>

#include "cases/probe.h"

/* The GPU of a call.json: its host's (nvidia-smi), else its framework's
 * word; "unknown GPU", or "no call.json" when call is NULL. */
const char *tc_probe_call_gpu(const json_t *call);

/* One line: the call, the structure, the prediction rate; "explained" or
 * "unexplained: why" with the best candidates. */
void tc_probe_summary(const tc_probe_design *d, const tc_probe_result *r, const json_t *call, char *buf, size_t len);

/* The case object (without "kind"). */
json_t *tc_probe_case_json(const tc_probe_design *d, const tc_probe_result *r, const json_t *call,
                           const char *profile);

/* The record written to path (header, the object, trailer). 0 or -1 + err. */
int tc_probe_record_save(const char *path, const tc_probe_design *d, const tc_probe_result *r, const json_t *call,
                         const char *profile, char *err, size_t errlen);

#endif
