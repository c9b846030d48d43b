/* Packed records (reports/record_packed.h, SCHEMA.md "Packed records"):
 * written and read back byte for byte (corpus lines with a .rs twin, a hunt
 * sample, a gemm's upper-case outputs), outputs stored as little-endian bits
 * and inputs not stored at all; the reader refuses, naming the line, inputs
 * whose sha256 differs (exit 2 from the command, the file named), a
 * generator it does not know, blobs that run past the stream, a stream cut
 * short; the writer refuses inputs that are not the generator's. Today's
 * form is still read: a committed excerpt of the old .jsonl.gz chain
 * record reads as the same line the packed record gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <lzma.h>

#include "probes/backend_corpus.h"
#include "reports/record_packed.h"
#include "tests/corpus_lines.h"
#include "tests/testutil.h"

#define EXCERPT "tests/data/h100-chain-excerpt.jsonl.gz"
#define CHAINS "reports/baselines/h100-chain.packed.xz"

typedef struct {
    char *p;
    size_t n;
} bytes;

static bytes pack_text(const char *text, tc_packed_stats *st)
{
    bytes b = {NULL, 0};
    char err[600];
    FILE *m = open_memstream(&b.p, &b.n);
    if (tc_packed_write(text, strlen(text), m, st, err, sizeof err))
        fail_msg("%s", err);
    fclose(m);
    return b;
}

/* The decompressed stream of a packed record, and back: what a damaged
 * record is made from. */
static bytes xz_open_up(bytes xz)
{
    bytes raw = {malloc(1 << 24), 0};
    size_t in = 0;
    uint64_t limit = UINT64_MAX;
    assert_int_equal(lzma_stream_buffer_decode(&limit, 0, NULL, (uint8_t *)xz.p, &in, xz.n, (uint8_t *)raw.p,
                                               &raw.n, 1 << 24),
                     LZMA_OK);
    return raw;
}

static bytes xz_close_up(bytes raw)
{
    bytes xz = {malloc(lzma_stream_buffer_bound(raw.n)), 0};
    assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, (uint8_t *)raw.p, raw.n, (uint8_t *)xz.p,
                                             &xz.n, lzma_stream_buffer_bound(raw.n)),
                     LZMA_OK);
    return xz;
}

/* tc_packed_read of xz: 0 with the text, or -1 with err. */
static int read_back(bytes xz, char **text, size_t *len, char *err, size_t errlen)
{
    return tc_packed_read((unsigned char *)xz.p, xz.n, text, len, NULL, err, errlen);
}

/* raw with the first `from` replaced by `to`, packed again. */
static bytes tampered(bytes raw, const char *from, const char *to)
{
    char *at = memmem(raw.p, raw.n, from, strlen(from));
    assert_non_null(at);
    size_t head = (size_t)(at - raw.p), fl = strlen(from), tl = strlen(to);
    bytes t = {malloc(raw.n - fl + tl), raw.n - fl + tl};
    memcpy(t.p, raw.p, head);
    memcpy(t.p + head, to, tl);
    memcpy(t.p + head + tl, at + fl, raw.n - head - fl);
    bytes xz = xz_close_up(t);
    free(t.p);
    return xz;
}

static void refused(bytes xz, const char *want1, const char *want2)
{
    char *text = NULL, err[600];
    size_t len;
    assert_int_equal(read_back(xz, &text, &len, err, sizeof err), -1);
    assert_null(text);
    if (!strstr(err, want1) || (want2 && !strstr(err, want2)))
        fail_msg("wanted '%s'%s%s in: %s", want1, want2 ? " and " : "", want2 ? want2 : "", err);
    free(xz.p);
}

/* Corpus lines of the exact backend, a shared-memory wgmma and its .rs twin
 * among them: written packed, read back byte for byte, far smaller, and
 * only the outputs stored. */
static char *exact_corpus_text(void)
{
    char err[384], *buf = NULL;
    size_t len = 0;
    tc_backend *e = tc_backend_open("exact", err, sizeof err);
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(tc_corpus_line(e, tc_instr_by_name("mma.m16n8k32.f32.e5m2.e4m3.f32"), 1000, 5, f, err,
                                    sizeof err), 0);
    assert_int_equal(tc_corpus_line(e, tc_instr_by_name("wgmma.m64n8k16.f32.bf16.bf16"), 600, 9, f, err,
                                    sizeof err), 0);
    assert_int_equal(tc_corpus_line(e, tc_instr_by_name("wgmma.m64n8k16.f32.bf16.bf16.rs"), 600, 9, f, err,
                                    sizeof err), 0);
    fclose(f);
    tc_backend_close(e);
    return buf;
}

