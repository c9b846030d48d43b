/* The words of a km table file (reports/file_tree.h): what import km reads
 * from each member of the data it is given. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "reports/file_tree.h"

uint32_t *tc_tree_file_words(const tc_tree_file *file, int base, size_t *rows, int *n)
{
    if (!file || memchr(file->data, '\0', file->size))
        return NULL;
    size_t cap = 0, cnt = 0;
    uint32_t *x = NULL;
    int per = -1;
    bool bad = false;
    for (const char *line = (const char *)file->data; !bad && *line;) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        int w = 0;
        for (const char *p = line; !bad; ) {
            while (p < end && isspace((unsigned char)*p))
                p++;
            if (p == end || *p == '\xef') /* end, or a byte-order mark (none seen, but harmless) */
                break;
            char *e;
            unsigned long v = strtoul(p, &e, base);
            if (e == p || e > end || v > 0xffffffffUL || *p == '-' || *p == '+') {
                bad = true;
                break;
            }
            p = e;
            if (cnt + 1 > cap) {
                cap = cap ? 2 * cap : 1024;
                uint32_t *g = realloc(x, cap * 4);
                if (!g) {
                    bad = true;
                    break;
                }
                x = g;
            }
            x[cnt++] = (uint32_t)v;
            w++;
        }
        line = *end ? end + 1 : end;
        if (w == 0)
            continue;
        if (per < 0)
            per = w;
        else if (w != per)
            bad = true;
    }
    if (bad || per < 1) {
        free(x);
        return NULL;
    }
    *rows = cnt / (size_t)per;
    *n = per;
    return x;
}
