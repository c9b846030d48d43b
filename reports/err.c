/* The library's one way to say why it failed: a message into the caller's
 * err buffer (reports/reports_internal.h). */
#include <stdarg.h>
#include <stdio.h>

#include "reports/reports_internal.h"

void rep_set_err(char *err, size_t len, const char *fmt, ...)
{
    if (!err || !len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}
