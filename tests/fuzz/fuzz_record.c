/* Records and compare (reports/reports.h, reports/compare.h): the input is
 * one or two record files separated by a NUL byte (which no record may
 * hold), or one gzip or packed record. Each loads or fails with a message; a record compared with itself
 * has no difference; two records compare without a crash, and every
 * difference carries its message (item 7 of issue 14). */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "reports/compare.h"
#include "reports/record_packed.h"
#include "reports/text.h"
#include "tests/fuzz/fuzz.h"

static char path[2][64];

static int load(const uint8_t *data, size_t size, int which, tc_record *rec, char *err, size_t len)
{
    if (!path[which][0])
        snprintf(path[which], sizeof path[which], "/dev/shm/tcscope-fuzz-%d-%d", (int)getpid(), which);
    FILE *f = fopen(path[which], "wb");
    FUZZ_CHECK(f != NULL);
    if (size)
        FUZZ_CHECK(fwrite(data, 1, size, f) == size);
    fclose(f);
    int rc = tc_record_load_any(path[which], rec, err, len);
    unlink(path[which]);
    return rc;
}

static void check_diffs(const tc_record *a, const tc_record *b, bool same, bool subset)
{
    tc_compare_opts o = tc_compare_defaults();
    o.new_is_subset = subset;
    json_t *diffs = json_array(), *ctx = json_array();
    size_t n = tc_compare_records(a, b, &o, diffs, ctx);
    FUZZ_CHECK(n == json_array_size(diffs));
    FUZZ_CHECK(!same || n == 0);
    size_t i;
    json_t *d;
    json_array_foreach(diffs, i, d)
    {
        const char *msg = json_string_value(json_object_get(d, "message"));
        FUZZ_CHECK(msg != NULL);
        char safe[1024];
        tc_text_escape(msg, safe, sizeof safe, false);
        for (const char *p = safe; *p; p++)
            FUZZ_CHECK((unsigned char)*p >= 0x20 || *p == '\t');
    }
    json_decref(diffs);
    json_decref(ctx);
}

/* The text helpers on the raw bytes: repaired text is valid UTF-8 (jansson
 * takes it), escaped text holds no control character. */
static void check_text(const uint8_t *data, size_t size)
{
    char *s = fuzz_text(data, size < 512 ? size : 512), safe[2100];
    tc_text_escape(s, safe, sizeof safe, true);
    for (const char *p = safe; *p; p++)
        FUZZ_CHECK((unsigned char)*p >= 0x20 || *p == '\t' || *p == '\n');
    tc_utf8_repair(s);
    json_t *j = json_string(s);
    FUZZ_CHECK(j != NULL);
    json_decref(j);
    free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool missing_read;
    if (!missing_read) { /* once: a file that is not there, a gzip file without gzip: errors naming them */
        char err[512] = "";
        tc_record r;
        FUZZ_CHECK(tc_record_load_any("/dev/shm/tcscope-fuzz-missing/r.jsonl", &r, err, sizeof err) != 0 &&
                   strstr(err, "tcscope-fuzz-missing"));
        char *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
        setenv("PATH", "/dev/shm/tcscope-fuzz-no-gzip", 1);
        FUZZ_CHECK(load((const uint8_t *)"\x1f\x8b", 2, 0, &r, err, sizeof err) != 0 &&
                   strstr(err, "cannot run gzip -dc"));
        saved ? setenv("PATH", saved, 1) : unsetenv("PATH");
        free(saved);
        /* out of descriptors once the file is open (no pipe for gzip): an error naming the file */
        struct rlimit lim;
        int fd = open("/dev/null", O_RDONLY);
        FUZZ_CHECK(fd >= 0 && getrlimit(RLIMIT_NOFILE, &lim) == 0);
        close(fd);
        struct rlimit few = {(rlim_t)fd + 1, lim.rlim_max};
        FUZZ_CHECK(setrlimit(RLIMIT_NOFILE, &few) == 0);
        int rc = load((const uint8_t *)"\x1f\x8b", 2, 0, &r, err, sizeof err);
        FUZZ_CHECK(setrlimit(RLIMIT_NOFILE, &lim) == 0);
        FUZZ_CHECK(rc != 0 && strstr(err, "tcscope-fuzz-"));
        missing_read = true;
    }
    check_text(data, size);
    /* a gzip or packed (xz) record holds NUL bytes: the whole input is that one file */
    bool binary = size >= 2 && ((data[0] == 0x1f && data[1] == 0x8b) || tc_packed_is(data, size));
    const uint8_t *nul = binary ? NULL : memchr(data, 0, size);
    size_t n1 = nul ? (size_t)(nul - data) : size;
    char err[512];
    tc_record a, b;
    if (load(data, n1, 0, &a, err, sizeof err) != 0) {
        FUZZ_CHECK(err[0] != '\0');
        return 0;
    }
    check_diffs(&a, &a, true, size % 2);
    /* compare's own checks, as the command makes them: a record it takes
     * (no repeated key, kinds it compares) is compared with the other */
    bool a_ok = tc_compare_check(&a, "old", err, sizeof err);
    FUZZ_CHECK(a_ok || err[0] != '\0');
    if (nul && load(nul + 1, size - n1 - 1, 1, &b, err, sizeof err) == 0) {
        check_diffs(&a, &b, false, size % 2);
        check_diffs(&b, &a, false, size % 2);
        if (a_ok && tc_compare_check(&b, "new", err, sizeof err) && tc_compare_check_kinds(&a, &b, err, sizeof err))
            check_diffs(&a, &b, false, size % 2);
        tc_record_free(&b);
    }
    tc_record_free(&a);
    return 0;
}
