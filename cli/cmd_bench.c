/* tcscope bench: not built yet; says so instead of pretending. */
#include "cli/cli.h"

int cmd_bench(int argc, char **argv)
{
    return cli_fail("bench", "not implemented yet");
}
