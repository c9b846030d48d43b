/* The case-file generator (see gen.h): the families of cases/families/, each
 * asked for its text cases, for one target. Every value is an exact dyadic
 * m * 2^e chosen from the target's formats: precision p, smallest/largest
 * normal exponents, and the range of products that two normal inputs can
 * make. The yardstick is the exact oracle's ("reference = exact rne": a
 * departure is a finding about the hardware, not a failed expectation of the
 * user's); alternatives are computed by plain integer arithmetic from a
 * stated model of the hardware, so a case reports which model the
 * hardware's answer fits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/families/families.h"
#include "cases/gen.h"

static bool skip_target(const tc_gen_target *t)
{
    return tc_format_is_int(t->a) || tc_format_is_int(t->b) || tc_format_is_int(t->d);
}

static size_t nfamilies(void)
{
    size_t n = 0;
    while (tc_families_text[n])
        n++;
    return n;
}

const char *const *tc_gen_families(size_t *count)
{
    static const char *names[32];
    size_t n = nfamilies();
    if (n > sizeof names / sizeof names[0])
        abort(); /* a family added to tc_families_text without room here */
    for (size_t i = 0; i < n; i++)
        names[i] = tc_families_text[i]->name;
    *count = n;
    return names;
}

void tc_gen_target_of(const tc_instr *ins, tc_gen_target *t)
{
    memset(t, 0, sizeof *t);
    t->a = ins->a;
    t->b = ins->b;
    t->c = ins->c;
    t->d = ins->d;
    t->k = ins->k < TC_CASE_MAX_K ? ins->k : TC_CASE_MAX_K;
    snprintf(t->instr, sizeof t->instr, "%s", ins->name);
    snprintf(t->prefix, sizeof t->prefix, "%s", ins->name);
}

int tc_gen_family(const char *family, const tc_gen_target *t, tc_casefile *out, char *err,
                  size_t errlen)
{
    bool all = !strcmp(family, "all");
    int n = 0;
    bool found = all;
    for (const tc_family *const *f = tc_families_text; *f; f++)
        if (all || !strcmp(family, (*f)->name)) {
            found = true;
            if (!skip_target(t))
                n += (*f)->text(t, out);
        }
    if (!found) {
        size_t cnt;
        const char *const *names = tc_gen_families(&cnt);
        int len = snprintf(err, errlen, "unknown case family '%s' (all", family);
        for (size_t i = 0; i < cnt && len > 0 && (size_t)len < errlen; i++)
            len += snprintf(err + len, errlen - (size_t)len, ", %s", names[i]);
        if (len > 0 && (size_t)len < errlen)
            snprintf(err + len, errlen - (size_t)len, ")");
        return -1;
    }
    return n;
}
