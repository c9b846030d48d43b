/* The prediction facts of a probe record's FP32 FMA cases, for records
 * written before `probe infer` recorded structure.prediction for them.
 *
 * For every gemm object of RECORD whose probe saw no tensor-core chain
 * (probe.tensor_core_chain false): its recorded outputs predicted as the
 * replay does (cases/gemm_probe_replay.c: each output block's class
 * structure, FP32 FMA chains), printed as one JSON line: call_id, m, n,
 * k, recorded_outputs_bit_exact and first_mismatches (the first 8 recorded
 * outputs it misses, in record order, which is the order the inference
 * kept its first mismatches in), and misses_recorded (how many it
 * misses among the recorded ones: when fewer than 8 and the case misses
 * more, its first mismatches lie beyond the recorded outputs).
 * tools/probe_collect.py upgrade writes them into the record.
 *
 * usage: probe_fma_prediction RECORD.jsonl.gz */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm_internal.h"
#include "reports/record_gemm.h"

static json_t *facts(const json_t *o)
{
    const json_t *out = json_object_get(o, "outputs");
    const json_t *ia = json_object_get(out, "i"), *ja = json_object_get(out, "j");
    const char *hex = json_string_value(json_object_get(out, "d_hex"));
    size_t n = json_array_size(ia);
    if (!hex || json_array_size(ja) != n || strlen(hex) != 8 * n || !n)
        return NULL;
    int *ii = gemm_alloc(n, sizeof *ii), *jj = gemm_alloc(n, sizeof *jj);
    uint32_t *got = gemm_alloc(n, sizeof *got), *pred = gemm_alloc(n, sizeof *pred);
    for (size_t e = 0; e < n; e++) {
        char w[9];
        memcpy(w, hex + 8 * e, 8);
        w[8] = 0;
        got[e] = (uint32_t)strtoul(w, NULL, 16);
        ii[e] = (int)json_integer_value(json_array_get(ia, e)), jj[e] = (int)json_integer_value(json_array_get(ja, e));
    }
    size_t exact = 0, missed = 0;
    char err[512];
    json_t *r = NULL;
    if (gemm_probe_replay(o, NULL, n, ii, jj, got, &exact, pred, err, sizeof err) == 0) {
        json_t *miss = json_array();
        for (size_t e = 0; e < n; e++) {
            if (pred[e] == got[e])
                continue;
            char g[16], p[16];
            snprintf(g, sizeof g, "0x%08X", got[e]);
            snprintf(p, sizeof p, "0x%08X", pred[e]);
            if (missed++ < 8)
                json_array_append_new(miss, json_pack("{s:i,s:i,s:s,s:s}", "i", ii[e], "j", jj[e], "got", g,
                                                      "predicted", p));
        }
        r = json_pack("{s:O,s:O,s:O,s:O,s:I,s:o,s:I}", "call_id",
                      json_object_get(json_object_get(o, "probe"), "call_id"), "m", json_object_get(o, "m"), "n",
                      json_object_get(o, "n"), "k", json_object_get(o, "k"), "recorded_outputs_bit_exact",
                      (json_int_t)exact, "first_mismatches", miss, "misses_recorded", (json_int_t)missed);
    } else {
        fprintf(stderr, "probe_fma_prediction: %s\n", err);
    }
    free(ii), free(jj), free(got), free(pred);
    return r;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: probe_fma_prediction RECORD.jsonl.gz\n");
        return 2;
    }
    char err[600];
    json_t *cases = tc_gemm_records_load(argv[1], NULL, err, sizeof err);
    if (!cases) {
        fprintf(stderr, "probe_fma_prediction: %s\n", err);
        return 2;
    }
    size_t x;
    json_t *o;
    int rc = 0;
    json_array_foreach(cases, x, o) {
        if (!json_is_false(json_object_get(json_object_get(o, "probe"), "tensor_core_chain")))
            continue;
        json_t *f = facts(o);
        if (!f) {
            rc = 2;
            continue;
        }
        char *s = json_dumps(f, JSON_COMPACT | JSON_PRESERVE_ORDER);
        printf("%s\n", s);
        free(s);
        json_decref(f);
    }
    json_decref(cases);
    return rc;
}
