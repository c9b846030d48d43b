/* sparse_check: the GPU check of every structured-sparse catalogue entry
 * (issue #4), for tools/device.sh sparse.
 *
 * Per sparse entry on the GPU backend: the sparse layout proof (probes/
 * layout_probe.c: compressed A fragment + metadata under every kept pattern,
 * B, C), the SASS the kernel compiled to, and a random batch (the corpus
 * inputs, 2:4 or 1:2 structured) against the exact value of the dense product
 * of the logical tile (MPFR): error statistics, not equality (the hardware
 * accumulates in its own way). One JSON line per entry to --json FILE, one
 * text line per entry to stdout. Exit 0 when every supported entry passes the
 * proof and no element is wildly off (error above 2^-9 of the sum of the
 * magnitudes of its terms, or NaN/Inf where the exact value is finite); 1
 * otherwise; 2 on usage errors. Entries the backend does not support are
 * recorded as skipped. --tiles N counts m16n8 tiles: a bigger tile (wgmma.sp
 * m64nN) gets N * 128 / (m * n) tiles, at least one, so that every entry
 * checks about the same number of elements.
 *   sparse_check [--backend gpu] [--json FILE] [--tiles N] [--seed S] [--instr NAME] [--wg8-meta-alt]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>
#include <mpfr.h>

#include "oracle/oracle.h"
#include "probes/backend_corpus.h"
#include "probes/layout.h"
#include "probes/probes.h"
#include "probes/sparse.h"
#include "probes/clock.h"

typedef struct {
    size_t n, n_rne, n_le_half, n_le_one, n_bad, n_special, n_nan_mismatch;
    double max_ulps, sum_abs_ulps, max_scaled;
    char worst[256], special[256];
} stats;

static size_t finite_n(const stats *st) { return st->n - st->n_special; }

/* The random batch: GPU against the exact value of each element. */
static int batch(tc_backend *b, const tc_instr *ins, size_t nt, uint64_t seed, stats *st, char *err, size_t errlen)
{
    int M = ins->m, N = ins->n, K = ins->k;
    size_t mk = (size_t)M * K, kn = (size_t)K * N, mn = (size_t)M * N;
    uint64_t *A = malloc(nt * mk * 8), *B = malloc(nt * kn * 8), *C = malloc(nt * mn * 8), *D = malloc(nt * mn * 8),
             *bcol = malloc((size_t)K * 8);
    int rc = -1;
    memset(st, 0, sizeof *st);
    if (!A || !B || !C || !D || !bcol) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    tc_corpus_inputs(ins, nt, seed, A, B, C);
    if (tc_backend_mma(b, ins, nt, A, B, C, D, err, errlen))
        goto out;
    oracle_formats f = {ins->a, ins->b, ins->c, ins->d};
    tc_rounding rne = {.mode = TC_RNE, .ovf = TC_OVF_INF};
    mpfr_t x;
    mpfr_init2(x, 64);
    for (size_t t = 0; t < nt; t++)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < N; j++) {
                const uint64_t *arow = A + t * mk + (size_t)i * K;
                double scale = fabs(tc_decode_to_f64(ins->c, C[t * mn + (size_t)i * N + j]));
                for (int kk = 0; kk < K; kk++) {
                    bcol[kk] = B[t * kn + (size_t)kk * N + j];
                    scale += fabs(tc_decode_to_f64(ins->a, arow[kk]) * tc_decode_to_f64(ins->b, bcol[kk]));
                }
                uint64_t c = C[t * mn + (size_t)i * N + j], d = D[t * mn + (size_t)i * N + j];
                oracle_dot_value(f, K, arow, bcol, c, x);
                uint64_t r = oracle_round(ins->d, x, rne);
                double got = tc_decode_to_f64(ins->d, d);
                st->n++;
                st->n_rne += r == d;
                tc_class cg = tc_classify(ins->d, d), cr = tc_classify(ins->d, r);
                if (cg == TC_INF || cg == TC_NAN || cr == TC_INF || cr == TC_NAN) {
                    /* overflow or specials: counted apart (RNE's overflow is not the
                     * hardware's), not in the error statistics */
                    st->n_special++;
                    if (cg != cr || (cg == TC_INF && d != r)) {
                        st->n_nan_mismatch++;
                        if (!st->special[0])
                            snprintf(st->special, sizeof st->special,
                                     "tile %zu D[%d][%d] = 0x%llx, exact %.17g rounds (RNE) to 0x%llx", t, i, j,
                                     (unsigned long long)d, mpfr_get_d(x, MPFR_RNDN), (unsigned long long)r);
                    }
                    continue;
                }
                double u = oracle_err_ulps(ins->d, d, x);
                double au = fabs(u), scaled = scale > 0 ? fabs(got - mpfr_get_d(x, MPFR_RNDN)) / scale : 0;
                st->n_le_half += au <= 0.5;
                st->n_le_one += au <= 1.0;
                st->sum_abs_ulps += au;
                if (au > st->max_ulps)
                    st->max_ulps = au;
                if (scaled > st->max_scaled)
                    st->max_scaled = scaled;
                if (scaled > ldexp(1.0, -9)) {
                    if (!st->n_bad)
                        snprintf(st->worst, sizeof st->worst,
                                 "tile %zu D[%d][%d] = %.17g, exact %.17g (%.3g of the sum of |terms|)", t, i, j, got,
                                 mpfr_get_d(x, MPFR_RNDN), scaled);
                    st->n_bad++;
                }
            }
    mpfr_clear(x);
    rc = 0;
