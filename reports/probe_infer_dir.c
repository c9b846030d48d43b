/* tcscope probe infer (cases/probe.h tc_probe_infer_dir): a probe folder
 * read and checked (the manifest's design made again, every exported file
 * that is there and the inputs made again against the manifest's SHA-256,
 * each D's .npy header and shape), the structure inferred, and the result
 * as a summary line and a tcscope-record/1 gemm object (with call.json,
 * when the folder has one: framework, call, options, versions, GPU). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "cases/app.h"
#include "cases/npy_write.h"
#include "cases/probe.h"
#include "probes/probes.h"
#include "reports/probe_files.h"
#include "reports/probe_record.h"
#include "reports/render.h"
#include "reports/reports.h"

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

static void join(char *out, size_t len, const char *dir, const char *name)
{
    snprintf(out, len, "%s/%s", dir, name);
}

/* The manifest's design: schema, shape, format, seed. */
static int read_manifest(const char *dir, json_t **man, tc_probe_design *d, char *err, size_t errlen)
{
    char path[4200];
    json_error_t je;
    join(path, sizeof path, dir, TC_PROBE_MANIFEST);
    *man = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!*man)
        return fail(err, errlen, "%s: %s (a folder written by tcscope probe export)", path, je.text);
    const char *schema = json_string_value(json_object_get(*man, "schema"));
    const char *format = json_string_value(json_object_get(*man, "format"));
    json_t *jm = json_object_get(*man, "m"), *jn = json_object_get(*man, "n"), *jk = json_object_get(*man, "k");
    json_t *js = json_object_get(*man, "seed");
    if (!schema || strcmp(schema, TC_PROBE_SCHEMA))
        return fail(err, errlen, "%s: not a %s manifest", path, TC_PROBE_SCHEMA);
    if (!format || !json_is_integer(jm) || !json_is_integer(jn) || !json_is_integer(jk) || !json_is_integer(js) ||
        !json_is_object(json_object_get(*man, "files")))
        return fail(err, errlen, "%s: needs m, n, k, seed (integers), format and files", path);
    json_int_t m = json_integer_value(jm), n = json_integer_value(jn), k = json_integer_value(jk);
    if (m < 16 || m > 16384 || n < 16 || n > 16384 || k < 16 || k > 65536)
        return fail(err, errlen, "%s: shape out of range", path);
    if (tc_probe_design_make((int)m, (int)n, (int)k, format, (uint64_t)json_integer_value(js), d, err, errlen))
        return -1;
    return 0;
}

/* One exported file: the manifest's hash is that of the inputs this
 * tcscope makes for the design, and the file, when the folder still has it,
 * is that file. */
static int check_input(const char *dir, const json_t *files, const char *name, const char *descr, size_t rows,
                       size_t cols, const uint32_t *bits, char *err, size_t errlen)
{
    const char *want = json_string_value(json_object_get(json_object_get(files, name), "sha256"));
    if (!want)
        return fail(err, errlen, "%s/%s: no sha256 for %s", dir, TC_PROBE_MANIFEST, name);
    size_t shape[2] = {rows, cols}, nb;
    unsigned char *buf = tc_npy_encode(descr, shape, 2, bits, &nb);
    if (!buf)
        return fail(err, errlen, "out of memory");
    char made[65], path[4200];
    tc_probe_sha256_hex(buf, nb, made);
    free(buf);
    if (strcmp(made, want))
        return fail(err, errlen, "%s/%s: the sha256 of %s is not that of the inputs this tcscope (%s) makes for the "
                    "manifest's shape, format and seed (an edited manifest, or one of another version)", dir,
                    TC_PROBE_MANIFEST, name, tc_version());
    join(path, sizeof path, dir, name);
    if (access(path, F_OK) != 0)   /* the inputs may stay where D was computed: made again above */
        return 0;
    if (tc_probe_sha256_file(path, made, err, errlen))
        return -1;
    if (strcmp(made, want))
        return fail(err, errlen, "%s: not the file this export wrote (its sha256 differs from %s's): a file of "
                    "another export?", path, TC_PROBE_MANIFEST);
    return 0;
}

/* A D file: the header exactly numpy's for m x n float32, then the values
 * through the .npy reader of cases/npy.c (every one finite). */
static int read_d(const char *dir, tc_probe_product p, const tc_probe_design *d, uint32_t *D, char *err,
                  size_t errlen)
{
    char name[32], path[4200];
    tc_probe_file_name(p, 'D', name, sizeof name);
    join(path, sizeof path, dir, name);
    if (tc_probe_check_d_header(path, d->m, d->n, err, errlen))
        return -1;
    app_dist v;
    if (!app_dist_load(path, &v, err, errlen))
        return -1;
    int rc = 0;
    if (v.nsamples != (size_t)d->m * d->n)
        rc = fail(err, errlen, "%s: %zu values for a %dx%d D", path, v.nsamples, d->m, d->n);
    for (size_t e = 0; !rc && e < v.nsamples; e++) {
        float x = (float)v.samples[e];   /* exact: the file holds float32 */
        memcpy(&D[e], &x, sizeof x);
    }
    app_dist_free(&v);
    return rc;
}

