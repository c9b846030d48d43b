/* The file-level call graph of object files, from their symbols (nm): an
 * edge X -> Y when X's object uses (U) a symbol that Y's object defines
 * (T, D, B, R, V, W). Shared by tests/test_model_layers.c (oracle/'s model
 * files) and tests/test_file_cycles.c (every folder). Header-only, so every
 * test program stays one file. */
#ifndef TC_FILE_GRAPH_H
#define TC_FILE_GRAPH_H

#include <glob.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { FG_MAXF = 512, FG_MAXSYM = 65536, FG_NAME = 128 };

typedef struct {
    char name[FG_NAME];
    int file;
} fg_sym;

typedef struct {
    int nfiles;
    char files[FG_MAXF][FG_NAME];   /* "folder/name" (".o" cut) */
    int edge[FG_MAXF][FG_MAXF];     /* 0: none, else 1 + the index of a symbol that makes it */
    fg_sym defs[FG_MAXSYM], uses[FG_MAXSYM];
    int ndefs, nuses, nedges;
} fg_graph;

static inline fg_graph *fg_new(void)
{
    fg_graph *g = calloc(1, sizeof *g);
    if (!g)
        abort();
    return g;
}

static inline int fg_cmp_sym(const void *a, const void *b)
{
    return strcmp(((const fg_sym *)a)->name, ((const fg_sym *)b)->name);
}

/* One symbol line of nm -P -A ("PATH: name type [value size]") into the
 * file whose object PATH is (among files[first..]); false when full. */
static inline bool fg_line(fg_graph *g, char paths[][512], int first, const char *line)
{
    char path[512], sym[512], type[8];
    if (sscanf(line, "%511[^:]: %511s %7s", path, sym, type) != 3 || type[1])
        return true;
    int f = first;
    while (f < g->nfiles && strcmp(paths[f - first], path))
        f++;
    size_t len = strlen(sym);
    if (f == g->nfiles || len >= FG_NAME)
        return true;   /* a C++ name mangled long: no C file calls it */
    fg_sym *s = NULL;
    if (type[0] == 'U')
        s = g->nuses < FG_MAXSYM ? &g->uses[g->nuses++] : NULL;
    else if (strchr("TDBRVW", type[0]))
        s = g->ndefs < FG_MAXSYM ? &g->defs[g->ndefs++] : NULL;
    else
        return true;
    if (!s)
        return false;
    memcpy(s->name, sym, len + 1);
    s->file = f;
    return true;
}

/* Every object of BUILD/FOLDER/ whose source is in the tree (run from the
 * repository root; a .cu.o named "folder/x.cu"), read by one nm (a process
 * per object is most of the time on a loaded machine); false if one could
 * not be read or the tables are full. */
static inline bool fg_read_folder(fg_graph *g, const char *build, const char *folder)
{
    char pat[512];
    snprintf(pat, sizeof pat, "%s/%s/*.o", build, folder);
    glob_t gl;
    if (glob(pat, 0, NULL, &gl) != 0)
        return true;   /* none: the caller counts what it needs */
    static char paths[FG_MAXF][512];
    size_t cap = 64;
    for (size_t i = 0; i < gl.gl_pathc; i++)
        cap += strlen(gl.gl_pathv[i]) + 3;
    char *cmd = malloc(cap);
    bool ok = cmd && g->nfiles + (int)gl.gl_pathc <= FG_MAXF;
    int first = g->nfiles;
    if (ok) {
        size_t at = (size_t)snprintf(cmd, cap, "nm -P -A");
        for (size_t i = 0; i < gl.gl_pathc; i++) {
            const char *base = strrchr(gl.gl_pathv[i], '/') + 1;
            char src[FG_NAME + 8];
            snprintf(src, sizeof src, "%s/%.*s", folder, (int)(strlen(base) - 2), base);
            if (!strchr(strrchr(src, '/'), '.'))
                strcat(src, ".c");
            if (access(src, F_OK) != 0)
                continue;   /* the object of a source since moved or removed: not this tree's */
            snprintf(paths[g->nfiles - first], sizeof paths[0], "%s", gl.gl_pathv[i]);
            snprintf(g->files[g->nfiles++], FG_NAME, "%s/%.*s", folder, (int)(strlen(base) - 2), base);
            at += (size_t)snprintf(cmd + at, cap - at, " '%s'", gl.gl_pathv[i]);
        }
    }
    FILE *p = ok && g->nfiles > first ? popen(cmd, "r") : NULL;
    ok = ok && (p != NULL || g->nfiles == first);
    char line[1200];
    while (p && fgets(line, sizeof line, p))
        ok = fg_line(g, paths, first, line) && ok;
    if (p)
        ok = pclose(p) == 0 && ok;
    free(cmd);
    globfree(&gl);
    return ok;
}

