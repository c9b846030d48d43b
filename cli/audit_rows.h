/* The audit of a corpus backend (recorded rows): cli/audit_rows.c. */
#ifndef TC_CLI_AUDIT_ROWS_H
#define TC_CLI_AUDIT_ROWS_H

#include "cli/audit.h"

/* TC_EXIT_OK, or exit 2 after a message. */
int audit_rows(const audit_args *a, tc_backend *be);

#endif
