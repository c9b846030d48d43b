/* A record named by an option (cli/record_arg.c). */
#ifndef TC_CLI_RECORD_ARG_H
#define TC_CLI_RECORD_ARG_H

#include "reports/reports.h"

/* The record at path (tc_record_load_any) into *rec, holding at least one
 * object of kind: TC_EXIT_OK. Else TC_EXIT_USAGE after "tcscope CMD: [OPT ]PATH
 * holds no KIND object (it is a ... record)" or the reader's message (a
 * missing file, a bad record), nothing left to free. opt may be NULL. */
int cli_record_of(const char *cmd, const char *opt, const char *path, const char *kind, tc_record *rec);
/* cli_record_of's check of a record already loaded: TC_EXIT_OK when it
 * holds an object of kind, else TC_EXIT_USAGE after its message (rec kept). */
int cli_record_holds(const char *cmd, const char *opt, const char *path, const char *kind, const tc_record *rec);

#endif
