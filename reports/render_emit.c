/* Markdown and HTML from the neutral report document (render_doc.h). */
#include <stdio.h>
#include <string.h>

#include "reports/render_doc.h"

/* A record's text as Markdown text, never markup: the characters that
 * start HTML or an entity become entities (a Markdown viewer passes raw
 * HTML through), those that start a link, code or a table cell are
 * backslash-escaped, a newline is a space and a control character \xHH. */
static void md_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '<')
            fputs("&lt;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else if (c == '&')
            fputs("&amp;", f);
        else if (strchr("|\\`[]", c))
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputc(' ', f);
        else if ((c < 0x20 && c != '\t') || c == 0x7f)
            fprintf(f, "\\x%02X", c);
        else
            fputc(c, f);
    }
}

static void md_cell(FILE *f, const json_t *c)
{
    if (json_is_object(c)) {
        fputc('[', f);
        md_text(f, json_string_value(json_object_get(c, "text")));
        fprintf(f, "](%s)", json_string_value(json_object_get(c, "href")));
    } else {
        md_text(f, json_string_value(c));
    }
}

static void md_table(FILE *f, const json_t *t)
{
    json_t *row, *c;
    size_t j, k;
    fputc('|', f);
    json_array_foreach(json_object_get(t, "head"), j, c)
    {
        fputc(' ', f);
        md_text(f, json_string_value(c));
        fputs(" |", f);
    }
    fputs("\n|", f);
    json_array_foreach(json_object_get(t, "head"), j, c) fputs("---|", f);
    fputc('\n', f);
    json_array_foreach(json_object_get(t, "rows"), j, row)
    {
        fputc('|', f);
        json_array_foreach(row, k, c)
        {
            fputc(' ', f);
            md_cell(f, c);
            fputs(" |", f);
        }
        fputc('\n', f);
    }
    fputc('\n', f);
}

void rdoc_emit_markdown(FILE *f, const json_t *doc, const char *name)
{
    size_t i;
    json_t *b;
    json_array_foreach(doc, i, b)
    {
        if (json_object_get(b, "h")) {
            const char *id = json_string_value(json_object_get(b, "id"));
            if (id) /* an explicit anchor: the generated heading slugs differ between renderers */
                fprintf(f, "<a id=\"%s\"></a>\n\n", id);
            for (json_int_t l = json_integer_value(json_object_get(b, "h")); l > 0; l--)
                fputc('#', f);
            fputc(' ', f);
            md_text(f, json_string_value(json_object_get(b, "text")));
            fputs("\n\n", f);
        } else if (json_object_get(b, "p")) {
            md_text(f, json_string_value(json_object_get(b, "p")));
            fputs("\n\n", f);
        } else if (json_object_get(b, "plot")) {
            const char *stat = json_string_value(json_object_get(b, "plot"));
            fprintf(f, "![%s relative error vs chain length](%s-%s.svg)\n\n", stat, name, stat);
            const char *cap = json_string_value(json_object_get(b, "caption"));
            if (cap && *cap) {
                md_text(f, cap);
                fputs("\n\n", f);
            }
        } else if (json_object_get(b, "figure")) {
            const char *cap = json_string_value(json_object_get(b, "caption"));
            fprintf(f, "(picture in the HTML report)%s", cap && *cap ? ": " : "");
            md_text(f, cap);
            fputs("\n\n", f);
        } else if (json_object_get(b, "toc")) {
            size_t j;
            json_t *e;
            json_array_foreach(json_object_get(b, "toc"), j, e) {
                fputs("- [", f);
                md_text(f, json_string_value(json_array_get(e, 1)));
                fprintf(f, "](#%s)\n", json_string_value(json_array_get(e, 0)));
            }
            fputc('\n', f);
        } else if (json_object_get(b, "details")) {
            fputs("<details><summary>", f);
            md_text(f, json_string_value(json_object_get(b, "details")));
            fputs("</summary>\n\n", f);
            rdoc_emit_markdown(f, json_object_get(b, "blocks"), name);
            fputs("</details>\n\n", f);
        } else {
            md_table(f, json_object_get(b, "table"));
        }
    }
}

