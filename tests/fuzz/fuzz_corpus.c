/* Corpus and chain lines (probes/backend_corpus.h): any line parses or
 * fails with a message, and nothing is allocated before the line's counts
 * and hex lengths agree (item 11 of issue 14: ntiles sized 11 GB first).
 * Input: one line, or two (a twin, then a line that may take from it); a
 * second line that parses resolves against the first or says why not. */
#include <stdio.h>

#include "probes/backend_corpus.h"
#include "tests/fuzz/fuzz.h"

static void corpus_lines(const char *first, const char *second)
{
    char err[512];
    tc_corpus_rec twin, c;
    int have_twin = tc_corpus_parse(first, &twin, err, sizeof err) == 0;
    if (!have_twin)
        FUZZ_CHECK(err[0] != '\0');
    if (second && tc_corpus_parse(second, &c, err, sizeof err) == 0) {
        if (tc_corpus_resolve(&c, have_twin ? &twin : NULL, err, sizeof err) == 0)
            FUZZ_CHECK((c.A && c.B && c.C && c.D) || !c.inputs_of[0]);
        tc_corpus_rec_free(&c);
    }
    if (have_twin) {
        FUZZ_CHECK(twin.ins && twin.ntiles >= 1);
        FUZZ_CHECK(twin.inputs_of[0] || (twin.A && twin.B && twin.C));
        FUZZ_CHECK(twin.d_same || twin.D);
        tc_corpus_rec_free(&twin);
    }
}

static void chain_lines(const char *first, const char *second)
{
    char err[512];
    tc_chain_rec twin, r;
    int have_twin = tc_chain_parse(first, &twin, err, sizeof err) == 0;
    if (!have_twin)
        FUZZ_CHECK(err[0] != '\0');
    else {
        FUZZ_CHECK(twin.ins && twin.nchains >= 1 && twin.len >= 1);
        FUZZ_CHECK(twin.same_as[0] || (twin.A0 && twin.B && twin.C && twin.X && twin.D));
    }
    if (second && tc_chain_parse(second, &r, err, sizeof err) == 0) {
        if (tc_chain_resolve(&r, have_twin ? &twin : NULL, err, sizeof err) == 0)
            FUZZ_CHECK(r.A0 && r.B && r.C && r.X && r.D);
        tc_chain_rec_free(&r);
    }
    if (have_twin)
        tc_chain_rec_free(&twin);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    char *nl = strchr(text, '\n'), *second = NULL;
    if (nl) {
        *nl = '\0';
        second = nl + 1;
        if (strchr(second, '\n'))
            *strchr(second, '\n') = '\0';
    }
    corpus_lines(text, second);
    chain_lines(text, second);
    free(text);
    return 0;
}
