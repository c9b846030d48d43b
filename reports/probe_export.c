/* tcscope probe export (cases/probe.h tc_probe_export_dir): each product's
 * A and B as .npy in the output folder, then manifest.json with the shape,
 * formats, layout, seed, design, what each file is for, and each file's
 * SHA-256, so that the inference refuses a file of another export.
 * Written last: a folder without a manifest is not an export. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cases/npy_write.h"
#include "cases/probe.h"
#include "reports/probe_files.h"
#include "reports/reports.h"

static const char *const purpose[] = {
    "masking inputs: K positions per tensor-core step (L at 0, -L at 1, a small product at q)",
    "masking inputs: where partial sums leave the tensor-core accumulator (one boundary test per output)",
    ("random inputs (verify_inputs) in a grid of rows and columns: the inferred "
     "structure must predict these outputs bit for bit"),
};

typedef struct {
    const unsigned char *buf;
    size_t n;
} blob;

static int emit_blob(FILE *f, const void *ctx)
{
    const blob *b = ctx;
    return fwrite(b->buf, 1, b->n, f) == b->n ? 0 : -1;
}

/* One .npy of a product: written, its entry (dtype, shape, bytes, sha256) put in files. */
static int write_npy(const tc_outdir *out, const char *name, const char *descr, size_t rows, size_t cols,
                     const uint32_t *bits, json_t *files, char *err, size_t errlen)
{
    size_t shape[2] = {rows, cols}, n;
    unsigned char *buf = tc_npy_encode(descr, shape, 2, bits, &n);
    if (!buf) {
        snprintf(err, errlen, "%s: out of memory", name);
        return -1;
    }
    char hex[65];
    tc_probe_sha256_hex(buf, n, hex);
    blob b = {buf, n};
    int rc = tc_out_write(out, name, emit_blob, &b, err, errlen);
    free(buf);
    if (rc == 0)
        json_object_set_new(files, name, json_pack("{s:s, s:[I,I], s:I, s:s}", "dtype", descr, "shape",
                                                   (json_int_t)rows, (json_int_t)cols, "bytes", (json_int_t)n,
                                                   "sha256", hex));
    return rc;
}

static json_t *design_json(const tc_probe_design *d)
{
    return json_pack("{s:f, s:f, s:f, s:i, s:i, s:i, s:i, s:i, s:i, s:i, s:b, s:i, s:i}", "L", d->L, "s_run",
                     d->s_run, "s_step", d->s_step, "step_r", d->step_r, "step_c", d->step_c, "step_q", d->step_q,
                     "runs_r", d->runs_r, "runs_c", d->runs_c, "gran", d->gran, "nbound", d->nbound, "cancel",
                     d->cancel, "vrow", d->vrow, "vcol", d->vcol);
}

static json_t *manifest(const tc_probe_design *d, json_t *files)
{
    json_t *prods = json_array();
    for (int p = 0; p < PROBE_NPRODUCTS; p++) {
        char a[32], b[32], dd[32];
        tc_probe_file_name((tc_probe_product)p, 'A', a, sizeof a);
        tc_probe_file_name((tc_probe_product)p, 'B', b, sizeof b);
        tc_probe_file_name((tc_probe_product)p, 'D', dd, sizeof dd);
        json_array_append_new(prods, json_pack("{s:s, s:s, s:s, s:s, s:s}", "name",
                                               tc_probe_product_name((tc_probe_product)p), "a", a, "b", b, "d", dd,
                                               "purpose", purpose[p]));
    }
    json_t *m = json_pack("{s:s, s:s, s:i, s:i, s:i, s:s, s:s, s:s, s:s, s:s, s:I, s:s, s:s, s:o, s:o, s:o}", "schema",
                          TC_PROBE_SCHEMA, "tcscope_version", tc_version(), "m", d->m, "n", d->n, "k", d->k,
                          "format", d->fmt->name, "a_format", d->path->a->name, "b_format", d->path->b->name,
                          "holds", d->fmt->holds, "predicted_by", d->path->instr, "seed", (json_int_t)d->seed,
                          "verify_inputs",
                          "normal(0, 1) drawn from the seed (the gemm cases' draw), A's K blocks of 32 scaled by "
                          "2^e, e uniform in [-5, 5] from the seed, rounded RNE to the format (FP8 saturating)",
                          "layout",
                          "A: M x K, B: K x N, both C order (row-major), little-endian. For each product compute "
                          "D = A @ B (M x N) once with the call you probe and save D as float32 .npy (C order, "
                          "little-endian; a 16-bit output converted to float32) under the name in 'd'",
                          "products", prods, "design", design_json(d), "files", files);
    if (d->path->fp8)
        json_object_set_new(m, "scales", json_pack("{s:f, s:f}", "a", 1.0, "b", 1.0));
    return m;
}

int tc_probe_export_dir(const char *dir, int m, int n, int k, const char *format, unsigned long long seed, int force,
                        char *err, size_t errlen)
{
    tc_probe_design d;
    if (!dir || !format) {
        snprintf(err, errlen, "no folder or no format");
        return -1;
    }
    if (tc_probe_design_make(m, n, k, format, seed, &d, err, errlen))
        return -1;
    tc_outdir out = {.fd = -1};
    const char *names[2 * PROBE_NPRODUCTS + 1];
    char name_buf[2 * PROBE_NPRODUCTS][32];
    for (int p = 0; p < PROBE_NPRODUCTS; p++)
        for (int w = 0; w < 2; w++) {
            tc_probe_file_name((tc_probe_product)p, w ? 'B' : 'A', name_buf[2 * p + w], sizeof name_buf[0]);
            names[2 * p + w] = name_buf[2 * p + w];
        }
    names[2 * PROBE_NPRODUCTS] = TC_PROBE_MANIFEST;
    if (tc_outdir_open(&out, dir, force != 0, err, errlen) ||
        tc_out_check_free(&out, names, 2 * PROBE_NPRODUCTS + 1, err, errlen)) {
        tc_outdir_close(&out);
        return -1;
    }
    for (int p = 0; force && p <= PROBE_NPRODUCTS; p++) {   /* the earlier export's D's and call.json */
        char d_name[32] = "call.json";
        if (p < PROBE_NPRODUCTS)
            tc_probe_file_name((tc_probe_product)p, 'D', d_name, sizeof d_name);
        if (tc_out_remove(&out, d_name, err, errlen)) {
            tc_outdir_close(&out);
            return -1;
        }
    }
    uint32_t *A = malloc((size_t)m * k * sizeof *A), *B = malloc((size_t)k * n * sizeof *B);
    json_t *files = json_object();
    int rc = A && B ? 0 : -1;
    if (rc)
        snprintf(err, errlen, "out of memory for a %dx%dx%d export", m, n, k);
    for (int p = 0; p < PROBE_NPRODUCTS && !rc; p++) {
        tc_probe_inputs(&d, (tc_probe_product)p, A, B);
        rc = write_npy(&out, names[2 * p], d.fmt->descr_a, (size_t)m, (size_t)k, A, files, err, errlen) ||
             write_npy(&out, names[2 * p + 1], d.fmt->descr_b, (size_t)k, (size_t)n, B, files, err, errlen);
    }
    free(A), free(B);
    if (!rc) {
        json_t *man = manifest(&d, files);
        char *text = json_dumps(man, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        json_decref(man);
        rc = text ? tc_out_write_text(&out, TC_PROBE_MANIFEST, text, err, errlen) : -1;
        free(text);
    } else {
        json_decref(files);
    }
    tc_outdir_close(&out);
    return rc ? -1 : 0;
}
