/* tcscope decide ask (cli/decide.h): the backend answers a decide record's
 * inputs; DIR/decide.jsonl with the answers, DIR/hunt.jsonl with the inputs
 * the profile's model answers otherwise (audit --counterexamples). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cases/decide.h"
#include "cli/cli.h"
#include "cli/decide.h"
#include "cases/audit.h"
#include "cli/run_info.h"
#include "probes/probes.h"
#include "reports/record_decide.h"
#include "reports/render.h"

#define CMD DECIDE_CMD


static json_t *bits_array(const uint64_t *v, int k)
{
    json_t *a = json_array();
    for (int i = 0; i < k; i++)
        json_array_append_new(a, tc_json_bits(v[i]));
    return a;
}

/* The hunt object of the inputs m answers otherwise than hw; when there
 * are any, the other deciding inputs too ("deciding"): a refit
 * (audit --counterexamples) needs every one, as the misses alone do not
 * tell the hardware's value from the alternatives that answer them alike. */
static json_t *hunt_of(const decide_set *s, const model *m, const uint64_t *hw, size_t *bad)
{
    json_t *fails = json_array(), *agree = json_array();
    *bad = 0;
    for (size_t i = 0; i < s->ninputs; i++) {
        const infer_case *c = &s->inputs[i];
        uint64_t x = model_dot(m, c->k, c->a, c->b, c->c);
        *bad += x != hw[i];
        json_array_append_new(x == hw[i] ? agree : fails,
                              json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "family", "decide", "a",
                                        bits_array(c->a, c->k), "b", bits_array(c->b, c->k), "c", tc_json_bits(c->c),
                                        "hw", tc_json_bits(hw[i]), "model", tc_json_bits(x)));
    }
    json_t *fam = json_pack("{s:{s:I, s:I}}", "decide", "elements", (json_int_t)s->ninputs, "mismatches",
                            (json_int_t)*bad);
    json_t *o = json_pack("{s:s, s:s, s:I, s:I, s:o, s:o}", "kind", "hunt", "instr", s->ins->name, "elements",
                          (json_int_t)s->ninputs, "mismatches", (json_int_t)*bad, "families", fam, "failures", fails);
    if (*bad)
        json_object_set_new(o, "deciding", agree);
    else
        json_decref(agree);
    return o;
}

int decide_ask_run(const decide_args *a, const tc_record *in, const model_profile *prof)
{
    tc_backend *be = cli_backend_open(CMD, a->backend, NULL);
    if (!be)
        return TC_EXIT_USAGE;
    const tc_backend_info *info = tc_backend_get_info(be);
    json_t *seeds = json_object_get(in->header, "seeds");
    uint64_t seed = 0;
    tc_json_get_bits(json_array_get(seeds, 0), &seed);
    json_t *hd = cli_record_header("decide", info, &seed, 1), *hh = cli_record_header("hunt", info, &seed, 1);
    json_object_set_new(hh, "profile", json_string(a->profile ? a->profile : "the decide record's fingerprints"));
    json_object_set_new(hd, "profile", json_incref(json_object_get(in->header, "profile")));
    tc_record rd = tc_record_new(hd), rh = tc_record_new(hh);
    int status = TC_EXIT_OK;
    size_t total = 0, bad_total = 0, n = 0;
    printf("# tcscope decide ask on %s (%s)\n", info->backend, info->device);
    fflush(stdout);
    size_t i, asked = 0, done = 0;
    json_t *o;
    json_array_foreach(in->objects, i, o) asked += cli_instr_selected(a->instr, cli_str(o, "instr"));
    tc_progress prog;   /* the instructions asked: a bar on a terminal, plain lines in a log */
    tc_progress_start(&prog, "decide ask", asked);
    json_array_foreach(in->objects, i, o) {
        char err[600];
        decide_set s;
        uint64_t *hw0;
        if (!cli_instr_selected(a->instr, cli_str(o, "instr")))
            continue;
        tc_progress_update(&prog, done++);
        if (tc_decide_read(o, &s, &hw0, err, sizeof err)) {
            status = cli_fail(CMD, "%s: %s", a->in, err);
            break;
        }
        free(hw0);
        char why[256];
        tc_progress_clear(&prog);   /* what follows starts on a clean line */
        if (!tc_backend_supports(be, s.ins, why, sizeof why)) { /* said, and left out of both records */
            cli_warn(CMD, "%s: not asked: %s", s.ins->name, why);
            decide_set_free(&s);
            continue;
        }
        const model_params *p = prof ? profile_lookup(prof, s.ins->name) : &s.v;
        audit_backend_ctx ctx = {be, s.ins};
        infer_target t = audit_target(&ctx, seed);
        uint64_t *hw = malloc((s.ninputs + 1) * sizeof *hw);
        model *m = p ? model_new(p, t.f, err, sizeof err) : NULL;
        if (!p)
            snprintf(err, sizeof err, "no entry in profile %s", a->profile);
        int ran = hw && m ? infer_run_cases(&t, s.inputs, s.ninputs, err, sizeof err) : -1;
        tc_progress_clear(&prog);
        if (ran) {
            status = cli_fail(CMD, "%s: %s", s.ins->name, hw ? err : "out of memory");
        } else {
            size_t bad;
            for (size_t q = 0; q < s.ninputs; q++)
                hw[q] = s.inputs[q].d;
            json_t *h = hunt_of(&s, m, hw, &bad);
            total += s.ninputs, bad_total += bad, n++;
            printf("%-44s %4zu inputs %4zu answered otherwise than the model\n", s.ins->name, s.ninputs, bad);
            fflush(stdout);
            if (tc_record_add(&rd, tc_decide_object(&s, hw), err, sizeof err) ||
                tc_record_add(&rh, h, err, sizeof err))
                status = cli_fail(CMD, "%s", err);
        }
        model_free(m);
        free(hw);
        decide_set_free(&s);
        if (status != TC_EXIT_OK)
            break;
    }
    tc_progress_clear(&prog);
    tc_backend_close(be);
    if (status == TC_EXIT_OK) {
        printf("# %zu instructions, %zu inputs, %zu answered otherwise than the model\n", n, total, bad_total);
        status = decide_write_record(a->out, a->force, "decide.jsonl", &rd);
        if (status == TC_EXIT_OK)
            status = decide_write_record(a->out, true, "hunt.jsonl", &rh);
        if (status == TC_EXIT_OK && bad_total)
            status = TC_EXIT_DIFF;
    }
    tc_record_free(&rd);
    tc_record_free(&rh);
    return status;
}
