/* tcscope formats: not built yet; says so instead of pretending. */
#include "cli/cli.h"

int cmd_formats(int argc, char **argv)
{
    return cli_fail("formats", "not implemented yet");
}
