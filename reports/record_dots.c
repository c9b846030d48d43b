/* Dots lines (reports/record_dots.h). */
#include <stdlib.h>

#include <jansson.h>

#include "probes/record_json.h"
#include "reports/record_dots.h"

int tc_record_dots_line(FILE *out, const tc_dots *d)
{
    json_t *j = json_object();
    json_object_set_new(j, "kind", json_string("dots"));
    json_object_set_new(j, "instr", json_string(d->ins->name));
    json_object_set_new(j, "gpu", json_string(d->gpu));
    json_object_set_new(j, "source", json_string(d->source));
    json_object_set_new(j, "files", json_string(d->files));
    json_object_set_new(j, "rows", json_integer((json_int_t)d->rows));
    json_object_set_new(j, "k", json_integer(d->k));
    size_t rk = d->rows * (size_t)d->k;
    if (d->inputs_of)
        json_object_set_new(j, "inputs_of", json_string(d->inputs_of));
    int rc = (!d->inputs_of && (tc_hex_put(j, "a", d->A, rk, d->ins->a) || tc_hex_put(j, "b", d->B, rk, d->ins->b))) ||
             tc_hex_put(j, "c", d->C, d->rows, d->ins->c) || tc_hex_put(j, "d", d->D, d->rows, d->ins->d) ? -1 : 0;
    char *line = rc ? NULL : json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (line)
        fprintf(out, "%s\n", line);
    free(line);
    json_decref(j);
    return line ? 0 : -1;
}
