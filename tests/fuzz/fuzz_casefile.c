/* Case files (cases/casefile.h): any text parses or fails with
 * "fuzz:LINE: message"; a file that parses is written back by
 * tc_case_write, and that text parses to the same cases (item 12 of
 * issue 14: the reader took text its own writer could not give back). */
#include <stdio.h>

#include "cases/casefile.h"
#include "tests/fuzz/fuzz.h"

static char *written(const tc_casefile *cf)
{
    char *buf = NULL;
    size_t len;
    FILE *f = open_memstream(&buf, &len);
    FUZZ_CHECK(f != NULL);
    for (size_t i = 0; i < cf->n; i++)
        tc_case_write(&cf->cases[i], f);
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096) /* a case's meaning is checked on every instruction: keep inputs short */
        return 0;
    char *text = fuzz_text(data, size), err[512];
    tc_casefile cf, again;
    if (tc_casefile_parse("fuzz", text, &cf, err, sizeof err)) {
        char *w1 = written(&cf);
        if (!tc_casefile_parse("written", w1, &again, err, sizeof err)) {
            fprintf(stderr, "written case file rejected: %s\n%s", err, w1);
            FUZZ_CHECK(0);
        }
        FUZZ_CHECK(again.n == cf.n);
        char *w2 = written(&again);
        FUZZ_CHECK(!strcmp(w1, w2));
        free(w1);
        free(w2);
        tc_casefile_free(&again);
        tc_casefile_free(&cf);
    } else
        FUZZ_CHECK(!strncmp(err, "fuzz:", 5));
    free(text);
    return 0;
}
