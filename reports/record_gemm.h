/* `tcscope gemm` records (reports/SCHEMA.md "gemm"): the run-wide header
 * a `gemm --json` run prints first, and the one reader of gemm cases,
 * which takes both forms there are:
 *   - a tcscope-record/1 of kind "gemm" (2026-11-24 on): header, one
 *     {"kind":"gemm",...} object per case, trailer;
 *   - the older lines, one {"record":"tcscope-gemm","version":1|2,...}
 *     object per case, no header or trailer (the committed
 *     reports/baselines/h100-gemm.packed.xz).
 * The per-case fields are the same in both; the one writer of a case's
 * object is tc_gemm_case_json below, from the struct cases/gemm_case.c fills. */
#ifndef TC_RECORD_GEMM_H
#define TC_RECORD_GEMM_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "cases/gemm.h"

/* What a gemm run states once, in its header. */
typedef struct {
    const char *backend;      /* "gpu:0", "model:h100" */
    const char *library;      /* "cublaslt", "sim" */
    const char *device;       /* the library's device string */
    long library_version;     /* cublasLtGetVersion, 0 for the simulation */
    uint64_t seed;
    int cases_planned;        /* cases the run was asked for */
    double time_limit_s;      /* --time-limit, 0: none */
} tc_gemm_run_facts;

/* The header of a gemm record: tc_record_header("gemm", ...) (date,
 * host, tcscope version) with the facts above. */
json_t *tc_gemm_record_header(const tc_gemm_run_facts *f);

/* A case's object of a gemm record (without "kind": tc_json_out_put puts
 * it first), from what tc_gemm_run_case found; "skipped" or "error" when
 * it could not run (reports/record_gemm_case.c). */
json_t *tc_gemm_case_json(const tc_gemm_case_result *r);
/* Its "structure" object (reports/record_gemm_structure.c). */
json_t *tc_gemm_structure_json(const tc_gemm_structure_result *s, const tc_gemm_path *p, const tc_gemm_case *c);
/* A structure as JSON (reports/record_gemm_structure.c; what
 * cases/gemm_replay.c tc_gemm_struct_read reads back), and its summation
 * tree as SVG, leaves the runs (reports/gemm_tree_svg.c). */
json_t *tc_gemm_struct_json(const tc_gemm_struct *s, int k);
char *tc_gemm_struct_svg(const tc_gemm_struct *s, int k);

/* The gemm cases of a file (.jsonl or .jsonl.gz, either form above), in
 * file order, as a new array of objects: each with "kind": "gemm" (the
 * older lines' "record" dropped, their "version" kept), and at least a
 * string "path" and an integer "k". *header (when header is not NULL):
 * the record's header, or NULL for the older lines; a record ended
 * "partial" (a run stopped by an error) is read, its header then carries
 * "stopped" (why). NULL with err: unreadable, not JSON, another kind of
 * record or line, a case without path or k, a record without its trailer
 * (a killed run: `gemm --time-limit` stops cleanly instead) or with a
 * wrong count, or no case at all. */
json_t *tc_gemm_records_load(const char *path, json_t **header, char *err, size_t len);

/* The same from text held in memory (name for messages). */
json_t *tc_gemm_records_parse(const char *text, const char *name, json_t **header, char *err, size_t len);

#endif