out:
    free(A), free(B), free(C), free(D), free(bcol);
    return rc;
}

int main(int argc, char **argv)
{
    const char *backend = "gpu", *json_path = NULL, *only = NULL;
    size_t tiles = 256;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--backend") && i + 1 < argc)
            backend = argv[++i];
        else if (!strcmp(argv[i], "--json") && i + 1 < argc)
            json_path = argv[++i];
        else if (!strcmp(argv[i], "--tiles") && i + 1 < argc)
            tiles = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--instr") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--wg8-meta-alt"))
            tc_sparse_set_wg8_alt(true); /* diagnosis: the other candidate layout (probes/sparse.h) */
        else {
            fprintf(stderr, "usage: sparse_check [--backend gpu] [--json FILE] [--tiles N] [--seed S] [--instr NAME] "
                            "[--wg8-meta-alt]\n");
            return 2;
        }
    }
    if (tiles < 1) {
        fprintf(stderr, "sparse_check: --tiles must be at least 1\n");
        return 2;
    }
    char err[512];
    tc_backend *b = tc_backend_open(backend, err, sizeof err);
    if (!b) {
        fprintf(stderr, "sparse_check: %s\n", err);
        return 1;
    }
    FILE *js = json_path ? fopen(json_path, "w") : NULL;
    if (json_path && !js) {
        fprintf(stderr, "sparse_check: cannot write %s\n", json_path);
        tc_backend_close(b);
        return 2;
    }
    const tc_backend_info *info = tc_backend_get_info(b);
    size_t n, nsup = 0, npass = 0, nfail = 0, nskip = 0;
    const tc_instr *cat = tc_catalogue(&n);
    for (size_t i = 0; i < n; i++) {
        const tc_instr *ins = &cat[i];
        if (!ins->sparse || (only && strcmp(only, ins->name)))
            continue;
        json_t *j = json_pack("{s:s, s:s, s:s, s:i}", "instr", ins->name, "backend", info->backend, "device",
                              info->device, "selector", TC_SPARSE_SELECTOR);
        char why[512];
        if (!tc_backend_supports(b, ins, why, sizeof why)) {
            json_object_set_new(j, "supported", json_false());
            json_object_set_new(j, "why", json_string(why));
            printf("%-40s skip  %s\n", ins->name, why);
            nskip++;
        } else {
            nsup++;
            int G, S;
            tc_sparse_ratio(ins, &G, &S);
            char ratio[16];
            snprintf(ratio, sizeof ratio, "%d:%d", S, G);
            json_object_set_new(j, "supported", json_true());
            json_object_set_new(j, "ratio", json_string(ratio));
            char msg[512] = "";
            double t0 = tc_now_s();
            int lay = tc_layout_probe(b, ins, msg, sizeof msg);
            double t1 = tc_now_s();
            json_object_set_new(j, "layout", json_string(lay ? "fail" : "pass"));
            if (lay)
                json_object_set_new(j, "layout_why", json_string(msg));
            json_object_set_new(j, "layout_s", json_real(t1 - t0));
            tc_instr_sass sa;
            char serr[512] = "";
            bool have_sass = tc_backend_sass(b, ins, &sa, serr, sizeof serr) == 0;
            if (have_sass)
                json_object_set_new(j, "sass", json_pack("{s:s, s:b, s:i, s:i, s:s, s:s}", "opcode", sa.opcode,
                                                         "native", sa.native, "per_mma", sa.per_mma, "conversions",
                                                         sa.conversions, "verdict", sa.verdict, "message",
                                                         sa.message));
            else
                json_object_set_new(j, "sass_error", json_string(serr));
            stats st;
            char berr[512] = "";
            size_t mn = (size_t)ins->m * (size_t)ins->n, nt = mn > 128 ? tiles * 128 / mn : tiles;
            if (nt < 1)
                nt = 1;
            int br = batch(b, ins, nt, seed, &st, berr, sizeof berr);
            if (br)
                json_object_set_new(j, "batch_error", json_string(berr));
            else
                json_object_set_new(
                    j, "batch",
                    json_pack("{s:I, s:I, s:I, s:I, s:f, s:f, s:f, s:I, s:s, s:I, s:I, s:s, s:I, s:I}",
                              "elements", (json_int_t)st.n, "equal_rne", (json_int_t)st.n_rne, "within_half_ulp",
                              (json_int_t)st.n_le_half, "within_one_ulp", (json_int_t)st.n_le_one, "max_abs_ulps",
                              st.max_ulps, "mean_abs_ulps", finite_n(&st) ? st.sum_abs_ulps / (double)finite_n(&st) : 0.0,
                              "max_err_over_sum_abs_terms", st.max_scaled, "wild", (json_int_t)st.n_bad, "worst",
                              st.worst, "inf_or_nan", (json_int_t)st.n_special, "inf_or_nan_unlike_rne",
                              (json_int_t)st.n_nan_mismatch, "first_unlike_rne", st.special, "tiles",
                              (json_int_t)nt, "seed", (json_int_t)seed));
            bool ok = !lay && !br && st.n_bad == 0;
            json_object_set_new(j, "ok", json_boolean(ok));
            if (ok)
                npass++;
            else
                nfail++;
            printf("%-40s %s layout=%s sass=%s%s batch=", ins->name, ok ? "PASS" : "FAIL", lay ? "FAIL" : "pass",
                   have_sass ? sa.opcode : "?", have_sass && sa.per_mma > 1 ? "(emulated)" : "");
            if (br)
                printf("error: %s", berr);
            else
                printf("%zu elems rne=%.2f%% <=1ulp=%.2f%% max=%.3gulp mean=%.3gulp wild=%zu inf/nan=%zu(unlike rne %zu)",
                       st.n, 100.0 * (double)st.n_rne / (double)st.n,
                       100.0 * (double)st.n_le_one / (double)(finite_n(&st) ? finite_n(&st) : 1), st.max_ulps,
                       finite_n(&st) ? st.sum_abs_ulps / (double)finite_n(&st) : 0.0, st.n_bad, st.n_special,
                       st.n_nan_mismatch);
            if (lay)
                printf("\n    layout: %s", msg);
            if (!br && st.n_bad)
                printf("\n    worst: %s", st.worst);
            printf("\n");
        }
        if (js) {
            char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
            fprintf(js, "%s\n", s);
            free(s);
        }
        json_decref(j);
        fflush(stdout);
    }
    printf("sparse_check: %zu sparse entries supported on %s (%s), %zu pass, %zu fail, %zu skipped\n", nsup,
           info->backend, info->device, npass, nfail, nskip);
    if (js)
        fclose(js);
    tc_backend_close(b);
    return nfail || (only && nsup + nskip == 0) ? 1 : 0;
}
