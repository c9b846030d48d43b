/* Whether an SVG picture from a record may be inlined into a report page:
 * a record file is data, and an SVG inlined into HTML could otherwise run
 * script. Only the drawing elements the structure trees use (and a few
 * like them) are let through, with no event attribute, no link and no
 * markup declaration; anything else keeps the picture out of the page. */
#include <ctype.h>
#include <stdbool.h>
#include <string.h>
#include <strings.h>

#include "reports/reports_internal.h"

static bool allowed_element(const char *name, size_t n)
{
    static const char *const ok[] = {"svg", "g", "rect", "line", "polyline", "polygon", "path", "circle",
                                     "ellipse", "text", "tspan", "title", "desc"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (strlen(ok[i]) == n && !strncasecmp(name, ok[i], n))
            return true;
    return false;
}

/* The attributes of one tag, from after its name to its '>': no name
 * starting with "on" (event handlers), none holding "href", no value
 * holding "javascript:" or "url(". Returns the '>' or NULL. */
static const char *attributes_ok(const char *p)
{
    while (*p && *p != '>') {
        if (*p == '"' || *p == '\'') {
            const char *end = strchr(p + 1, *p);
            if (!end)
                return NULL;
            for (const char *v = p + 1; v < end; v++)
                if (!strncasecmp(v, "javascript:", 11) || !strncasecmp(v, "url(", 4) || *v == '<')
                    return NULL;
            p = end + 1;
        } else if (isalpha((unsigned char)*p)) {
            const char *name = p;
            while (*p && (isalnum((unsigned char)*p) || *p == '-' || *p == ':' || *p == '_'))
                p++;
            size_t n = (size_t)(p - name);
            if ((n >= 2 && !strncasecmp(name, "on", 2)) || (n >= 4 && strcasestr(name, "href") &&
                                                            (size_t)(strcasestr(name, "href") - name) < n))
                return NULL;
            if (n >= 5 && !strncasecmp(name, "style", 5))
                return NULL;
        } else {
            p++;
        }
    }
    return *p == '>' ? p : NULL;
}

bool rep_svg_safe(const char *svg)
{
    if (!svg || strncmp(svg, "<svg", 4))
        return false;
    for (const char *p = strchr(svg, '<'); p; p = strchr(p, '<')) {
        if (!strncmp(p, "<!--", 4)) {
            const char *end = strstr(p + 4, "-->");
            if (!end)
                return false;
            p = end + 3;
            continue;
        }
        const char *name = p + 1 + (p[1] == '/');
        size_t n = 0;
        while (isalpha((unsigned char)name[n]))
            n++;
        if (!allowed_element(name, n))
            return false;
        p = attributes_ok(name + n);
        if (!p)
            return false;
    }
    return true;
}
