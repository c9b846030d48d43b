/* Builders of the neutral report document (reports/render_doc.h). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/render_doc.h"

void rdoc_heading(json_t *doc, int level, const char *text, const char *id)
{
    json_t *h = json_pack("{s:i, s:s}", "h", level, "text", text);
    if (id)
        json_object_set_new(h, "id", json_string(id));
    json_array_append_new(doc, h);
}

void rdoc_para(json_t *doc, const char *fmt, ...)
{
    char buf[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    json_array_append_new(doc, json_pack("{s:s}", "p", buf));
}

json_t *rdoc_table_j(json_t *doc, json_t *head)
{
    json_t *rows = json_array();
    json_array_append_new(doc, json_pack("{s:{s:o, s:o}}", "table", "head", head, "rows", rows));
    return rows;
}

json_t *rdoc_table(json_t *doc, const char *const *head)
{
    json_t *h = json_array();
    for (; *head; head++)
        json_array_append_new(h, json_string(*head));
    return rdoc_table_j(doc, h);
}

json_t *rdoc_cell(const json_t *v)
{
    char buf[64];
    if (!v || json_is_null(v))
        return json_string("—");
    if (json_is_string(v))
        return json_string(json_string_value(v));
    if (json_is_integer(v)) {
        snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
        return json_string(buf);
    }
    if (json_is_real(v)) {
        snprintf(buf, sizeof buf, "%.4g", json_real_value(v));
        return json_string(buf);
    }
    char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
    if (s && strlen(s) > 240)
        strcpy(s + 236, " …");
    json_t *c = json_string(s ? s : "?");
    free(s);
    return c;
}

void rdoc_row(json_t *rows, json_t *first, ...)
{
    json_t *row = json_array();
    va_list ap;
    va_start(ap, first);
    for (json_t *c = first; c; c = va_arg(ap, json_t *))
        json_array_append_new(row, c);
    va_end(ap);
    json_array_append_new(rows, row);
}

json_t *rdoc_str(const char *s)
{
    return json_string(s ? s : "—");
}

json_t *rdoc_link(const char *text, const char *href)
{
    return json_pack("{s:s, s:s}", "text", text ? text : "—", "href", href);
}

json_t *rdoc_details(json_t *doc, const char *summary)
{
    json_t *blocks = json_array();
    json_array_append_new(doc, json_pack("{s:s, s:o}", "details", summary, "blocks", blocks));
    return blocks;
}

void rdoc_anchor(const char *name, char *out, size_t len)
{
    size_t o = (size_t)snprintf(out, len, "i-");
    for (; name && *name && o + 1 < len; name++) {
        char c = *name;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                  c == '_' || c == '-';
        out[o++] = ok ? c : '-';
    }
    if (o < len)
        out[o] = '\0';
}
