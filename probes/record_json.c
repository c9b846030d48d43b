/* JSON lines of the probes' records (see record_json.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/record_json.h"

json_t *tc_line_load(const char *line, char *err, size_t errlen)
{
    json_error_t je;
    json_t *j = json_loads(line, 0, &je);
    if (!j)
        snprintf(err, errlen, "bad JSON: %s", je.text);
    return j;
}

static size_t digits_of(const tc_format *f)
{
    return (size_t)(f->storage_bits + 3) / 4;
}

int tc_hex_put(json_t *j, const char *key, const uint64_t *x, size_t n, const tc_format *f)
{
    size_t w = digits_of(f);
    char *s = malloc(n * w + 1);
    if (!s)
        return -1;
    static const char dig[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++)
        for (size_t q = 0; q < w; q++)
            s[i * w + q] = dig[(x[i] >> (4 * (w - 1 - q))) & 15];
    s[n * w] = '\0';
    json_object_set_new(j, key, json_string(s));
    free(s);
    return 0;
}

uint64_t *tc_hex_get(json_t *j, const char *key, size_t n, const tc_format *f)
{
    const char *s = json_string_value(json_object_get(j, key));
    size_t w = digits_of(f);
    if (!s || strlen(s) != n * w)
        return NULL;
    uint64_t *x = malloc(n * 8 + 8); /* + 8: n may be 0 */
    for (size_t i = 0; x && i < n; i++) {
        uint64_t v = 0;
        for (size_t q = 0; q < w; q++) {
            char c = s[i * w + q];
            int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
            if (d < 0) {
                free(x);
                return NULL;
            }
            v = v << 4 | (uint64_t)d;
        }
        x[i] = v;
    }
    return x;
}
