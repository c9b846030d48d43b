/* tcscope choose: not built yet; says so instead of pretending. */
#include "cli/cli.h"

int cmd_choose(int argc, char **argv)
{
    return cli_fail("choose", "not implemented yet");
}
