/* A slim audit record read whole (reports/SCHEMA.md "Slim audit records",
 * written by tools/audit-slim.py): each field it left out, FIELD_sha256 in
 * place of FIELD, is taken from the object of the same instruction in the
 * full record its header names (`slim.from`, a file beside it), so every
 * reader (compare, regress, the renderers, the schema checks) sees the
 * record as the run wrote it. That the hashes are those of the values put
 * back is checked by tests/test_reaudits.c over every committed slim record. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/reports.h"
#include "reports/reports_internal.h"

struct rep_slim {
    json_t *fields; /* the field names the record may leave out */
    json_t *by_instr; /* the full record's objects by instr */
    char from[512];
};

int rep_slim_reference(const char *path, const json_t *header, char *from, size_t fromlen, char *err, size_t len)
{
    if (err && len)
        err[0] = '\0';
    const json_t *slim = json_object_get(header, "slim");
    if (!slim)
        return 0;
    const char *name = json_string_value(json_object_get(slim, "from"));
    const json_t *fields = json_object_get(slim, "fields");
    if (!json_is_object(slim) || !name || !*name || strchr(name, '/') || name[0] == '.' || !json_is_array(fields)) {
        rep_set_err(err, len, "%s: slim record: \"slim\" needs \"from\" (a file name beside it) and \"fields\"", path);
        return -1;
    }
    const char *slash = strrchr(path, '/');
    snprintf(from, fromlen, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, name);
    return 1;
}

rep_slim *rep_slim_new(const json_t *header, const char *from, const json_t *ref_objects)
{
    rep_slim *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    snprintf(s->from, sizeof s->from, "%s", from);
    s->fields = json_incref(json_object_get(json_object_get(header, "slim"), "fields"));
    s->by_instr = json_object();
    size_t i;
    json_t *o;
    json_array_foreach(ref_objects, i, o) {
        const char *instr = json_string_value(json_object_get(o, "instr"));
        if (instr)
            json_object_set(s->by_instr, instr, o);
    }
    return s;
}

int rep_slim_fill(const rep_slim *s, json_t *o, char *err, size_t len)
{
    const char *instr = json_string_value(json_object_get(o, "instr"));
    size_t i;
    json_t *f;
    json_array_foreach(s->fields, i, f) {
        const char *field = json_string_value(f);
        char hash_key[128];
        snprintf(hash_key, sizeof hash_key, "%s_sha256", field ? field : "");
        if (!field || json_object_get(o, field) || !json_object_get(o, hash_key))
            continue;
        const json_t *v = json_object_get(json_object_get(s->by_instr, instr ? instr : ""), field);
        if (!v) {
            rep_set_err(err, len, "slim record: %s of %s left out, and %s has none", field,
                        instr ? instr : "(no instr)", s->from);
            return -1;
        }
        json_object_set(o, field, (json_t *)v);
    }
    return 0;
}

void rep_slim_close(rep_slim *s)
{
    if (!s)
        return;
    json_decref(s->fields);
    json_decref(s->by_instr);
    free(s);
}
