/* decide: the parts of tcscope decide (cli/cmd_decide.c: options, export;
 * cli/decide_ask.c; cli/decide_infer.c). Not a public header. */
#ifndef TC_CLI_DECIDE_H
#define TC_CLI_DECIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "oracle/profile.h"
#include "reports/reports.h"

#define DECIDE_CMD "decide"

typedef struct {
    const char *mode, *instr, *profile, *compare, *out, *in, *backend;
    uint64_t seed;
    unsigned long long per_family, mutations, threads;
    bool force, pairs;
} decide_args;

/* Writes rec as DIR/name (TC_EXIT_OK, or TC_EXIT_USAGE after a message). */
int decide_write_record(const char *dir, bool force, const char *name, const tc_record *rec);
/* decide ask: in's inputs answered by a->backend; prof NULL: each object's own fingerprint. */
int decide_ask_run(const decide_args *a, const tc_record *in, const model_profile *prof);
/* decide infer: what in's answers decide about prof (NULL: each object's own fingerprint); cmp: --compare. */
int decide_infer_run(const decide_args *a, const tc_record *in, const model_profile *prof, const model_profile *cmp);

#endif
