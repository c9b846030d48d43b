/* tcscope audit: not built yet; says so instead of pretending. */
#include "cli/cli.h"

int cmd_audit(int argc, char **argv)
{
    return cli_fail("audit", "not implemented yet");
}
