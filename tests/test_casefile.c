/* Case files: the parser (every field, comments, quotes, CRLF, round trip
 * through tc_case_write), selectors, binding values to bits, and every
 * malformed sample of tests/data/cases/ giving its FILE:LINE message and
 * exit 2 through the CLI. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cases/casefile.h"
#include "tests/testutil.h"

#define SAMPLES "tests/data/cases"

static const char *good =
    "# a comment line\n"
    "[first.case]   # a comment after a header\n"
    "instr  = mma.m16n8k16.f32.f16.f16.f32\n"
    "probes = \"quoted # not a comment\"\n"
    "feature = rounding\n"
    "level  = 3\n"
    "a      = 1, 0x1p-13 x 3, bits:0x3c00\n"
    "b      = -1, 0x1p-12 x 3, 2.5\n"
    "c      = 0x1p-149\n"
    "row    = 2\n"
    "col    = 5\n"
    "vary   = b[1] 0x1p-11\n"
    "expect = exact rz\n"
    "expect = monotone\n"
    "if 0x1p0 -> \"truncation\"\n"
    "if exact -> plain label\n"
    "if nan -> \"a NaN\"\n"
    "\n"
    "[second]\n"
    "instr = in=f16 acc=f32 k=16\n"
    "probes = one more\n"
    "a = 0\n"
    "b = 0\n"
    "vary = permutations 8\n"
    "expect = invariant\n"
    "expect = -0\n"
    "reference = exact ru\n";

static tc_casefile parse_ok(const char *text)
{
    tc_casefile cf;
    char err[512] = "";
    bool ok = tc_casefile_parse("mem.case", text, &cf, err, sizeof err);
    if (!ok)
        fail_msg("parse failed: %s", err);
    return cf;
}

static void parses_every_field(void **state)
{
    tc_casefile cf = parse_ok(good);
    assert_int_equal(cf.n, 2);
    const tc_case *c = &cf.cases[0];
    assert_string_equal(c->name, "first.case");
    assert_int_equal(c->line, 2);
    assert_string_equal(c->file, "mem.case");
    assert_string_equal(c->instr, "mma.m16n8k16.f32.f16.f16.f32");
    assert_string_equal(c->probes, "quoted # not a comment");
    assert_string_equal(c->feature, "rounding");
    assert_int_equal(c->level, 3);
    assert_int_equal(c->na, 5);
    assert_int_equal(c->nb, 5);
    assert_string_equal(c->a[0], "1");
    assert_string_equal(c->a[3], "0x1p-13");
    assert_string_equal(c->a[4], "bits:0x3c00");
    assert_string_equal(c->b[0], "-1");
    assert_string_equal(c->b[4], "2.5");
    assert_string_equal(c->c, "0x1p-149");
    assert_int_equal(c->row, 2);
    assert_int_equal(c->col, 5);
    assert_int_equal(c->vary.kind, TC_VARY_INPUT);
    assert_int_equal(c->vary.which, 'b');
    assert_int_equal(c->vary.index, 1);
    assert_string_equal(c->vary.value, "0x1p-11");
    assert_int_equal(c->nexpect, 2);
    assert_int_equal(c->expect[0].kind, TC_OUT_EXACT);
    assert_int_equal(c->expect[0].mode, TC_RZ);
    assert_int_equal(c->expect[1].kind, TC_OUT_MONOTONE);
    assert_int_equal(c->nalt, 3);
    assert_int_equal(c->alt[0].kind, TC_OUT_VALUE);
    assert_string_equal(c->alt[0].value, "0x1p0");
    assert_string_equal(c->alt[0].label, "truncation");
    assert_int_equal(c->alt[1].kind, TC_OUT_EXACT);
    assert_int_equal(c->alt[1].mode, TC_RNE);
    assert_string_equal(c->alt[1].label, "plain label");
    assert_int_equal(c->alt[2].kind, TC_OUT_NAN);
    assert_int_equal(c->alt[2].line, 17);
    const tc_case *d = &cf.cases[1];
    assert_null(d->feature);
    assert_int_equal(d->level, -1);
    assert_null(d->c);
    assert_int_equal(d->vary.kind, TC_VARY_PERMUTE);
    assert_int_equal(d->vary.count, 8);
    assert_int_equal(d->expect[0].kind, TC_OUT_INVARIANT);
    assert_false(d->expect[0].reference); /* expect: a failure exits 1 */
    assert_int_equal(d->nexpect, 3);
    assert_true(d->expect[2].reference);  /* reference: a departure is a finding */
    assert_int_equal(d->expect[2].kind, TC_OUT_EXACT);
    assert_int_equal(d->expect[2].mode, TC_RU);
    assert_int_equal(d->expect[1].kind, TC_OUT_VALUE);
    tc_casefile_free(&cf);
}

