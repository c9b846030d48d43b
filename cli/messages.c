/* The CLI's messages on stderr, "tcscope CMD: ...": every command's one
 * way to fail with the usage status or to warn and go on (cli/cli.h). */
#include <stdarg.h>
#include <stdio.h>

#include "cli/cli.h"
#include "reports/text.h"

/* Messages echo file contents and option values: printed escaped
 * (reports/text.h), so a binary file cannot drive the terminal. */
static void vwarn(const char *cmd, const char *fmt, va_list ap)
{
    char msg[2048], safe[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    tc_text_escape(msg, safe, sizeof safe, true);
    fprintf(stderr, "tcscope%s%s: %s\n", *cmd ? " " : "", cmd, safe);
}

int cli_fail(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(cmd, fmt, ap);
    va_end(ap);
    return TC_EXIT_USAGE;
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(cmd, fmt, ap);
    va_end(ap);
}
