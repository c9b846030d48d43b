/* tcscope decide infer (cli/decide.h): field by field, what the answers to
 * a decide record's inputs decide; the table of fields decided by
 * construction, by sampled evidence only, or undecided. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cases/decide.h"
#include "cli/cli.h"
#include "cli/decide.h"
#include "oracle/model_fields.h"
#include "reports/record_decide.h"

#define CMD DECIDE_CMD


typedef struct {
    size_t by[DECIDE_NSTATUS];
    size_t excluded, equivalent, unseparated;   /* pairs */
} field_counts;

/* --pairs: one line per alternative. */
static void print_pair(void *ctx, const decide_pair *pr)
{
    const decide_set *s = ctx;
    const char *key = model_fields[pr->field].key;
    if (pr->kind == DECIDE_PAIR_EXCLUDED)
        printf("  %s = %s: excluded by input %zu%s (profile 0x%llx, %s 0x%llx, hardware 0x%llx)\n", key, pr->value,
               pr->input, pr->input < s->npool ? "" : " (ladder or mutated)", (unsigned long long)pr->v_answer,
               pr->value, (unsigned long long)pr->w_answer, (unsigned long long)pr->hw_answer);
    else if (pr->kind == DECIDE_PAIR_EQUIVALENT)
        printf("  %s = %s: proven equivalent (oracle/model_equiv.h)\n", key, pr->value);
    else if (pr->kind == DECIDE_PAIR_UNSEPARATED)
        printf("  %s = %s: open: no input separated it within the budget (pool of %zu, the ladder, %zu mutations)\n",
               key, pr->value, s->pool, s->opts.mutations);
    else
        printf("  %s = %s: open: answers every input as the hardware did\n", key, pr->value);
}