/* The brief's one-line form: alternatives separated by ';' (outside quotes). */
static void semicolon_separates_alternatives(void **state)
{
    tc_casefile cf = parse_ok("[s]\ninstr = all\nprobes = x\na = 1\nb = 1\n"
                              "if 0x1p0 -> \"truncation; really\"; if exact rz -> \"rz\";if nan -> n\n");
    assert_int_equal(cf.cases[0].nalt, 3);
    assert_string_equal(cf.cases[0].alt[0].label, "truncation; really");
    assert_int_equal(cf.cases[0].alt[1].kind, TC_OUT_EXACT);
    assert_int_equal(cf.cases[0].alt[1].mode, TC_RZ);
    assert_string_equal(cf.cases[0].alt[2].label, "n");
    tc_casefile_free(&cf);
}

static void crlf_reads_like_lf(void **state)
{
    size_t n = strlen(good);
    char *crlf = malloc(2 * n + 1), *q = crlf;
    for (const char *p = good; *p; p++) {
        if (*p == '\n')
            *q++ = '\r';
        *q++ = *p;
    }
    *q = '\0';
    tc_casefile a = parse_ok(good), b = parse_ok(crlf);
    assert_int_equal(a.n, b.n);
    assert_string_equal(a.cases[0].probes, b.cases[0].probes);
    assert_string_equal(a.cases[0].alt[1].label, b.cases[0].alt[1].label);
    tc_casefile_free(&a);
    tc_casefile_free(&b);
    free(crlf);
}

/* Writing a case and reading it back gives the same case. */
static void write_then_parse_round_trips(void **state)
{
    tc_casefile a = parse_ok(good);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    for (size_t i = 0; i < a.n; i++)
        tc_case_write(&a.cases[i], f);
    fclose(f);
    tc_casefile b = parse_ok(buf);
    assert_int_equal(a.n, b.n);
    for (size_t i = 0; i < a.n; i++) {
        const tc_case *x = &a.cases[i], *y = &b.cases[i];
        assert_string_equal(x->name, y->name);
        assert_string_equal(x->instr, y->instr);
        assert_string_equal(x->probes, y->probes);
        assert_int_equal(x->na, y->na);
        for (int k = 0; k < x->na; k++) {
            assert_string_equal(x->a[k], y->a[k]);
            assert_string_equal(x->b[k], y->b[k]);
        }
        assert_true((x->c == NULL) == (y->c == NULL));
        assert_int_equal(x->row, y->row);
        assert_int_equal(x->col, y->col);
        assert_int_equal(x->level, y->level);
        assert_int_equal(x->vary.kind, y->vary.kind);
        assert_int_equal(x->vary.count, y->vary.count);
        assert_int_equal(x->nexpect, y->nexpect);
        for (size_t e = 0; e < x->nexpect; e++) {
            assert_int_equal(x->expect[e].kind, y->expect[e].kind);
            assert_int_equal(x->expect[e].mode, y->expect[e].mode);
            assert_int_equal(x->expect[e].reference, y->expect[e].reference);
        }
        assert_int_equal(x->nalt, y->nalt);
        for (size_t e = 0; e < x->nalt; e++)
            assert_string_equal(x->alt[e].label, y->alt[e].label);
    }
    tc_casefile_free(&a);
    tc_casefile_free(&b);
    free(buf);
}

static int count_matches(const char *sel)
{
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    int m = 0;
    for (size_t i = 0; i < n; i++)
        m += tc_selector_match(sel, &cat[i], NULL, 0);
    return m;
}

/* Class selectors select exactly the instructions their terms describe. */
static void selectors_match_their_class(void **state)
{
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    int want_f16f32 = 0, want_all_dense = 0, want_glob = 0;
    for (size_t i = 0; i < n; i++) {
        const tc_instr *ins = &cat[i];
        if (ins->sparse)
            continue;
        want_all_dense++;
        want_f16f32 += !strcmp(ins->a->name, "f16") && !strcmp(ins->b->name, "f16") &&
                       !strcmp(ins->c->name, "f32") && !strcmp(ins->d->name, "f32") && ins->k == 16;
        want_glob += !strncmp(ins->name, "wgmma.", 6) && strstr(ins->name, ".e4m3.") != NULL;
    }
    assert_true(want_f16f32 > 1);
    assert_int_equal(count_matches("in=f16 acc=f32 k=16"), want_f16f32);
    assert_int_equal(count_matches("a=f16 b=f16 c=f32 d=f32 k=16"), want_f16f32);
    assert_int_equal(count_matches("all"), want_all_dense);
    assert_int_equal(count_matches("wgmma.*.e4m3.*"), want_glob);
    assert_true(count_matches("all sparse") > want_all_dense);
    assert_int_equal(count_matches("mma.m16n8k16.f32.f16.f16.f32"), 1);
    assert_int_equal(count_matches("mma.m16n8k16.f32.f16.f16.f32 api=wgmma"), 0);
    char err[256] = "";
    assert_false(tc_selector_match("kmin=x", &cat[0], err, sizeof err));
    assert_non_null(strstr(err, "kmin needs a positive integer"));
}

/* Values become the operand format's bits; a value the format cannot hold
 * exactly is refused. */
