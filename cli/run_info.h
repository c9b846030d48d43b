/* The run facts of a record's header (reports/reports.h tc_run_info) from a
 * backend's (probes/probes.h tc_backend_info): the CLI is the layer that
 * knows both, so reports/ never includes probes/. */
#ifndef TC_CLI_RUN_INFO_H
#define TC_CLI_RUN_INFO_H

#include <stddef.h>
#include <stdint.h>

#include "probes/probes.h"
#include "reports/reports.h"

/* info may be NULL: every field then unknown. */
tc_run_info cli_run_info(const tc_backend_info *info);
/* tc_record_header with cli_run_info(info); info NULL: no backend. */
json_t *cli_record_header(const char *kind, const tc_backend_info *info, const uint64_t *seeds, size_t nseeds);

#endif
