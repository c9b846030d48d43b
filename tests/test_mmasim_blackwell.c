/* MMA-Sim's answers for the Blackwell forms Hopper lacks
 * (tools/data/mmasim-blackwell.txt.gz, written with the profiles by
 * tools/mmasim_blackwell.py from the mmasim package: third-party, not
 * measured) replayed through the profiles oracle/profiles/b200.profile
 * (tcgen05.mma) and rtx5090.profile (sm_120a mma): kind::f16, tf32,
 * f8f6f4 and the block-scaled mxf8f6f4, mxf4, mxf4nvf4 forms, and the
 * catalogue's warp-level mma sm_120a runs (f16, bf16, tf32, FP8), every row
 * bit for bit, each mismatch printed (unscaled rows also: model_dot's fast
 * path equals the reference). Then that the replay can fail: the
 * same rows under a profile with one field changed (align_bits one less,
 * scale_group none) miss some. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "oracle/model.h"
#include "oracle/model_scales.h"
#include "oracle/profile.h"
#include "probes/probes.h"

#define DATA "tools/data/mmasim-blackwell.txt.gz"
#define MAXK 64

typedef struct {
    char name[160];
    int k, nscales;
    uint64_t a[MAXK], b[MAXK], c, sa[4], sb[4], d;
} row;

/* "x,y,z" of hex into v (at most max); returns how many, -1 on bad text. */
static int hex_list(const char *s, uint64_t *v, int max)
{
    if (!strcmp(s, "-"))
        return 0;
    int n = 0;
    for (;;) {
        char *end;
        if (n == max)
            return -1;
        v[n++] = strtoull(s, &end, 16);
        if (end == s)
            return -1;
        if (!*end)
            return n;
        if (*end != ',')
            return -1;
        s = end + 1;
    }
}

static bool parse(char *line, row *r)
{
    char *tok[8], *save = NULL;
    int n = 0;
    for (char *t = strtok_r(line, " \n", &save); t && n < 8; t = strtok_r(NULL, " \n", &save))
        tok[n++] = t;
    if (n != 7 || strlen(tok[0]) >= sizeof r->name)
        return false;
    strcpy(r->name, tok[0]);
    r->k = hex_list(tok[1], r->a, MAXK);
    int kb = hex_list(tok[2], r->b, MAXK);
    r->nscales = hex_list(tok[4], r->sa, 4);
    int ns = hex_list(tok[5], r->sb, 4);
    r->c = strtoull(tok[3], NULL, 16);
    r->d = strtoull(tok[6], NULL, 16);
    return r->k > 0 && kb == r->k && r->nscales >= 0 && ns == r->nscales;
}

typedef struct {
    model_profile b200, rtx5090;
    row *rows;
    size_t n;
} data;

static int setup(void **state)
{
    data *d = calloc(1, sizeof *d);
    char err[300];
    if (!d || profile_load("oracle/profiles/b200.profile", &d->b200, err, sizeof err) ||
        profile_load("oracle/profiles/rtx5090.profile", &d->rtx5090, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    FILE *f = popen("gzip -dc " DATA, "r");
    char line[4096];
    size_t cap = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        if (d->n == cap) {
            cap = cap ? 2 * cap : 1024;
            d->rows = realloc(d->rows, cap * sizeof *d->rows);
            if (!d->rows)
                return -1;
        }
        if (!parse(line, &d->rows[d->n])) {
            fprintf(stderr, DATA ": bad row %zu\n", d->n + 1);
            return -1;
        }
        d->n++;
    }
    if (!f || pclose(f) != 0 || d->n == 0)
        return -1;
    *state = d;
    return 0;
}

static int teardown(void **state)
{
    data *d = *state;
    profile_free(&d->b200);
    profile_free(&d->rtx5090);
    free(d->rows);
    free(d);
    return 0;
}

/* Rows the model misses under each row's profile params, changed by tweak
 * (NULL: as they are); prints the first `show` misses. */
static size_t replay(const data *d, void (*tweak)(model_params *), int show, size_t *forms)
{
    size_t miss = 0;
    const char *last = "";
    model *m = NULL;
    model_kind_form kf = {0};
    *forms = 0;
    for (size_t i = 0; i < d->n; i++) {
        const row *r = &d->rows[i];
        if (strcmp(r->name, last)) {
            char err[300];
            model_free(m);
            const tc_instr *ins = tc_instr_by_name(r->name);   /* sm_120a's warp-level mma */
            if (ins)
                kf = (model_kind_form){{ins->a, ins->b, ins->c, ins->d}, ins->k, NULL, 0};
            else if (!model_kind_form_of(r->name, &kf, err, sizeof err))
                fail_msg("%s", err);
            const model_profile *prof = !strncmp(r->name, "tcgen05.", 8) ? &d->b200 : &d->rtx5090;
            const model_params *p = profile_lookup(prof, r->name);
            if (!p)
                fail_msg("%s: no section in its profile", r->name);
            model_params q = *p;
            if (tweak)
                tweak(&q);
            if (!(m = model_new(&q, kf.f, err, sizeof err)))
                fail_msg("%s: %s", r->name, err);
            if (r->k != kf.k || (kf.block ? r->k / kf.block : 0) != r->nscales)
                fail_msg("%s: a row of K %d with %d scales", r->name, r->k, r->nscales);
            oracle_scales s = {kf.scale_fmt, kf.block, r->sa, r->sb};
            const char *why = kf.scale_fmt ? model_scaled_check(m, r->k, &s) : NULL;
            if (why)
                fail_msg("%s: %s", r->name, why);
            last = r->name;
            (*forms)++;
        }
        oracle_scales s = {kf.scale_fmt, kf.block, r->sa, r->sb};
        uint64_t got = kf.scale_fmt ? model_dot_scaled(m, r->k, r->a, r->b, r->c, &s)
                                    : model_dot(m, r->k, r->a, r->b, r->c);
        if (!kf.scale_fmt && got != model_dot_scaled(m, r->k, r->a, r->b, r->c, NULL))
            fail_msg("%s row %zu: model_dot's fast path and the reference differ", r->name, i + 1);
        if (got != r->d && (int)miss++ < show)
            printf("    mismatch: %s row %zu: model %llx, MMA-Sim %llx\n", r->name, i + 1, (unsigned long long)got,
                   (unsigned long long)r->d);
    }
    model_free(m);
    return miss;
}

static void every_row_replays_through_its_profile(void **state)
{
    size_t forms, miss = replay(*state, NULL, 1000, &forms);
    printf("    %zu MMA-Sim rows of %zu forms: %zu mismatches\n", ((data *)*state)->n, forms, miss);
    assert_true(forms >= 170);
    assert_int_equal(miss, 0);
}

static void one_bit_fewer(model_params *p)
{
    p->align_bits--;
}

static void no_groups(model_params *p)
{
    p->scale_group = 0;
}

static void a_changed_field_is_caught(void **state)
{
    size_t forms, f = replay(*state, one_bit_fewer, 0, &forms), g = replay(*state, no_groups, 0, &forms);
    printf("    align_bits - 1: %zu rows missed; scale_group none: %zu rows missed\n", f, g);
    assert_true(f > 100);
    assert_true(g > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_row_replays_through_its_profile),
        cmocka_unit_test(a_changed_field_is_caught),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