/* The edges, once every object is read. */
static inline void fg_link(fg_graph *g)
{
    qsort(g->defs, (size_t)g->ndefs, sizeof g->defs[0], fg_cmp_sym);
    for (int u = 0; u < g->nuses; u++) {
        fg_sym *d = bsearch(&g->uses[u], g->defs, (size_t)g->ndefs, sizeof g->defs[0], fg_cmp_sym);
        int from = g->uses[u].file;
        if (!d || d->file == from || g->edge[from][d->file])
            continue;
        g->edge[from][d->file] = 1 + (int)(d - g->defs);
        g->nedges++;
    }
}

static inline const char *fg_why(const fg_graph *g, int from, int to)
{
    return g->edge[from][to] ? g->defs[g->edge[from][to] - 1].name : "";
}

static inline int fg_index(const fg_graph *g, const char *name)
{
    for (int i = 0; i < g->nfiles; i++)
        if (strcmp(g->files[i], name) == 0)
            return i;
    return -1;
}

/* Every file that u reaches (u itself included) into seen. */
static inline void fg_reach_from(const fg_graph *g, int u, bool seen[FG_MAXF])
{
    memset(seen, 0, FG_MAXF * sizeof seen[0]);
    int stack[FG_MAXF], n = 0;
    stack[n++] = u;
    seen[u] = true;
    while (n) {
        int a = stack[--n];
        for (int b = 0; b < g->nfiles; b++)
            if (g->edge[a][b] && !seen[b])
                seen[b] = true, stack[n++] = b;
    }
}

/* true if v is reachable from u */
static inline bool fg_reaches(const fg_graph *g, int u, int v)
{
    static bool seen[FG_MAXF];
    fg_reach_from(g, u, seen);
    return seen[v];
}

/* The circles: files that reach each other (the strongly connected parts
 * with more than one file), each printed to out with its edges and a
 * symbol that makes each. Returns how many. */
static inline int fg_circles(const fg_graph *g, FILE *out)
{
    static bool reach[FG_MAXF][FG_MAXF];
    static bool done[FG_MAXF];
    for (int u = 0; u < g->nfiles; u++)
        fg_reach_from(g, u, reach[u]), done[u] = false;
    int circles = 0;
    for (int u = 0; u < g->nfiles; u++) {
        if (done[u])
            continue;
        int members[FG_MAXF], n = 0;
        for (int v = u; v < g->nfiles; v++)
            if (!done[v] && reach[u][v] && reach[v][u])
                members[n++] = v, done[v] = true;
        if (n < 2)
            continue;
        circles++;
        fprintf(out, "circle %d: %d files:", circles, n);
        for (int i = 0; i < n; i++)
            fprintf(out, " %s", g->files[members[i]]);
        fprintf(out, "\n");
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++)
                if (g->edge[members[i]][members[j]])
                    fprintf(out, "  %s -> %s (%s)\n", g->files[members[i]], g->files[members[j]],
                            fg_why(g, members[i], members[j]));
    }
    return circles;
}

#endif
