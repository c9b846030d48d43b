/* The summation tree of a gemm accumulation structure as SVG (the
 * "tree_svg" of a gemm case's structure object; reports/render_gemm.c
 * inlines it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cases/gemm.h"
#include "reports/record_gemm.h"

/* calloc or a message and exit 2, as everywhere in gemm. */
static void *svg_alloc(size_t count, size_t size)
{
    void *p = calloc(count, size);
    if (!p) {
        fprintf(stderr, "tcscope: out of memory (%zu x %zu bytes)\n", count, size);
        exit(2);
    }
    return p;
}

/* A tree node of the drawing: its x and depth. */
typedef struct {
    double x;
    int y;
} svg_node;

static void svg_line(char **buf, size_t *len, size_t *cap, const char *fmt, double a, double b, double c, double d)
{
    char tmp[256];
    int n = snprintf(tmp, sizeof tmp, fmt, a, b, c, d);
    if (*len + (size_t)n + 1 > *cap) {
        *cap = (*cap + (size_t)n + 1) * 2;
        char *nb = realloc(*buf, *cap);
        if (!nb) {
            fprintf(stderr, "tcscope: out of memory\n");
            exit(2);
        }
        *buf = nb;
    }
    memcpy(*buf + *len, tmp, (size_t)n + 1);
    *len += (size_t)n;
}

/* An FP32 addition of two sums, drawn as a node at depth y. */
static svg_node svg_join(char **buf, size_t *len, size_t *cap, svg_node l, svg_node r, int y, double H)
{
    svg_node nx = {(l.x + r.x) / 2, y};
    double ya = H - 20 - y * 14.0;
    svg_line(buf, len, cap, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#a33\"/>\n", l.x,
             H - 20 - l.y * 14.0, nx.x, ya);
    svg_line(buf, len, cap, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#a33\"/>\n", r.x,
             H - 20 - r.y * 14.0, nx.x, ya);
    return nx;
}

static svg_node svg_pairwise(char **buf, size_t *len, size_t *cap, const svg_node *v, int lo, int hi, double H,
                             int *depth)
{
    if (hi - lo == 1)
        return v[lo];
    int mid = lo + (hi - lo) / 2;
    svg_node l = svg_pairwise(buf, len, cap, v, lo, mid, H, depth), r = svg_pairwise(buf, len, cap, v, mid, hi, H, depth);
    return svg_join(buf, len, cap, l, r, (l.y > r.y ? l.y : r.y) + 1, H);
}

/* Leaves are the runs (at most 64 drawn per slice); each FP32 addition is
 * a node joining the sum so far with the next run; slices join at the top. */