static void html_text(FILE *f, const char *s)
{
    for (; s && *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
}

/* End tags of cells and rows are left out (HTML allows it: the next <td>,
 * <tr> or </table> closes them); in a whole-catalogue audit they were a
 * fifth of the page. */
static void html_table(FILE *f, const json_t *t)
{
    json_t *row, *c;
    size_t j, k;
    fputs("<div class=\"t\"><table>\n<tr>", f);
    json_array_foreach(json_object_get(t, "head"), j, c)
    {
        fputs("<th>", f);
        html_text(f, json_string_value(c));
    }
    fputc('\n', f);
    json_array_foreach(json_object_get(t, "rows"), j, row)
    {
        fputs("<tr>", f);
        json_array_foreach(row, k, c)
        {
            fputs("<td>", f);
            if (json_is_object(c)) {
                fputs("<a href=\"", f);
                html_text(f, json_string_value(json_object_get(c, "href")));
                fputs("\">", f);
                html_text(f, json_string_value(json_object_get(c, "text")));
                fputs("</a>", f);
            } else {
                html_text(f, json_string_value(c));
            }
        }
        fputc('\n', f);
    }
    fputs("</table></div>\n", f);
}

/* A plot's or a tree's figure closes the same way: the caption, if any. */
static void html_figure_end(FILE *f, const json_t *b)
{
    const char *cap = json_string_value(json_object_get(b, "caption"));
    if (cap && *cap) {
        fputs("<figcaption>", f);
        html_text(f, cap);
        fputs("</figcaption>\n", f);
    }
    fputs("</figure>\n", f);
}

static void html_blocks(FILE *f, const json_t *doc)
{
    size_t i;
    json_t *b;
    json_array_foreach(doc, i, b)
    {
        if (json_object_get(b, "h")) {
            int l = (int)json_integer_value(json_object_get(b, "h"));
            const char *id = json_string_value(json_object_get(b, "id"));
            fprintf(f, "<h%d", l);
            if (id) {
                fputs(" id=\"", f);
                html_text(f, id);
                fputc('"', f);
            }
            fputc('>', f);
            html_text(f, json_string_value(json_object_get(b, "text")));
            fprintf(f, "</h%d>\n", l);
        } else if (json_object_get(b, "p")) {
            fputs("<p>", f);
            html_text(f, json_string_value(json_object_get(b, "p")));
            fputs("</p>\n", f);
        } else if (json_object_get(b, "plot")) {
            fprintf(f, "<figure class=\"plot\" id=\"plot-%s\">\n%s\n", json_string_value(json_object_get(b, "plot")),
                    json_string_value(json_object_get(b, "svg")));
            html_figure_end(f, b);
        } else if (json_object_get(b, "figure")) {
            fprintf(f, "<figure class=\"tree\">\n%s\n", json_string_value(json_object_get(b, "figure")));
            html_figure_end(f, b);
        } else if (json_object_get(b, "toc")) {
            size_t j;
            json_t *e;
            fputs("<ol class=\"toc\">\n", f);
            json_array_foreach(json_object_get(b, "toc"), j, e)
            {
                fputs("<li><a href=\"#", f);
                html_text(f, json_string_value(json_array_get(e, 0)));
                fputs("\">", f);
                html_text(f, json_string_value(json_array_get(e, 1)));
                fputs("</a></li>\n", f);
            }
            fputs("</ol>\n", f);
        } else if (json_object_get(b, "details")) {
            fputs("<details><summary>", f);
            html_text(f, json_string_value(json_object_get(b, "details")));
            fputs("</summary>\n", f);
            html_blocks(f, json_object_get(b, "blocks"));
            fputs("</details>\n", f);
        } else {
            html_table(f, json_object_get(b, "table"));
        }
    }
}

void rdoc_emit_html(FILE *f, const json_t *doc)
{
    const char *title = json_string_value(json_object_get(json_array_get(doc, 0), "text"));
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
          f);
    html_text(f, title ? title : "tcscope report");
    fputs("</title>\n<style>\n"
          "body{font-family:sans-serif;max-width:80em;margin:1em auto;padding:0 0.8em;color:#222;line-height:1.4}\n"
          ".t{overflow-x:auto;margin:0.5em 0 1.2em}\n"
          "table{border-collapse:collapse}\n"
          "th,td{border:1px solid #bbb;padding:0.2em 0.5em;text-align:left;font-size:0.85em;vertical-align:top}\n"
          "th{background:#eee;position:sticky;top:0}\ntd{font-family:monospace}\n"
          "details{margin:0.3em 0 1em}\nsummary{cursor:pointer;color:#05a}\n"
          ".toc{columns:20em;font-family:monospace;font-size:0.85em}\n"
          "figure{margin:1em 0}\nfigure svg{max-width:100%;height:auto}\nfigcaption{font-size:0.9em;color:#555}\n"
          "</style></head>\n<body>\n",
          f);
    html_blocks(f, doc);
    fputs("</body></html>\n", f);
}
