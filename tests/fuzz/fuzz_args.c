/* Numbers and lists on the command line (cli/args.c): the first byte picks
 * a parser, the rest is the option's text. A value is taken or refused
 * with a message (cli_fail), never both; a count taken is in its range and
 * is the number the text writes (strtoull on the digits, strtod on 1e5);
 * a list of counts holds, item by item, what each item reads as alone;
 * a distribution (--dist, cases/app.h) taken has finite parameters in
 * its range, one refused says why. */
#include <errno.h>
#include <math.h>

#include "cases/app.h"
#include "cli/cli.h"
#include "probes/probes.h"
#include "tests/fuzz/fuzz.h"

/* The command's messages (cli/tcscope.c prints them): counted here. */
static int failed;
int cli_fail(const char *cmd, const char *fmt, ...)
{
    failed++;
    return TC_EXIT_USAGE;
}
void cli_warn(const char *cmd, const char *fmt, ...) {}

static bool digits_only(const char *s)
{
    return *s && strspn(s, "0123456789") == strlen(s);
}

/* What a taken count must be: the digits' value, or the 1e5 form's. */
static void count_is_text(const char *v, unsigned long long x)
{
    if (digits_only(v)) {
        FUZZ_CHECK(strtoull(v, NULL, 10) == x);
    } else {
        FUZZ_CHECK(strpbrk(v, "eE") != NULL);
        double d = strtod(v, NULL);
        FUZZ_CHECK(d >= 0 && (x > 1ull << 53 || d == (double)x));
    }
}

static void count(const char *v)
{
    static const unsigned long long his[] = {1, 4096, 1000000, 1000000000, ~0ull};
    unsigned long long x, hi = his[strlen(v) % 5];
    failed = 0;
    bool ok = cli_count("fuzz", "--count", v, 1, hi, &x);
    FUZZ_CHECK(ok == !failed);
    if (ok) {
        FUZZ_CHECK(x >= 1 && x <= hi);
        count_is_text(v, x);
    }
}

static void count_list(const char *v)
{
    int out[8], n, one;
    failed = 0;
    bool ok = cli_count_list("fuzz", "--list", v, 0, 100000, 8, out, &n);
    FUZZ_CHECK(ok == !failed && n >= 0 && n <= 8);
    if (!ok)
        return;
    /* item by item: each reads alone as the list read it */
    char *copy = strdup(v), *rest = copy, *item;
    FUZZ_CHECK(copy != NULL);
    int i = 0;
    while ((item = strsep(&rest, ",")) != NULL) {
        FUZZ_CHECK(i < n && cli_count_int("fuzz", "--list", item, 0, 100000, &one) && one == out[i]);
        i++;
    }
    FUZZ_CHECK(i == n);
    free(copy);
}

static void index_of(const char *v)
{
    unsigned i, n;
    failed = 0;
    bool ok = cli_index_of("fuzz", "--shard", v, 1000000, &i, &n);
    FUZZ_CHECK(ok == !failed);
    if (ok) {
        FUZZ_CHECK(i < n && n <= 1000000);
        const char *slash = strchr(v, '/');
        FUZZ_CHECK(slash && digits_only(slash + 1) && strtoull(v, NULL, 10) == i &&
                   strtoull(slash + 1, NULL, 10) == n);
    }
}

static void seed(const char *v)
{
    uint64_t x;
    failed = 0;
    bool ok = cli_seed("fuzz", "--seed", v, &x);
    FUZZ_CHECK(ok == !failed);
    if (ok) {
        FUZZ_CHECK(*v && !strchr(v, '-') && !strchr(v, ' ') && !strchr(v, '+'));
        bool hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
        errno = 0;
        FUZZ_CHECK(strtoull(hex ? v + 2 : v, NULL, hex ? 16 : 10) == x && errno == 0);
    }
}

static void reals(const char *v)
{
    double x, lo, hi;
    failed = 0;
    if (cli_tolerance("fuzz", "--tol", v, &x))
        FUZZ_CHECK(!failed && x >= 0 && x < 1 + 1e-12);
    else
        FUZZ_CHECK(failed);
    if (cli_fraction(v, 0, 1, &x))
        FUZZ_CHECK(x >= 0 && x <= 1);
    if (cli_pos_double(v, &x))
        FUZZ_CHECK(x > 0 && isfinite(x));
    if (cli_range(v, &lo, &hi))
        FUZZ_CHECK(lo > 0 && lo < hi && isfinite(hi));
}

static void lists(const char *v)
{
    failed = 0;
    int rc = cli_list_check("fuzz", "--instr", v, true);
    FUZZ_CHECK((rc == TC_EXIT_OK) == !failed);
    if (rc == TC_EXIT_OK) /* no empty item: the names are the catalogue's */
        FUZZ_CHECK(*v && v[0] != ',' && v[strlen(v) - 1] != ',' && !strstr(v, ",,"));
    size_t n;
    const tc_instr *cat = tc_catalogue(&n);
    for (size_t i = 0; i < n; i += 17)
        if (cli_instr_selected(v, cat[i].name) && strcmp(v, "all"))
            FUZZ_CHECK(strstr(v, cat[i].name) != NULL);
    const char *s = cli_safe(v);
    for (; *s; s++)
        FUZZ_CHECK(((unsigned char)*s >= 0x20 && *s != 0x7f) || *s == '\t'); /* a tab stays a tab */
}

static void dist(const char *v)
{
    app_dist d;
    char err[400];
    if (app_dist_parse(v, &d, err, sizeof err)) {
        FUZZ_CHECK(err[0] == '\0' && d.desc[0] && isfinite(d.p1) && isfinite(d.p2));
        FUZZ_CHECK(d.kind == APP_UNIFORM      ? d.p1 < d.p2
                   : d.kind == APP_LOGUNIFORM ? d.p1 >= 1 && d.p1 <= 60
                   : d.kind == APP_INTS       ? true
                                              : d.p2 > 0); /* normal, lognormal: sigma */
    } else
        FUZZ_CHECK(!strncmp(err, "bad --dist '", 12));
    app_scaling sc;
    if (app_scaling_parse(v, &sc))
        FUZZ_CHECK(!strcmp(app_scaling_name(sc), v));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 300)
        return 0;
    char *v = fuzz_text(data + 1, size - 1);
    switch (data[0] % 7) {
    case 0: count(v); break;
    case 1: count_list(v); break;
    case 2: index_of(v); break;
    case 3: seed(v); break;
    case 4: reals(v); break;
    case 6: dist(v); break;
    default: lists(v); break;
    }
    free(v);
    return 0;
}