static void corpus_lines_read_back_byte_for_byte(void **state)
{
    char *text = exact_corpus_text(), *back = NULL, err[600];
    tc_packed_stats w, r;
    bytes xz = pack_text(text, &w);
    size_t len;
    assert_int_equal(tc_packed_read((unsigned char *)xz.p, xz.n, &back, &len, &r, err, sizeof err), 0);
    assert_int_equal(len, strlen(text));
    assert_memory_equal(back, text, len);
    /* 8 tiles of 16x32, 32x8, 16x8 and 2 of 64x16, 16x8, 64x8; the .rs line
     * has nothing of its own (inputs_of, d_same_as): kept as it is */
    assert_int_equal(w.lines, 3);
    assert_int_equal(w.packed, 2);
    assert_int_equal(w.inputs, 8 * (512 + 256 + 128) + 2 * (1024 + 128 + 512));
    assert_int_equal(w.outputs, 8 * 128 + 2 * 512);
    assert_int_equal(r.inputs, w.inputs);
    assert_int_equal(r.outputs, w.outputs);
    assert_true(xz.n * 4 < len);
    /* no input is stored: the stream holds no hex and fewer bytes than the outputs' text */
    bytes raw = xz_open_up(xz);
    assert_null(memmem(raw.p, raw.n, "\"a\":\"", 5));
    assert_true(raw.n < len / 4);
    free(raw.p), free(xz.p), free(back), free(text);
}

/* Outputs are little-endian bits of the hex width: "3f32" is bytes 32 3f,
 * "3F3273FE" bytes fe 73 32 3f; the case of the hex is kept. */
static void outputs_are_little_endian_bits(void **state)
{
    const char *text = "{\"kind\":\"hunt\",\"instr\":\"mma.m16n8k8.f16.f16.f16.f16\",\"sample\":{\"cancel\":"
                       "\"3f32000a\",\"tiny\":\"\"}}\n"
                       "{\"kind\":\"gemm\",\"path\":\"f16\",\"outputs\":{\"n\":2,\"d_hex\":\"3F3273FE4012059A\"}}\n";
    tc_packed_stats st;
    bytes xz = pack_text(text, &st), raw = xz_open_up(xz);
    assert_int_equal(st.outputs, 4);
    static const unsigned char hunt[] = {0x32, 0x3f, 0x0a, 0x00}, gemm[] = {0xfe, 0x73, 0x32, 0x3f,
                                                                            0x9a, 0x05, 0x12, 0x40};
    const char *l1 = memchr(raw.p + strlen(TC_PACKED_MAGIC) + 1, '\n', raw.n);
    assert_memory_equal(l1 + 1, hunt, 4);
    const char *l2 = memchr(l1 + 5, '\n', raw.n - (size_t)(l1 + 5 - raw.p));
    assert_memory_equal(l2 + 1, gemm, 8);
    assert_int_equal((size_t)(l2 + 9 - raw.p), raw.n);
    char *back = NULL, err[600];
    size_t len;
    assert_int_equal(read_back(xz, &back, &len, err, sizeof err), 0);
    assert_int_equal(len, strlen(text));
    assert_memory_equal(back, text, len);
    free(back), free(raw.p), free(xz.p);
}

/* Inputs whose sha256 is not the recorded one (as when the generator has
 * changed): refused, naming the line and instruction; through the opener
 * the file too; the command exits 2. */
static void inputs_that_do_not_hash_are_refused(void **state)
{
    char *text = exact_corpus_text();
    bytes xz = pack_text(text, NULL), raw = xz_open_up(xz);
    char *sha = memmem(raw.p, raw.n, "\"sha256\":\"", 10);
    assert_non_null(sha);
    char from[80], to[80];
    snprintf(from, sizeof from, "%.74s", sha);
    snprintf(to, sizeof to, "%s", from);
    to[20] = to[20] == '0' ? '1' : '0';
    bytes bad = tampered(raw, from, to);
    char path[128];
    snprintf(path, sizeof path, "%s/bad.packed.xz", tc_tmp_root());
    FILE *f = fopen(path, "wb");
    fwrite(bad.p, 1, bad.n, f);
    fclose(f);
    refused(bad, "line 1 (mma.m16n8k32.f32.e5m2.e4m3.f32)", "sha256");
    char err[700];
    tc_record_file rf;
    assert_null(tc_record_open(path, &rf, err, sizeof err));
    assert_non_null(strstr(err, path));
    assert_non_null(strstr(err, "the generator is not the one that made the record"));
    char args[300];
    snprintf(args, sizeof args, "pack %s --text", path);
    tc_run_result r = tc_run_cli(args);
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, path));
    assert_non_null(strstr(r.err, "sha256"));
    tc_run_result_free(&r);
    /* a changed seed draws other inputs: the same refusal */
    refused(tampered(raw, "\"seed\":5", "\"seed\":6"), "line 1", "sha256");
    /* a generator this tcscope does not know */
    refused(tampered(raw, "tc_corpus_inputs/1", "tc_corpus_inputs/9"), "line 1", "no such generator");
    free(raw.p), free(xz.p), free(text);
}

