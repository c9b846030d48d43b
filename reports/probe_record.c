/* tcscope probe infer's summary and record (reports/probe_record.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/probe_record.h"
#include "reports/record_gemm.h"
#include "reports/reports.h"

static const char *call_str(const json_t *call, const char *key, const char *dflt)
{
    const char *s = json_string_value(json_object_get(call, key));
    return s ? s : dflt;
}

const char *tc_probe_call_gpu(const json_t *call)
{
    const char *g = json_string_value(json_object_get(json_object_get(call, "host"), "gpu"));
    if (!g)
        g = json_string_value(json_object_get(json_object_get(call, "versions"), "gpu"));
    return g ? g : call ? "unknown GPU" : "no call.json";
}

static void struct_text(const tc_gemm_struct *s, char *buf, size_t len)
{
    char pr[32] = "never", slices[200];
    if (s->promote)
        snprintf(pr, sizeof pr, "every %d", s->promote);
    snprintf(buf, len, "promote %s, %s", pr, tc_gemm_slices_text(s, slices, sizeof slices));
}

static int main_class(const tc_probe_result *r)
{
    int c = 0;
    for (int x = 1; x < r->nclass; x++)
        c = r->cls[x].blocks > r->cls[c].blocks ? x : c;
    return c;
}

void tc_probe_summary(const tc_probe_design *d, const tc_probe_result *r, const json_t *call, char *buf, size_t len)
{
    char st[300] = "no structure", body[260];
    if (r->nclass) {
        struct_text(&r->cls[main_class(r)].s, body, sizeof body);
        snprintf(st, sizeof st, "%s%s", r->chain ? "" : "no fused step: FP32 FMA chains, ", body);
    }
    size_t at = (size_t)snprintf(buf, len, "probe: %s on %s, %dx%dx%d %s: chunk %d, %s%s, inputs %s, output %s; "
                                 "%zu/%zu verify outputs bit-exact (%.4f%%)",
                                 call_str(call, "call_id", "(no call.json)"), tc_probe_call_gpu(call), d->m, d->n, d->k,
                                 d->fmt->name, r->chunk, st, r->nclass > 1 ? " (+ other block classes)" : "",
                                 tc_gemm_incvt_name(r->cvt), r->out->name, r->bit_exact, r->n,
                                 r->n ? 100.0 * r->bit_exact / r->n : 0.0);
    if (at >= len)
        return;
    if (r->explained) {
        snprintf(buf + at, len - at, ": explained%s%s", r->why[0] ? " (note: " : "", r->why[0] ? r->why : "");
        if (r->why[0] && strlen(buf) + 1 < len)
            strcat(buf, ")");
        return;
    }
    at += (size_t)snprintf(buf + at, len - at, ": unexplained: %s", r->why);
    for (int c = 0; c < r->ncand && at < len; c++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s %zu/%zu", c ? "; " : "; best candidates: ", r->cand[c].desc,
                               r->cand[c].bit_exact, r->cand[c].n);
    if (at < len && r->nunexplained)
        snprintf(buf + at, len - at, "; %d%s of %zu fit outputs no candidate predicts", r->nunexplained,
                 r->nunexplained == TC_PROBE_KEEP ? "+" : "", r->fit_n);
    if (at < len && r->odd)
        snprintf(buf + strlen(buf), len - strlen(buf), "; %zu masking outputs with values no test expects", r->odd);
}

static json_t *hex32(uint32_t u)
{
    char s[16];
    snprintf(s, sizeof s, "0x%08X", u);
    return json_string(s);
}

static json_t *misses(const tc_gemm_miss *m, int n)
{
    json_t *a = json_array();
    for (int e = 0; e < n; e++)
        json_array_append_new(a, json_pack("{s:i,s:i,s:o,s:o}", "i", m[e].i, "j", m[e].j, "got", hex32(m[e].got),
                                           "predicted", hex32(m[e].predicted)));
    return a;
}

static json_t *probe_json(const tc_probe_design *d, const tc_probe_result *r, const json_t *call)
{
    json_t *o = json_object(), *classes = json_array(), *blocks = json_array(), *odds = json_array(),
           *cands = json_array();
    static const char *const prod[] = {"step", "runs", "verify"};
    for (int c = 0; c < r->nclass; c++) {
        const tc_probe_class *k = &r->cls[c];
        json_t *starts = json_array();
        for (int x = 0; x < k->nruns && x < 256; x++)
            json_array_append_new(starts, json_integer(k->run_start[x]));
        json_array_append_new(classes, json_pack("{s:i,s:o,s:i,s:o,s:I,s:I}", "blocks", k->blocks, "structure",
                                                 tc_gemm_struct_json(&k->s, d->k), "runs", k->nruns,
                                                 "run_starts_first256", starts, "n", (json_int_t)k->n, "bit_exact",
                                                 (json_int_t)k->bit_exact));
    }
    for (int b = 0; b < r->nbm * r->nbn; b++)
        json_array_append_new(blocks, json_integer(r->block_class[b]));
    for (int e = 0; e < r->nodd; e++)
        json_array_append_new(odds, json_pack("{s:s,s:i,s:i,s:o}", "product", prod[r->odds[e].product], "i",
                                              r->odds[e].i, "j", r->odds[e].j, "got", hex32(r->odds[e].got)));
    for (int c = 0; c < r->ncand; c++)
        json_array_append_new(cands, json_pack("{s:s,s:I,s:I,s:f}", "structure", r->cand[c].desc, "n",
                                               (json_int_t)r->cand[c].n, "bit_exact", (json_int_t)r->cand[c].bit_exact,
                                               "rate", r->cand[c].n ? (double)r->cand[c].bit_exact / r->cand[c].n : 0));
    json_object_set_new(o, "status", json_string(r->explained ? "explained" : "unexplained"));
    if (r->why[0])
        json_object_set_new(o, "why", json_string(r->why));
    json_object_set_new(o, "framework", json_string(call_str(call, "framework", "unknown")));
    json_object_set_new(o, "call_id", json_string(call_str(call, "call_id", "unknown")));
    json_object_set_new(o, "call", json_string(call_str(call, "call", "unknown (no call.json)")));
    json_object_set_new(o, "gpu", json_string(tc_probe_call_gpu(call)));
    json_object_set_new(o, "driver", json_string(call_str(json_object_get(call, "host"), "driver", "unknown")));
    json_object_set_new(o, "options", json_deep_copy(json_object_get(call, "options")));
    json_object_set_new(o, "versions", json_deep_copy(json_object_get(call, "versions")));
    json_object_set_new(o, "export_format", json_string(d->fmt->name));
    json_object_set_new(o, "chunk", json_integer(r->chunk));
    json_object_set_new(o, "tensor_core_chain", json_boolean(r->chain));
    json_object_set_new(o, "model", json_string(r->chain ? d->path->instr : GEMM_FP32_FMA " (a fused multiply-add "
                                                "per product, in K order, from +0 in each run)"));
    json_object_set_new(o, "output_format", json_string(r->out->name));
    json_object_set_new(o, "block_rows", json_integer(d->runs_r));
    json_object_set_new(o, "block_cols", json_integer(d->runs_c));
    json_object_set_new(o, "boundary_granularity", json_integer(d->gran));
    json_object_set_new(o, "classes", classes);
    json_object_set_new(o, "block_class", blocks);
    json_object_set_new(o, "masking_odd", json_pack("{s:I,s:o}", "n", (json_int_t)r->odd, "first", odds));
    json_object_set_new(o, "fit_outputs", json_integer((json_int_t)r->fit_n));
    json_object_set_new(o, "best_candidates", cands);
    json_object_set_new(o, "unexplained_outputs", misses(r->unexplained, r->nunexplained));
    json_object_set_new(o, "meaning", json_string(
        "classes: output blocks (block_rows x block_cols, row-major in block_class) whose accumulator boundaries "
        "agree, each with the structure predicting its verify outputs best; unexplained_outputs: fit outputs no "
        "candidate structure predicted (predicted: the best candidate's value); masking_odd: masking outputs with "
        "a value no test expects"));
    return o;
}

json_t *tc_probe_case_json(const tc_probe_design *d, const tc_probe_result *r, const json_t *call,
                           const char *profile)
{
    tc_gemm_case_result res;
    memset(&res, 0, sizeof res);
    /* FP32 inputs summed without a tensor-core step (no TF32) are the f32 path, not the tf32 one the export
     * names: a structure is filed under what the outputs say the call did */
    res.path = !r->chain && !strcmp(d->fmt->name, "f32") && tc_gemm_path_by_name("f32") ? tc_gemm_path_by_name("f32")
                                                                                    : d->path;
    res.c = (tc_gemm_case){.m = d->m, .n = d->n, .k = d->k, .dist = d->dist, .seed = d->seed,
                           .samples = r->n, .infer = true, .profile = profile};
    snprintf(res.library, sizeof res.library, "%s", call_str(call, "framework", "unknown"));
    snprintf(res.device, sizeof res.device, "%s", tc_probe_call_gpu(call));
    json_t *lt = json_object_get(json_object_get(call, "versions"), "cublasLt_version");
    res.library_version = json_is_integer(lt) ? (long)json_integer_value(lt) : 0;
    res.saturating = d->path->fp8;
    res.algo.algo_id = -1, res.algo.emulation = -1;   /* the framework's choice: not known here */
    res.samples = r->n;
    res.nrec = r->nout < 512 ? r->nout : 512;
    res.ii = r->vi, res.jj = r->vj, res.got = r->vgot;
    res.vs_original = r->vs_original, res.vs_rounded = r->vs_rounded;
    tc_gemm_structure_result *st = &res.st;
    int mc = r->nclass ? main_class(r) : 0;
    int lca0 = -1;
    if (r->nclass) {
        st->r.s = r->cls[mc].s;
        st->r.nruns = 1;   /* the run starts are in "probe".classes; the meetings were not measured */
        st->r.run_start = (int *)&r->cls[mc].run_start[0];
        st->r.lca = &lca0;
    }
    st->r.probes = 2 * d->m * d->n;
    st->r.calls = PROBE_NPRODUCTS;
    st->r.consistent = r->explained;
    snprintf(st->r.why, sizeof st->r.why, "%.255s", r->explained ? "" : r->why);
    st->unpredicted = !r->nclass;   /* no structure; FP32 FMA chains are predicted too, without a model */
    st->fma = !r->chain;
    snprintf(st->prediction_error, sizeof st->prediction_error, "%s", r->why);
    tc_gemm_incvt cand[8] = {GEMM_IN_AS_UPLOADED};
    st->cvt.ncand = st->fma ? 1 : tc_gemm_incvt_candidates(d->path, cand);   /* FMA: the FP32 values, no choice */
    memcpy(st->cvt.cand, cand, sizeof cand);
    st->cvt.used = r->cvt;
    st->cvt.tried = r->cvt_tried;
    memcpy(st->cvt.bit_exact, r->cvt_bit_exact, sizeof st->cvt.bit_exact);
    st->n = r->n, st->bit_exact = r->bit_exact;
    st->explained = r->explained;   /* the structure's status is the inference's */
    for (size_t e = 0; e < res.nrec; e++)
        st->recorded_bit_exact += r->vgot[e] == r->vpred[e];
    st->nmiss = r->nmiss < 8 ? r->nmiss : 8;
    memcpy(st->miss, r->miss, (size_t)st->nmiss * sizeof st->miss[0]);
    json_t *o = tc_gemm_case_json(&res);
    json_object_set_new(o, "probe", probe_json(d, r, call));
    return o;
}

int tc_probe_record_save(const char *path, const tc_probe_design *d, const tc_probe_result *r, const json_t *call,
                         const char *profile, char *err, size_t errlen)
{
    json_t *lt = json_object_get(json_object_get(call, "versions"), "cublasLt_version");
    tc_gemm_run_facts f = {"probe", call_str(call, "framework", "unknown"), tc_probe_call_gpu(call),
                           json_is_integer(lt) ? (long)json_integer_value(lt) : 0, d->seed, 1, 0};
    json_t *h = tc_gemm_record_header(&f);
    json_object_set_new(h, "probe_call", json_string(call_str(call, "call_id", "unknown")));
    tc_record rec = tc_record_new(h);
    json_t *o = tc_probe_case_json(d, r, call, profile);
    json_t *obj = json_pack("{s:s}", "kind", "gemm");
    json_object_update(obj, o);
    json_decref(o);
    int rc = tc_record_add(&rec, obj, err, errlen) || tc_record_save(path, &rec, err, errlen) ? -1 : 0;
    tc_record_free(&rec);
    return rc;
}
