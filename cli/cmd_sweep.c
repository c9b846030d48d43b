/* tcscope sweep: not built yet; says so instead of pretending. */
#include "cli/cli.h"

int cmd_sweep(int argc, char **argv)
{
    return cli_fail("sweep", "not implemented yet");
}
