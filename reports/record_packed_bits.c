/* The binary side of packed records: elements as packed little-endian bits
 * (element e at bits e*w .. e*w+w-1, bit 0 the lowest of byte 0), and the
 * sha256 of a line's inputs. sha256 is nettle's (Debian nettle-dev), the
 * one the probe exports use too. */
#include <stdlib.h>
#include <string.h>

#include <nettle/sha2.h>

#include "reports/reports_internal.h"

size_t pk_bytes(size_t n, int bits)
{
    return (n / 8) * (size_t)bits + ((n % 8) * (size_t)bits + 7) / 8; /* n * bits / 8 rounded up, no overflow */
}

void pk_bits_put(unsigned char *p, size_t e, int bits, uint64_t v)
{
    size_t at = e * (size_t)bits;
    for (int done = 0; done < bits;) {
        int off = (int)(at % 8), take = 8 - off < bits - done ? 8 - off : bits - done;
        p[at / 8] |= (unsigned char)(((v >> done) & ((1u << take) - 1)) << off);
        at += (size_t)take;
        done += take;
    }
}

uint64_t pk_bits_get(const unsigned char *p, size_t e, int bits)
{
    size_t at = e * (size_t)bits;
    uint64_t v = 0;
    for (int done = 0; done < bits;) {
        int off = (int)(at % 8), take = 8 - off < bits - done ? 8 - off : bits - done;
        v |= (uint64_t)((p[at / 8] >> off) & ((1u << take) - 1)) << done;
        at += (size_t)take;
        done += take;
    }
    return v;
}

int pk_sha256_arrays(const pk_array *a, int n, char out[65])
{
    struct sha256_ctx ctx;
    sha256_init(&ctx);
    for (int i = 0; i < n; i++) {
        int bits = 4 * ((a[i].f->storage_bits + 3) / 4);
        size_t nb = pk_bytes(a[i].n, bits);
        unsigned char *p = calloc(nb + 1, 1);
        if (!p)
            return -1;
        for (size_t e = 0; e < a[i].n; e++)
            pk_bits_put(p, e, bits, a[i].x[e]);
        sha256_update(&ctx, nb, p);
        free(p);
    }
    unsigned char md[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof md, md);
    for (unsigned i = 0; i < SHA256_DIGEST_SIZE; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
    return 0;
}
