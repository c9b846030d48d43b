/* Profiles (oracle/profile.h): any text parses or fails with a message;
 * a profile that parses is written and read back to the same text. */
#include <stdio.h>

#include "oracle/profile.h"
#include "tests/fuzz/fuzz.h"

static char *written(const model_profile *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    FUZZ_CHECK(f && profile_write(f, p) == 0);
    fclose(f);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[512];
    model_profile p, q;
    if (profile_parse(text, "fuzz", &p, err, sizeof err) == 0) {
        size_t n1, n2;
        char *w1 = written(&p, &n1);
        if (profile_parse(w1, "written", &q, err, sizeof err) != 0) {
            fprintf(stderr, "written profile rejected: %s\n%s", err, w1);
            FUZZ_CHECK(0);
        }
        char *w2 = written(&q, &n2);
        FUZZ_CHECK(n1 == n2 && !memcmp(w1, w2, n1));
        for (size_t i = 0; i < p.count; i++)
            FUZZ_CHECK(profile_lookup(&q, p.entries[i].instr) != NULL);
        free(w1);
        free(w2);
        profile_free(&q);
        profile_free(&p);
    } else
        FUZZ_CHECK(err[0] != '\0');
    free(text);
    return 0;
}
