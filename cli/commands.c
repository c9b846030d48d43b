/* The command table: the dispatcher and every help read it. */
#include <string.h>

#include "cli/cli.h"

static const cli_entry commands[] = {
    {&cmd_formats_cli, cmd_formats}, {&cmd_convert_cli, cmd_convert}, {&cmd_list_cli, cmd_list},
    {&cmd_run_cli, cmd_run},         {&cmd_record_cli, cmd_record},   {&cmd_audit_cli, cmd_audit},
    {&cmd_verify_cli, cmd_verify},
    {&cmd_regress_cli, cmd_regress},
    {&cmd_hunt_cli, cmd_hunt},       {&cmd_decide_cli, cmd_decide},
          {&cmd_cases_cli, cmd_cases},     {&cmd_sweep_cli, cmd_sweep},
    {&cmd_bench_cli, cmd_bench},     {&cmd_compare_cli, cmd_compare}, {&cmd_choose_cli, cmd_choose},
    {&cmd_gemm_cli, cmd_gemm},       {&cmd_probe_cli, cmd_probe},
    {&cmd_import_cli, cmd_import},
    {&cmd_pack_cli, cmd_pack},
};

const cli_entry *cli_commands(size_t *n)
{
    *n = sizeof commands / sizeof commands[0];
    return commands;
}

const cli_entry *cli_command_by_name(const char *name)
{
    size_t n;
    const cli_entry *c = cli_commands(&n);
    for (size_t i = 0; i < n; i++)
        if (!strcmp(c[i].cmd->name, name))
            return &c[i];
    return NULL;
}