/* The call.json beside the D's (tools/probe_frameworks.py), or NULL. */
static json_t *read_call(const char *dir, char *err, size_t errlen, int *rc)
{
    char path[4200];
    json_error_t je;
    join(path, sizeof path, dir, "call.json");
    *rc = 0;
    if (access(path, F_OK) != 0)
        return NULL;
    json_t *c = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
    if (!json_is_object(c)) {
        json_decref(c);
        *rc = fail(err, errlen, "%s: %s", path, c ? "not a JSON object" : je.text);
        return NULL;
    }
    const char *status = json_string_value(json_object_get(c, "status"));
    if (status && strcmp(status, "ok")) {
        *rc = fail(err, errlen, "%s: the call did not run (status %s: %.200s)", path, status,
                   json_string_value(json_object_get(c, "error")) ? json_string_value(json_object_get(c, "error"))
                                                                 : "no error text");
        json_decref(c);
        return NULL;
    }
    return c;
}

/* The progress of a folder's inference: the products read (hashed and
 * loaded), then the inference's steps (its classes fitted, its errors). */
static void infer_step(void *ctx, size_t done, size_t total)
{
    tc_progress *p = ctx;
    p->total = PROBE_NPRODUCTS + total;
    tc_progress_update(p, PROBE_NPRODUCTS + done);
}

int tc_probe_infer_dir(const char *dir, const char *profile, const char *record_out, char *summary, size_t summarylen,
                       char *err, size_t errlen)
{
    if (!dir || !summary || !err)
        return fail(err, errlen, "no folder");
    summary[0] = 0;
    json_t *man = NULL, *call = NULL;
    tc_probe_design d;
    uint32_t *A = NULL, *B = NULL, *D[PROBE_NPRODUCTS] = {NULL};
    tc_probe_result r;
    bool have_r = false;
    tc_progress prog = {.enabled = 0};
    int rc = -1, crc;
    if (read_manifest(dir, &man, &d, err, errlen))
        goto out;
    call = read_call(dir, err, errlen, &crc);
    if (crc)
        goto out;
    char own[4096];   /* no profile given: the model of the GPU the call ran on */
    if (!profile && !tc_profile_of_device(tc_probe_call_gpu(call), own, sizeof own) &&
        !tc_profile_path("h100", own, sizeof own)) {
        fail(err, errlen, "no profile of %s and no h100 profile beside the binary", tc_probe_call_gpu(call));
        goto out;
    }
    profile = profile ? profile : own;
    tc_progress_start(&prog, "probe infer", PROBE_NPRODUCTS + 1);
    A = malloc((size_t)d.m * d.k * sizeof *A), B = malloc((size_t)d.k * d.n * sizeof *B);
    if (!A || !B) {
        fail(err, errlen, "out of memory");
        goto out;
    }
    for (int p = 0; p < PROBE_NPRODUCTS; p++) {   /* verify last: its inputs stay for the prediction */
        char na[32], nb[32];
        tc_probe_file_name((tc_probe_product)p, 'A', na, sizeof na);
        tc_probe_file_name((tc_probe_product)p, 'B', nb, sizeof nb);
        tc_probe_inputs(&d, (tc_probe_product)p, A, B);
        json_t *files = json_object_get(man, "files");
        if (check_input(dir, files, na, d.fmt->descr_a, (size_t)d.m, (size_t)d.k, A, err, errlen) ||
            check_input(dir, files, nb, d.fmt->descr_b, (size_t)d.k, (size_t)d.n, B, err, errlen))
            goto out;
        D[p] = malloc((size_t)d.m * d.n * sizeof *D[p]);
        if (!D[p]) {
            fail(err, errlen, "out of memory");
            goto out;
        }
        if (read_d(dir, (tc_probe_product)p, &d, D[p], err, errlen))
            goto out;
        tc_progress_update(&prog, (size_t)p + 1);
    }
    tc_probe_tick tick = {infer_step, &prog};
    if (tc_probe_infer(&d, profile, (const uint32_t *const *)D, A, B, &tick, &r, err, errlen))
        goto out;
    tc_progress_end(&prog);
    have_r = true;
    tc_probe_summary(&d, &r, call, summary, summarylen);
    if (record_out && tc_probe_record_save(record_out, &d, &r, call, profile, err, errlen))
        goto out;
    rc = r.explained ? 0 : 1;
out:
    tc_progress_clear(&prog);   /* an error's message starts on a clean line */
    if (have_r)
        tc_probe_result_free(&r);
    for (int p = 0; p < PROBE_NPRODUCTS; p++)
        free(D[p]);
    free(A), free(B);
    json_decref(man), json_decref(call);
    return rc;
}
