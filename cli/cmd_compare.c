/* tcscope compare: not built yet; says so instead of pretending. */
#include "cli/cli.h"

int cmd_compare(int argc, char **argv)
{
    return cli_fail("compare", "not implemented yet");
}
