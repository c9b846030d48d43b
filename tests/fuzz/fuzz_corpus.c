/* Corpus and chain lines (probes/backend_corpus.h): any line parses or
 * fails with a message, and nothing is allocated before the line's counts
 * and hex lengths agree (item 11 of issue 14: ntiles sized 11 GB first).
 * A line that parses resolves against itself as twin or says why not. */
#include <stdio.h>

#include "probes/backend_corpus.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line = fuzz_text(data, size), err[512];
    tc_corpus_rec c;
    if (tc_corpus_parse(line, &c, err, sizeof err) == 0) {
        FUZZ_CHECK(c.ins && c.ntiles >= 1);
        FUZZ_CHECK(c.inputs_of[0] || (c.A && c.B && c.C));
        FUZZ_CHECK(c.d_same || c.D);
        tc_corpus_rec twin;
        if (tc_corpus_parse(line, &twin, err, sizeof err) == 0) {
            tc_corpus_resolve(&c, &twin, err, sizeof err);
            tc_corpus_rec_free(&twin);
        }
        tc_corpus_rec_free(&c);
    } else
        FUZZ_CHECK(err[0] != '\0');
    tc_chain_rec r;
    if (tc_chain_parse(line, &r, err, sizeof err) == 0) {
        FUZZ_CHECK(r.ins && r.nchains >= 1 && r.len >= 1);
        FUZZ_CHECK(r.same_as[0] || (r.A0 && r.B && r.C && r.X && r.D));
        tc_chain_rec twin;
        if (tc_chain_parse(line, &twin, err, sizeof err) == 0) {
            tc_chain_resolve(&r, &twin, err, sizeof err);
            tc_chain_rec_free(&twin);
        }
        tc_chain_rec_free(&r);
    } else
        FUZZ_CHECK(err[0] != '\0');
    free(line);
    return 0;
}