/* The writer packs only inputs it can draw again. */
static void the_writer_refuses_inputs_not_the_generators(void **state)
{
    char *text = exact_corpus_text(), err[600], *a = strstr(text, "\"a\":\"");
    a[10] = a[10] == '0' ? '1' : '0';
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    assert_int_equal(tc_packed_write(text, strlen(text), m, NULL, err, sizeof err), -1);
    fclose(m);
    free(buf);
    assert_non_null(strstr(err, "line 1: \"a\" is not what tc_corpus_inputs/1 draws"));
    assert_non_null(strstr(err, "(mma.m16n8k32.f32.e5m2.e4m3.f32)"));
    /* nor a record that is not lines */
    m = open_memstream(&buf, &n);
    assert_int_equal(tc_packed_write("{\"kind\":\"hunt\"}", 15, m, NULL, err, sizeof err), -1);
    fclose(m);
    free(buf);
    assert_non_null(strstr(err, "no newline"));
    free(text);
}

/* A damaged packed record is an error, never a crash or a half text. */
static void damaged_records_are_refused(void **state)
{
    const char *text = "{\"kind\":\"hunt\",\"instr\":\"mma.m16n8k8.f16.f16.f16.f16\",\"sample\":{\"cancel\":"
                       "\"3f32000a\"}}\n{\"kind\":\"end\",\"objects\":1}\n";
    bytes xz = pack_text(text, NULL), raw = xz_open_up(xz);
    refused(tampered(raw, "\"n\":2", "\"n\":2000000000"), "line 1", "past the end");
    refused(tampered(raw, "\"n\":2", "\"n\":-1"), "line 1", "a blob without");
    refused(tampered(raw, "\"bits\":16", "\"bits\":12"), "line 2", NULL); /* fewer bytes: the next line is off */
    refused(tampered(raw, "\"cancel\":null", "\"cancel\":\"x\""), "line 1", "a null member");
    refused(tampered(raw, TC_PACKED_MAGIC, "tcscope-packed/0"), "not a packed record", NULL);
    refused(tampered(raw, "\"objects\":1}\n", "\"objects\":1}"), "line 2", "cut short");
    bytes cut = {xz.p, xz.n / 2};
    char *back = NULL, err[600];
    size_t len;
    assert_int_equal(read_back(cut, &back, &len, err, sizeof err), -1);
    assert_non_null(strstr(err, "xz stream"));
    free(raw.p), free(xz.p);
}

/* The old form is read as it always was, and gives the very line the
 * packed record gives: a committed excerpt (header, the chain line of
 * mma.m16n8k8.f16.f16.f16.f16, trailer) of the .jsonl.gz record. */
static char *text_of(const char *path, size_t *len)
{
    char err[700], buf[4096], *t = NULL;
    tc_record_file rf;
    FILE *f = tc_record_open(path, &rf, err, sizeof err);
    if (!f)
        fail_msg("%s", err);
    FILE *m = open_memstream(&t, len);
    for (size_t got; (got = fread(buf, 1, sizeof buf, f)) > 0;)
        fwrite(buf, 1, got, m);
    fclose(m);
    assert_int_equal(tc_record_close(f, &rf), 0);
    return t;
}

static void todays_form_is_still_read(void **state)
{
    size_t ol, nl;
    char *old = text_of(EXCERPT, &ol), *all = text_of(CHAINS, &nl);
    char *line = strchr(old, '\n') + 1, *end = strchr(line, '\n') + 1;
    assert_non_null(strstr(line, "\"instr\":\"mma.m16n8k8.f16.f16.f16.f16\""));
    char *in_new = memmem(all, nl, line, (size_t)(end - line));
    assert_non_null(in_new);
    assert_true(in_new[-1] == '\n');
    tc_chain_rec rec;
    char err[300];
    *(end - 1) = '\0';
    assert_int_equal(tc_chain_parse(line, &rec, err, sizeof err), 0);
    assert_int_equal(rec.nchains * (size_t)rec.len * 16 * 8, 4 * 8 * 128);
    tc_chain_rec_free(&rec);
    *(end - 1) = '\n';
    /* and packs to the same bytes as the committed record's line */
    tc_packed_stats st;
    bytes xz = pack_text(old, &st);
    assert_int_equal(st.packed, 1);
    assert_int_equal(st.inputs, 4 * 16 * 8 + 32 * (8 * 8 + 16 * 8));
    assert_int_equal(st.outputs, 2 * 32 * 16 * 8);
    free(xz.p), free(old), free(all);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(corpus_lines_read_back_byte_for_byte),
        cmocka_unit_test(outputs_are_little_endian_bits),
        cmocka_unit_test(inputs_that_do_not_hash_are_refused),
        cmocka_unit_test(the_writer_refuses_inputs_not_the_generators),
        cmocka_unit_test(damaged_records_are_refused),
        cmocka_unit_test(todays_form_is_still_read),
    };
    return cmocka_run_group_tests(tests, tc_tmp_root_make, tc_tmp_root_remove);
}