char *tc_gemm_struct_svg(const tc_gemm_struct *s, int k)
{
    int S = s->splitk > 1 ? s->splitk : 1, *cut = svg_alloc((size_t)S + 1, sizeof *cut);
    gemm_struct_bounds(s, k, cut);
    size_t len = 0, cap = 4096;
    char *buf = svg_alloc(cap, 1);
    int leaves = 0, maxdepth = 0;
    for (int t = 0; t < S; t++) {
        int n = s->promote > 0 ? (cut[t + 1] - cut[t] + s->promote - 1) / s->promote : 1;
        leaves += n < 64 ? n : 64;
        maxdepth = maxdepth > (n < 64 ? n : 64) ? maxdepth : (n < 64 ? n : 64);
    }
    double W = 40 + leaves * 24.0 > 460 ? 40 + leaves * 24.0 : 460, H = 60 + (maxdepth + S) * 14.0;
    svg_line(&buf, &len, &cap, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" font-size=\"9\" "
                               "font-family=\"monospace\"><!-- %.0f leaves, %.0f slices -->\n", W, H, leaves, S);
    svg_node *top = svg_alloc((size_t)S, sizeof *top);
    int x0 = 0;
    for (int t = 0; t < S; t++) {
        int lo = cut[t], hi = cut[t + 1];
        int run = s->promote > 0 ? s->promote : hi - lo, n = (hi - lo + run - 1) / (run > 0 ? run : 1);
        int drawn = n < 64 ? n : 64;
        svg_node cur = {20 + x0 * 24.0, 0};
        for (int r = 0; r < drawn; r++) {
            double x = 20 + (x0 + r) * 24.0, yl = H - 20;
            svg_line(&buf, &len, &cap, "<rect x=\"%.0f\" y=\"%.0f\" width=\"20\" height=\"12\" fill=\"#cde\"/>"
                                       "<text x=\"%.0f\" y=\"%.0f\">", x - 10, yl, x - 9, yl + 9);
            svg_line(&buf, &len, &cap, "%.0f</text>\n", lo + (double)r * run, 0, 0, 0);
            if (r > 0) {   /* an FP32 addition: the sum so far + this run */
                svg_node nx = {(cur.x + x) / 2, r};
                double ya = H - 20 - nx.y * 14.0, yc = H - 20 - cur.y * 14.0;
                svg_line(&buf, &len, &cap, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                         cur.x, yc, nx.x, ya);
                svg_line(&buf, &len, &cap, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
                         x, H - 20, nx.x, ya);
                cur = nx;
            }
        }
        if (n > drawn)
            svg_line(&buf, &len, &cap, "<text x=\"%.0f\" y=\"%.0f\">... %.0f runs in all</text>\n",
                     20 + (x0 + drawn - 1) * 24.0, H - 4, n, 0);
        top[t] = cur;
        x0 += drawn;
    }
    /* Slices meet in K order (seq), as a balanced tree (pairwise), or
     * from the last slice to the first (reverse). */
    int depth = maxdepth;
    svg_node root = s->combine == GEMM_COMBINE_PAIRWISE  ? svg_pairwise(&buf, &len, &cap, top, 0, S, H, &depth)
                    : s->combine == GEMM_COMBINE_REVERSE ? top[S - 1]
                                                         : top[0];
    for (int t = 1; s->combine == GEMM_COMBINE_SEQ && t < S; t++)
        root = svg_join(&buf, &len, &cap, root, top[t], maxdepth + t, H);
    for (int t = S - 2; s->combine == GEMM_COMBINE_REVERSE && t >= 0; t--)
        root = svg_join(&buf, &len, &cap, root, top[t], maxdepth + S - 1 - t, H);
    for (int l = 0; s->combine == GEMM_COMBINE_XOR && l < TC_GEMM_XOR_LEVELS && (1 << l) < S; l++)   /* level l */
        for (int i = 0, b = 1 << s->xor_bits[l]; i < S; i++)
            if (!(i & b) && (i | b) < S)
                top[i] = svg_join(&buf, &len, &cap, top[i], top[i | b], maxdepth + l + 1, H);
    svg_line(&buf, &len, &cap, "<text x=\"4\" y=\"12\">chunk %.0f, promote every %.0f (0: never), split-K %.0f",
             s->chunk, s->promote, S, 0);
    if (s->slice_unit > 0)
        svg_line(&buf, &len, &cap, " cut in units of %.0f", s->slice_unit, 0, 0, 0);
    else if (s->slice_unit == TC_GEMM_CUTS)
        svg_line(&buf, &len, &cap, " cut as found", 0, 0, 0, 0);
    svg_line(&buf, &len, &cap, s->combine == GEMM_COMBINE_SEQ       ? ", slices in K order</text>\n"
                               : s->combine == GEMM_COMBINE_REVERSE ? ", slices last to first</text>\n"
                               : s->combine == GEMM_COMBINE_XOR     ? ", slices as an xor tree</text>\n"
                                                                    : ", slices pairwise</text>\n", 0, 0, 0, 0);
    svg_line(&buf, &len, &cap, "</svg>\n", 0, 0, 0, 0);
    free(top), free(cut);
    (void)root;
    return buf;
}
