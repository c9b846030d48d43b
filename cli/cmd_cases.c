/* tcscope cases: not built yet; says so instead of pretending. */
#include "cli/cli.h"

int cmd_cases(int argc, char **argv)
{
    return cli_fail("cases", "not implemented yet");
}
