/* tcscope verify: not built yet; says so instead of pretending. */
#include "cli/cli.h"

int cmd_verify(int argc, char **argv)
{
    return cli_fail("verify", "not implemented yet");
}
