/* .npy files (cases/npy.h): the input is a whole file. It is read or
 * refused with a message; values read are exactly what the header's shape
 * says and fit in the file. The header parser alone, on the input as the
 * dict's text: a shape it accepts has at most NPY_MAX_DIMS dimensions
 * whose product is the count, within the bound given. */
#include "cases/npy.h"
#include "tests/fuzz/fuzz.h"

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
    return 0;
}
