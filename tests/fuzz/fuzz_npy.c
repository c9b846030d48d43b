/* .npy files (cases/npy.h): the input is a whole file. It is read or
 * refused with a message; values read are exactly what the header's shape
 * says and fit in the file. The header parser alone, on the input as the
 * dict's text: a shape it accepts has at most NPY_MAX_DIMS dimensions
 * whose product is the count, within the bound given. The input as the
 * D.npy of a probe (reports/probe_files.h): taken only when its header is
 * the one numpy.save writes for a C-order float32 array of that shape. */
#include <unistd.h>

#include "cases/npy.h"
#include "reports/probe_files.h"
#include "tests/fuzz/fuzz.h"

static void as_probe_d(const uint8_t *data, size_t size, const npy_header *h)
{
    static char path[64];
    if (!path[0])
        snprintf(path, sizeof path, "/dev/shm/tcscope-fuzz-npy-%d", (int)getpid());
    char err[400] = "";
    static bool missing_read; /* once: no D.npy at all is an error naming it */
    if (!missing_read) {
        FUZZ_CHECK(tc_probe_check_d_header("/dev/shm/tcscope-fuzz-missing/D.npy", 16, 16, err, sizeof err) != 0 &&
                   strstr(err, "tcscope-fuzz-missing/D.npy: "));
        missing_read = true;
    }
    FILE *f = fopen(path, "wb");
    FUZZ_CHECK(f != NULL);
    if (size)
        FUZZ_CHECK(fwrite(data, 1, size, f) == size);
    fclose(f);
    int m = h && h->ndim == 2 && h->shape[0] <= 16384 ? (int)h->shape[0] : 16,
        n = h && h->ndim == 2 && h->shape[1] <= 16384 ? (int)h->shape[1] : 16;
    int rc = tc_probe_check_d_header(path, m, n, err, sizeof err);
    unlink(path);
    if (rc != 0) {
        FUZZ_CHECK(!strncmp(err, path, strlen(path)));
        return;
    }
    FUZZ_CHECK(h && !strcmp(h->descr, "<f4") && !h->fortran_order && h->ndim == 2);
    FUZZ_CHECK(h->shape[0] == (size_t)m && h->shape[1] == (size_t)n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[300] = "";
    double *v = NULL;
    size_t n = 0;
    if (npy_read_values(data, size, "fuzz", &v, &n, err, sizeof err)) {
        FUZZ_CHECK(n >= 1 && n <= size / 4);
        free(v);
    } else
        FUZZ_CHECK(err[0] != '\0');
    npy_header h;
    if (npy_header_parse((const char *)data, size, 1u << 20, &h, err, sizeof err)) {
        size_t prod = 1;
        FUZZ_CHECK(h.ndim <= NPY_MAX_DIMS);
        for (size_t i = 0; i < h.ndim; i++)
            prod *= h.shape[i];
        FUZZ_CHECK(prod == h.count && h.count <= 1u << 20);
        FUZZ_CHECK(memchr(h.descr, '\0', sizeof h.descr) != NULL);
    }
    /* the file's own header (magic, version 1..3, length, dict), for the probe's check */
    npy_header fh;
    bool has = false;
    if (size >= 10 && !memcmp(data, "\x93NUMPY", 6) && data[6] >= 1 && data[6] <= 3 && (data[6] == 1 || size >= 12)) {
        size_t off = data[6] == 1 ? 10 : 12, hlen = data[8] | (size_t)data[9] << 8;
        if (data[6] > 1)
            hlen |= (size_t)data[10] << 16 | (size_t)data[11] << 24;
        has = hlen <= size - off && npy_header_parse((const char *)data + off, hlen, SIZE_MAX, &fh, err, sizeof err);
    }
    as_probe_d(data, size, has ? &fh : NULL);
    return 0;
}
