/* Packed records (reports/record_packed.h): the input is the decompressed
 * stream (magic line, lines, blobs), compressed here with xz so that the
 * fuzzer works on the form itself, not on liblzma's checks (an input
 * that is xz already is read as it is: a cut or corrupt stream). Any stream
 * reads or fails with a message naming where; nothing is allocated before
 * the lengths agree with what is left. What reads, packed again (when the
 * writer takes it), reads back to the same text. */
#include <lzma.h>

#include "reports/record_packed.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t cap = lzma_stream_buffer_bound(size), n = 0;
    uint8_t *xz = malloc(cap);
    if (!xz)
        abort();
    if (tc_packed_is(data, size)) { /* already xz (cut, corrupt, ...): as it is */
        memcpy(xz, data, size);
        n = size;
    } else if (lzma_easy_buffer_encode(0, LZMA_CHECK_CRC64, NULL, data, size, xz, &n, cap) != LZMA_OK)
        abort();
    char *text = NULL, err[600] = "";
    size_t len = 0;
    if (tc_packed_read(xz, n, &text, &len, NULL, err, sizeof err) != 0) {
        FUZZ_CHECK(err[0] != '\0' && text == NULL);
        free(xz);
        return 0;
    }
    char *again = NULL, *back = NULL;
    size_t an = 0, bn = 0;
    FILE *m = open_memstream(&again, &an);
    int rc = tc_packed_write(text, len, m, NULL, err, sizeof err);
    fclose(m);
    if (rc == 0) {
        FUZZ_CHECK(tc_packed_read((unsigned char *)again, an, &back, &bn, NULL, err, sizeof err) == 0);
        FUZZ_CHECK(bn == len && memcmp(back, text, len) == 0);
    } else
        FUZZ_CHECK(err[0] != '\0');
    free(back);
    free(again);
    free(text);
    free(xz);
    return 0;
}
