/* tcscope list: not built yet; says so instead of pretending. */
#include "cli/cli.h"

int cmd_list(int argc, char **argv)
{
    return cli_fail("list", "not implemented yet");
}
