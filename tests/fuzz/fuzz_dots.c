/* Recorded dot products (probes/dots.h; what `import km` writes and the
 * dots backend reads): the input is the file. It loads or fails with a
 * message naming the file; every set loaded is of a catalogue instruction
 * with its k, at least one row, and all four operands; a set written again
 * (reports/record_dots.h) reads back to the same rows. An input that
 * starts as gzip does is read as NAME.gz (through gzip -dc). */
#include <unistd.h>

#include "probes/dots.h"
#include "reports/record_dots.h"
#include "tests/fuzz/fuzz.h"

static char plain[64], gz[64];

static int load(const char *text, size_t n, tc_dots **sets, size_t *nsets, char *err, size_t len)
{
    const char *path = n >= 2 && (unsigned char)text[0] == 0x1f && (unsigned char)text[1] == 0x8b ? gz : plain;
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL);
    if (n)
        FUZZ_CHECK(fwrite(text, 1, n, f) == n);
    fclose(f);
    int rc = tc_dots_load(path, sets, nsets, err, len);
    unlink(path);
    return rc;
}

static bool same(const uint64_t *x, const uint64_t *y, size_t n)
{
    return !memcmp(x, y, n * sizeof *x);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!plain[0]) {
        snprintf(plain, sizeof plain, "/dev/shm/tcscope-fuzz-dots-%d", (int)getpid());
        snprintf(gz, sizeof gz, "%s.gz", plain);
    }
    tc_dots *sets, *back;
    size_t n, nb;
    char err[600] = "";
    if (load((const char *)data, size, &sets, &n, err, sizeof err) != 0) {
        FUZZ_CHECK(err[0] != '\0' && sets == NULL && n == 0);
        return 0;
    }
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    FUZZ_CHECK(m != NULL && n >= 1);
    for (size_t i = 0; i < n; i++) {
        const tc_dots *d = &sets[i];
        FUZZ_CHECK(d->ins && d->k == d->ins->k && d->rows >= 1 && d->A && d->B && d->C && d->D);
        FUZZ_CHECK(tc_record_dots_line(m, d) == 0);
    }
    fclose(m);
    FUZZ_CHECK(load(text, len, &back, &nb, err, sizeof err) == 0 && nb == n);
    for (size_t i = 0; i < n; i++) {
        size_t rk = sets[i].rows * (size_t)sets[i].k;
        FUZZ_CHECK(back[i].ins == sets[i].ins && back[i].rows == sets[i].rows);
        FUZZ_CHECK(same(back[i].A, sets[i].A, rk) && same(back[i].B, sets[i].B, rk));
        FUZZ_CHECK(same(back[i].C, sets[i].C, sets[i].rows) && same(back[i].D, sets[i].D, sets[i].rows));
    }
    tc_dots_free_all(back, nb);
    tc_dots_free_all(sets, n);
    free(text);
    return 0;
}