int decide_infer_run(const decide_args *a, const tc_record *in, const model_profile *prof, const model_profile *cmp)
{
    int nf = model_field_count();
    field_counts *fc = calloc((size_t)nf, sizeof *fc);
    decide_field *df = calloc((size_t)nf, sizeof *df);
    char *md = NULL;
    size_t mdlen = 0;
    FILE *mf = open_memstream(&md, &mdlen);
    if (!fc || !df || !mf) {
        free(fc), free(df);
        if (mf)
            fclose(mf);
        free(md);
        return cli_fail(CMD, "out of memory");
    }
    /* a copy: cli_str's buffers are a ring of 8 that the loop's cli_str calls reuse */
    char gpu[400];
    snprintf(gpu, sizeof gpu, "%s", cli_str(in->header, "gpu"));
    printf("# tcscope decide infer: %s (answers of %s, %s) against %s\n", a->in, cli_str(in->header, "backend"), gpu,
           a->profile ? a->profile : "the fingerprints it was built from");
    int status = TC_EXIT_OK;
    size_t ninstr = 0, contradicted_instrs = 0, differ = 0;
    size_t i;
    json_t *o;
    json_array_foreach(in->objects, i, o) {
        char err[600];
        decide_set s;
        uint64_t *hw;
        if (!cli_instr_selected(a->instr, cli_str(o, "instr")))
            continue;
        if (tc_decide_read(o, &s, &hw, err, sizeof err)) {
            status = cli_fail(CMD, "%s: %s", a->in, err);
            break;
        }
        const model_params *p = prof ? profile_lookup(prof, s.ins->name) : &s.v;
        size_t contra = 0;
        if (!p)
            status = cli_fail(CMD, "%s: no entry in profile %s", s.ins->name, a->profile);
        else if (a->pairs)
            printf("%s\n", s.ins->name);
        if (status == TC_EXIT_OK && p &&
            decide_classify_pairs(&s, p, hw, df, &contra, a->pairs ? print_pair : NULL, &s, err, sizeof err))
            status = cli_fail(CMD, "%s: %s", s.ins->name, err);
        if (status != TC_EXIT_OK) {
            free(hw);
            decide_set_free(&s);
            break;
        }
        size_t by[DECIDE_NSTATUS] = {0}, unsep = 0;
        char firstu[160] = "";
        for (int f = 0; f < nf; f++) {
            by[df[f].status]++;
            fc[f].by[df[f].status]++;
            fc[f].excluded += (size_t)df[f].excluded;
            fc[f].equivalent += (size_t)df[f].equivalent;
            fc[f].unseparated += (size_t)df[f].unseparated;
            unsep += (size_t)df[f].unseparated;
            if (df[f].status == DECIDE_UNDECIDED && !firstu[0])
                snprintf(firstu, sizeof firstu, "  e.g. %s: %d values answer as the hardware did (%s, ..)",
                         model_fields[f].key, df[f].open, df[f].first_open);
        }
        ninstr++;
        contradicted_instrs += contra > 0;
        printf("%-44s construction %2zu  sampled %2zu  undecided %2zu  inputs %4zu  missed %zu  open pairs %zu%s\n",
               s.ins->name, by[DECIDE_CONSTRUCTION], by[DECIDE_SAMPLED], by[DECIDE_UNDECIDED], s.ninputs, contra,
               unsep, firstu);
        const model_params *q = cmp ? profile_lookup(cmp, s.ins->name) : NULL;
        for (int f = 0; q && f < nf; f++)
            if (!model_fields[f].same(p, q) && df[f].status == DECIDE_CONSTRUCTION) {
                char pv[64], qv[64];
                model_field_text(p, f, pv, sizeof pv);
                model_field_text(q, f, qv, sizeof qv);
                printf("  %s holds %s = %s; decided on %s: %s\n", a->compare, model_fields[f].key, qv, gpu, pv);
                differ++;
            }
        free(hw);
        decide_set_free(&s);
    }
    if (status == TC_EXIT_OK) {
        size_t tot[DECIDE_NSTATUS] = {0}, ex = 0, eq = 0, un = 0;
        fprintf(mf, "| field | by construction | sampled only | undecided | pairs excluded by an answer | pairs proven "
                    "equivalent | pairs open |\n|---|---|---|---|---|---|---|\n");
        for (int f = 0; f < nf; f++) {
            fprintf(mf, "| `%s` | %zu | %zu | %zu | %zu | %zu | %zu |\n", model_fields[f].key, fc[f].by[0],
                    fc[f].by[1], fc[f].by[2], fc[f].excluded, fc[f].equivalent, fc[f].unseparated);
            for (int st = 0; st < DECIDE_NSTATUS; st++)
                tot[st] += fc[f].by[st];
            ex += fc[f].excluded, eq += fc[f].equivalent, un += fc[f].unseparated;
        }
        size_t all = tot[0] + tot[1] + tot[2];
        double d = all ? 100.0 / (double)all : 0;
        fprintf(mf,
                "| **all %zu fields x %zu instructions** | **%zu (%.2f%%)** | **%zu (%.2f%%)** | **%zu (%.2f%%)** | "
                "**%zu** | **%zu** | **%zu** |\n",
                (size_t)nf, ninstr, tot[0], d * (double)tot[0], tot[1], d * (double)tot[1], tot[2],
                d * (double)tot[2], ex, eq, un);
        fprintf(mf, "\nA field is decided by construction when an answer excludes every alternative of its range or "
                    "the model proves it equivalent (oracle/model_equiv.h); an open pair (no input separated it within "
                    "the search budget: the pool, the ladder and the mutations per pair the record names) leaves its "
                    "field to the audit's sampled evidence.\n");
        fclose(mf);
        mf = NULL;
        printf("\n%s", md);
        printf("# %zu instructions; %zu whose profile entry misses an answer%s", ninstr, contradicted_instrs,
               cmp ? "" : "\n");
        if (cmp)
            printf("; %zu fields of %s differ from what the answers decided\n", differ, a->compare);
        if (a->out) {
            char err[600];
            tc_outdir dd = {.fd = -1};
            if (tc_outdir_open(&dd, a->out, a->force, err, sizeof err) != 0 ||
                tc_out_write_text(&dd, "decide.md", md, err, sizeof err) != 0)
                status = cli_fail(CMD, "cannot write %s/decide.md: %s", a->out, err);
            tc_outdir_close(&dd);
        }
        if (status == TC_EXIT_OK && contradicted_instrs)
            status = TC_EXIT_DIFF;
    }
    if (mf)
        fclose(mf);
    free(md), free(fc), free(df);
    return status;
}
