/* Tests: a corpus or chain line as the record command writes it, one
 * instruction at a time: the probes fill the struct (tc_corpus_run,
 * tc_chain_run), reports/record_corpus.h writes the line, as
 * cli/record_job.c does, so a test checks the very bytes a user gets. */
#ifndef TC_CORPUS_LINES_H
#define TC_CORPUS_LINES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/backend_corpus.h"
#include "reports/record_corpus.h"

/* One corpus line of ins on b to out. 0, or -1 with err (nothing written). */
static inline int tc_corpus_line(tc_backend *b, const tc_instr *ins, size_t elems, uint64_t seed, FILE *out,
                                 char *err, size_t errlen)
{
    tc_corpus_rec r;
    if (tc_corpus_run(b, ins, elems, seed, &r, err, errlen))
        return -1;
    int rc = tc_record_corpus_line(out, &r, err, errlen);
    tc_corpus_rec_free(&r);
    return rc;
}

/* One chain line (tc_chain_run's twin) to out; *rec (optional) keeps the
 * run's full data (free with tc_chain_rec_free), empty on failure. */
static inline int tc_chain_line(tc_backend *b, const tc_instr *ins, size_t nchains, int len, tc_rounding cvt,
                                uint64_t seed, const tc_chain_rec *twin, tc_chain_rec *rec, FILE *out, char *err,
                                size_t errlen)
{
    tc_chain_rec r;
    int rc = tc_chain_run(b, ins, nchains, len, cvt, seed, twin, &r, err, errlen);
    if (!rc)
        rc = tc_record_chain_line(out, &r, err, errlen);
    if (rc || !rec)
        tc_chain_rec_free(&r);
    if (rc)
        memset(&r, 0, sizeof r);
    if (rec)
        *rec = r;
    return rc;
}

/* Whether the writer gives line (as read, "\n" included) back byte for
 * byte from what the parser made of it: the committed GPU lines (sass
 * included) are the writer's bytes, so nothing was lost on the way.
 * One of corpus and chain is the record. */
static inline bool tc_line_rewrites(const char *line, const tc_corpus_rec *corpus, const tc_chain_rec *chain)
{
    char *buf = NULL, err[256];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    bool same = f && (corpus ? tc_record_corpus_line(f, corpus, err, sizeof err)
                             : tc_record_chain_line(f, chain, err, sizeof err)) == 0;
    if (f)
        fclose(f);
    same = same && !strcmp(buf, line);
    free(buf);
    return same;
}

#endif
