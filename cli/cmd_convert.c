/* tcscope convert: not built yet; says so instead of pretending. */
#include "cli/cli.h"

int cmd_convert(int argc, char **argv)
{
    return cli_fail("convert", "not implemented yet");
}
