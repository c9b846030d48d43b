/* tcscope run: not built yet; says so instead of pretending. */
#include "cli/cli.h"

int cmd_run(int argc, char **argv)
{
    return cli_fail("run", "not implemented yet");
}