static void bind_gives_operand_bits(void **state)
{
    const char *text = "[v]\ninstr = mma.m16n8k16.f32.f16.f16.f32\nprobes = x\n"
                       "a = 1, -0, bits:0x7c00, 0x1p-24, 65504\nb = 2, 1, 1, -1, 0.5\nc = -2.5\n"
                       "vary = c 0x1p-149\n";
    tc_casefile cf = parse_ok(text);
    tc_case_bound bd;
    char err[256];
    const tc_instr *ins = tc_instr_by_name("mma.m16n8k16.f32.f16.f16.f32");
    assert_non_null(ins);
    assert_true(tc_case_bind(&cf.cases[0], ins, &bd, err, sizeof err));
    assert_int_equal(bd.k, 16);
    assert_int_equal(bd.a[0], 0x3c00);
    assert_int_equal(bd.a[1], 0x8000);
    assert_int_equal(bd.a[2], 0x7c00);
    assert_int_equal(bd.a[3], 0x0001);
    assert_int_equal(bd.a[4], 0x7bff);
    assert_int_equal(bd.b[0], 0x4000);
    assert_int_equal(bd.b[3], 0xbc00);
    assert_int_equal(bd.b[4], 0x3800);
    for (int k = 5; k < 16; k++)
        assert_int_equal(bd.a[k] | bd.b[k], 0);
    assert_int_equal(bd.c, 0xc0200000);
    assert_int_equal(bd.vary_bits, 0x00000001);
    tc_casefile_free(&cf);
}

/* ---- Malformed samples ------------------------------------------------------ */

typedef struct {
    char path[512];
    int line;
    char frag[400];
} sample;

static int load_samples(sample *out, int max)
{
    DIR *d = opendir(SAMPLES);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".case"))
            continue;
        sample *s = &out[n];
        snprintf(s->path, sizeof s->path, "%s/%s", SAMPLES, e->d_name);
        FILE *f = fopen(s->path, "r");
        assert_non_null(f);
        char first[512];
        assert_non_null(fgets(first, sizeof first, f));
        fclose(f);
        first[strcspn(first, "\n")] = '\0';
        int used = 0;
        if (sscanf(first, "# expect: %d: %n", &s->line, &used) != 1 || used == 0)
            fail_msg("%s: first line must be '# expect: LINE: message'", s->path);
        snprintf(s->frag, sizeof s->frag, "%s", first + used);
        n++;
    }
    closedir(d);
    return n;
}

/* Each sample gives exactly its "path:line: message" through the library. */
static void malformed_samples_fail_at_their_line(void **state)
{
    static sample s[128];
    int n = load_samples(s, 128);
    assert_true(n >= 40);
    for (int i = 0; i < n; i++) {
        tc_casefile cf;
        char err[1024] = "", want[1024];
        bool ok = tc_casefile_load(s[i].path, &cf, err, sizeof err);
        if (ok)
            fail_msg("%s parsed, but should fail at line %d", s[i].path, s[i].line);
        snprintf(want, sizeof want, "%.511s:%d: %.399s", s[i].path, s[i].line, s[i].frag);
        if (strncmp(err, want, strlen(want)))
            fail_msg("%s:\n  want %s\n  got  %s", s[i].path, want, err);
        assert_int_equal(cf.n, 0);
    }
}

/* ... and through the CLI: one line on stderr, nothing on stdout, exit 2. */
static void malformed_samples_exit_2_through_cli(void **state)
{
    static sample s[128];
    int n = load_samples(s, 128);
    for (int i = 0; i < n; i++) {
        char args[600], want[1024];
        snprintf(args, sizeof args, "cases %.511s", s[i].path);
        tc_run_result r = tc_run_cli(args);
        snprintf(want, sizeof want, "tcscope cases: %.511s:%d: %.399s", s[i].path, s[i].line, s[i].frag);
        if (r.status != 2 || strncmp(r.err, want, strlen(want)))
            fail_msg("%s: status %d, stderr '%s' (want '%s')", s[i].path, r.status, r.err, want);
        assert_string_equal(r.out, "");
        const char *nl = strchr(r.err, '\n');
        assert_non_null(nl);
        assert_int_equal((size_t)(nl - r.err) + 1, strlen(r.err)); /* exactly one line */
        tc_run_result_free(&r);
    }
}

static void missing_file_exits_2(void **state)
{
    tc_run_result r = tc_run_cli("cases /nonexistent/x.case");
    assert_int_equal(r.status, 2);
    assert_non_null(strstr(r.err, "/nonexistent/x.case: cannot open"));
    tc_run_result_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_every_field),
        cmocka_unit_test(semicolon_separates_alternatives),
        cmocka_unit_test(crlf_reads_like_lf),
        cmocka_unit_test(write_then_parse_round_trips),
        cmocka_unit_test(selectors_match_their_class),
        cmocka_unit_test(bind_gives_operand_bits),
        cmocka_unit_test(malformed_samples_fail_at_their_line),
        cmocka_unit_test(malformed_samples_exit_2_through_cli),
        cmocka_unit_test(missing_file_exits_2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
