/* tcscope list: the instruction catalogue, or what one backend can run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "cli/run_info.h"
#include "reports/reports.h"
#include "probes/probes.h"

#define CMD "list"

typedef enum { O_BACKEND, O_ARCH, O_ALL, O_JSON } list_opt;
static const cli_option opts[] = {
    [O_BACKEND] = {"--backend", "B", "only what backend B can run (gpu, gpu:N, model:PROFILE or exact)"},
    [O_ARCH] = {"--arch", "sm_XX", "only the instructions of this architecture (sm_70, sm_75, sm_80, sm_86, sm_89, sm_90a, "
                                   "sm_100a, sm_120a: probes/isa/arch/); with --backend, a model backend"},
    [O_ALL] = {"--all", NULL, "with --backend: every instruction, each with the backend's reason when it cannot"},
    [O_JSON] = {"--json", NULL, "a tcscope-record/1: one instr object per instruction (reports/SCHEMA.md)"},
};
const cli_command cmd_list_cli = {"list", "the instruction catalogue, or what one backend can run", NULL, NULL, opts,
                                  CLI_NOPTS(opts), false};

int cmd_list(int argc, char **argv)
{
    const char *backend = NULL, *arch = NULL;
    bool json = false, all = false;
    cli_scan sc = cli_scan_start(&cmd_list_cli, argc, argv);
    while (cli_next(&sc))
        switch ((list_opt)sc.opt) {
        case O_BACKEND: backend = sc.val; break;
        case O_ARCH: arch = sc.val; break;
        case O_ALL: all = true; break;
        case O_JSON: json = true; break;
        }
    if (sc.status)
        return sc.status;
    tc_backend *b = NULL;
    int sm = 0;
    if (arch && cli_arch_parse(CMD, arch, &sm))
        return TC_EXIT_USAGE;
    if (backend) {
        b = cli_backend_open(CMD, backend, NULL);   /* the no-GPU message of every command */
        if (!b)
            return TC_EXIT_USAGE;
        if (cli_backend_arch(CMD, b, arch)) {
            tc_backend_close(b);
            return TC_EXIT_USAGE;
        }
    }
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    tc_json_out out;
    tc_json_out_begin(&out, json, cli_record_header(CMD, b ? tc_backend_get_info(b) : NULL, NULL, 0));
    if (!json)
        printf("%-40s %-8s %-5s %-5s %-5s %-5s %-6s %-5s%s\n", "instruction", "api", "a", "b", "c", "d", "sass",
               "sm", b ? "  on backend" : "");
    for (size_t i = 0; i < n; i++) {
        const tc_instr *ins = &cat[i];
        char why[384] = "";
        if (!b && sm && !tc_instr_on_arch(ins, sm))
            continue; /* --arch alone: that architecture's catalogue */
        bool ok = b ? tc_backend_supports(b, ins, why, sizeof why) : true;
        if (b && !ok && !all)
            continue; /* list shows what the backend can run; --all shows the refusals too */
        if (json) {
            json_t *j = json_pack("{s:s, s:s, s:i, s:i, s:i, s:s, s:s, s:s, s:s, s:s, s:i, s:b, s:b}", "instr",
                                  ins->name, "api", ins->api, "m", ins->m, "n", ins->n, "k", ins->k, "a",
                                  ins->a->name, "b", ins->b->name, "c", ins->c->name, "d", ins->d->name, "sass",
                                  ins->sass, "sm_min", ins->sm_min, "sparse", ins->sparse, "a_in_regs",
                                  ins->a_in_regs);
            if (b) {
                json_object_set_new(j, "backend", json_string(tc_backend_get_info(b)->backend));
                json_object_set_new(j, "supported", json_boolean(ok));
                if (!ok)
                    json_object_set_new(j, "why", json_string(why));
            }
            tc_json_out_put(&out, "instr", j);
        } else {
            printf("%-40s %-8s %-5s %-5s %-5s %-5s %-6s %-5d%s%s\n", ins->name, ins->api, ins->a->name,
                   ins->b->name, ins->c->name, ins->d->name, ins->sass, ins->sm_min, b ? (ok ? "  yes" : "  no: ") : "",
                   b && !ok ? why : "");
        }
    }
    tc_json_out_end(&out, NULL);
    tc_backend_close(b);
    return TC_EXIT_OK;
}
