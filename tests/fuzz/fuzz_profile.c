/* Profiles (oracle/profile.h): any text parses or fails with a message;
 * a profile that parses is written and read back to the same text. The
 * bytes as a file (profile_load, oracle/textfile.h): read as the text
 * parses when they are UTF-8 without a NUL byte, else refused. */
#include <stdio.h>
#include <unistd.h>

#include "oracle/profile.h"
#include "oracle/textfile.h"
#include "tests/fuzz/fuzz.h"

static char *written(const model_profile *p, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    FUZZ_CHECK(f && profile_write(f, p) == 0);
    fclose(f);
    return buf;
}

static bool utf8_text(const uint8_t *data, size_t size)
{
    char *s = fuzz_text(data, size);
    size_t i = 0, n = 1;
    while (i < size && (n = tc_utf8_char_len(s + i)) != 0 && s[i])
        i += n;
    free(s);
    return i >= size;
}

static void as_file(const uint8_t *data, size_t size, bool parses)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/dev/shm/tcscope-fuzz-profile-%d", (int)getpid());
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL);
    if (size)
        FUZZ_CHECK(fwrite(data, 1, size, f) == size);
    fclose(f);
    model_profile p;
    char err[512] = "";
    static bool missing_read; /* once: a file that is not there, a folder: errors naming them */
    if (!missing_read) {
        FUZZ_CHECK(profile_load("/dev/shm/tcscope-fuzz-missing/p", &p, err, sizeof err) != 0 &&
                   strstr(err, "tcscope-fuzz-missing/p: cannot open"));
        FUZZ_CHECK(profile_load("/dev/shm", &p, err, sizeof err) != 0 && strstr(err, "/dev/shm: cannot read"));
        missing_read = true;
    }
    int rc = profile_load(path, &p, err, sizeof err);
    unlink(path);
    if (rc == 0)
        profile_free(&p);
    FUZZ_CHECK((rc == 0) == (parses && utf8_text(data, size)));
    FUZZ_CHECK(rc == 0 || !strncmp(err, path, strlen(path)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size), err[512];
    model_profile p, q;
    bool parses = profile_parse(text, "fuzz", &p, err, sizeof err) == 0;
    as_file(data, size, parses);
    if (parses) {
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
