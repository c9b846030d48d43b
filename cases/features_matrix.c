/* The cases matrix: one row per instruction, one column per feature, each
 * cell what tc_feature_words says. wgmma shapes that differ only in N and
 * agree in every cell share one row ("wgmma.m64nNk16.f32.f16.f16 N=8,16,32,64,
 * 128,256"), so the Fasi suite's 168 instructions read as 48 rows. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/features.h"

enum { MAX_FEATURES = 64, CELL = 160 };

typedef struct {
    char name[96];       /* the instruction, or its family with N for the shapes */
    char cells[MAX_FEATURES][CELL];
    char ns[64];         /* the shapes' N, "8,16,32" */
    int nshapes;
} row;

/* The name with its shape's N replaced by "N" ("wgmma.m64nNk16...");
 * *n the N; false when the name has no "mMnNkK" shape. */
static bool family_of(const char *name, char *fam, size_t len, int *n)
{
    const char *m = strstr(name, ".m");
    int mm, kk, used = 0;
    if (!m || sscanf(m + 2, "%dn%dk%d%n", &mm, n, &kk, &used) != 3)
        return false;
    const char *nstart = strchr(m + 2, 'n'), *kstart = strchr(nstart, 'k');
    snprintf(fam, len, "%.*sN%s", (int)(nstart + 1 - name), name, kstart);
    return true;
}

void tc_features_write_matrix(const tc_feature_summary *all, size_t n, FILE *f)
{
    const char *feat[MAX_FEATURES];
    size_t nf = 0;
    for (size_t i = 0; i < n; i++) {
        size_t k = 0;
        while (k < nf && strcmp(feat[k], all[i].feature))
            k++;
        if (k == nf && nf < MAX_FEATURES)
            feat[nf++] = all[i].feature;
    }
    row *rows = calloc(n ? n : 1, sizeof *rows), cur;
    size_t nrows = 0;
    if (!rows) {
        fputs("(out of memory for the matrix)\n", f);
        return;
    }
    for (size_t i = 0; i < n;) {
        const tc_instr *ins = all[i].ins;
        size_t end = i;
        while (end < n && all[end].ins == ins)
            end++;
        memset(&cur, 0, sizeof cur);
        for (size_t k = 0; k < nf; k++) {
            snprintf(cur.cells[k], CELL, "-");
            for (size_t j = i; j < end; j++)
                if (!strcmp(all[j].feature, feat[k]))
                    tc_feature_words(&all[j], cur.cells[k], CELL);
        }
        int nn = 0;
        bool shaped = !strncmp(ins->name, "wgmma", 5) && family_of(ins->name, cur.name, sizeof cur.name, &nn);
        if (!shaped)
            snprintf(cur.name, sizeof cur.name, "%s", ins->name);
        snprintf(cur.ns, sizeof cur.ns, "%d", nn);
        cur.nshapes = shaped;
        row *same = NULL;
        for (size_t r = 0; r < nrows && !same && shaped; r++)
            if (rows[r].nshapes && !strcmp(rows[r].name, cur.name) &&
                !memcmp(rows[r].cells, cur.cells, sizeof cur.cells))
                same = &rows[r];
        if (same) {
            same->nshapes++;
            snprintf(same->ns + strlen(same->ns), sizeof same->ns - strlen(same->ns), ",%d", nn);
        } else
            rows[nrows++] = cur;
        i = end;
    }
    /* a family of one shape reads as the instruction itself */
    for (size_t r = 0; r < nrows; r++)
        if (rows[r].nshapes == 1) {
            char *at = strstr(rows[r].name, "nN");
            char rest[96];
            snprintf(rest, sizeof rest, "%s", at + 2);
            snprintf(at, sizeof rows[r].name - (size_t)(at - rows[r].name), "n%s%s", rows[r].ns, rest);
        } else if (rows[r].nshapes > 1) {
            size_t l = strlen(rows[r].name);
            snprintf(rows[r].name + l, sizeof rows[r].name - l, " N=%s", rows[r].ns);
        }
    size_t wname = strlen("instruction"), wcol[MAX_FEATURES];
    for (size_t k = 0; k < nf; k++)
        wcol[k] = strlen(tc_feature_heading(feat[k]));
    for (size_t r = 0; r < nrows; r++) {
        if (strlen(rows[r].name) > wname)
            wname = strlen(rows[r].name);
        for (size_t k = 0; k < nf; k++)
            if (strlen(rows[r].cells[k]) > wcol[k])
                wcol[k] = strlen(rows[r].cells[k]);
    }
    /* the last column unpadded: no trailing blanks */
    fprintf(f, "%-*s", (int)wname, "instruction");
    for (size_t k = 0; k < nf; k++)
        fprintf(f, "  %-*s", k + 1 < nf ? (int)wcol[k] : 0, tc_feature_heading(feat[k]));
    fputc('\n', f);
    for (size_t r = 0; r < nrows; r++) {
        fprintf(f, "%-*s", (int)wname, rows[r].name);
        for (size_t k = 0; k < nf; k++)
            fprintf(f, "  %-*s", k + 1 < nf ? (int)wcol[k] : 0, rows[r].cells[k]);
        fputc('\n', f);
    }
    free(rows);
}
