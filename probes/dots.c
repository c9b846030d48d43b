/* Recorded dot-product sets (see dots.h): the reader; the writer is
 * reports/record_dots.c. */
#define _POSIX_C_SOURCE 200809L
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "probes/dots.h"
#include "probes/record_json.h"

extern char **environ;

static void free_one(tc_dots *d)
{
    free(d->A);
    free(d->B);
    free(d->C);
    free(d->D);
}

void tc_dots_free_all(tc_dots *sets, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free_one(&sets[i]);
    free(sets);
}

static uint64_t *dup_elems(const uint64_t *x, size_t n)
{
    uint64_t *y = malloc(n * 8);
    if (y)
        memcpy(y, x, n * 8);
    return y;
}

/* earlier: the lines before this one (for inputs_of). */
static int parse_line(const char *line, tc_dots *d, const tc_dots *earlier, size_t nearlier, char *err,
                      size_t errlen)
{
    memset(d, 0, sizeof *d);
    json_t *j = tc_line_load(line, err, errlen);
    if (!j)
        return -1;
    int rc = -1;
    const char *kind = json_string_value(json_object_get(j, "kind"));
    const char *name = json_string_value(json_object_get(j, "instr"));
    json_int_t rows = json_integer_value(json_object_get(j, "rows")), k = json_integer_value(json_object_get(j, "k"));
    d->ins = tc_instr_by_name(name);
    if (!kind || strcmp(kind, "dots") || !d->ins) {
        snprintf(err, errlen, "not a dots line of a catalogue instruction (kind '%s', instr '%s')",
                 kind ? kind : "?", name ? name : "?");
        goto done;
    }
    if (rows < 1 || rows > 10000000 || k != d->ins->k) {
        snprintf(err, errlen, "%s: rows %lld or k %lld out of range (k must be the instruction's %d)", name,
                 (long long)rows, (long long)k, d->ins->k);
        goto done;
    }
    d->rows = (size_t)rows;
    d->k = (int)k;
    const char *g = json_string_value(json_object_get(j, "gpu")), *s = json_string_value(json_object_get(j, "source")),
               *fl = json_string_value(json_object_get(j, "files"));
    if (!g || !*g || strlen(g) >= sizeof d->gpu) {
        snprintf(err, errlen, "%s: missing or long \"gpu\"", name);
        goto done;
    }
    snprintf(d->gpu, sizeof d->gpu, "%s", g);
    snprintf(d->source, sizeof d->source, "%s", s ? s : "");
    snprintf(d->files, sizeof d->files, "%s", fl ? fl : "");
    size_t rk = d->rows * (size_t)d->k;
    const char *of = json_string_value(json_object_get(j, "inputs_of"));
    if (of) {
        const tc_dots *tw = NULL;
        for (size_t i = 0; i < nearlier; i++)
            if (!strcmp(earlier[i].ins->name, of) && !strcmp(earlier[i].gpu, d->gpu))
                tw = &earlier[i];
        if (!tw || tw->rows != d->rows || tw->k != d->k || tw->ins->a != d->ins->a || tw->ins->b != d->ins->b ||
            json_object_get(j, "a") || json_object_get(j, "b")) {
            snprintf(err, errlen, "%s: inputs_of '%s' is no earlier line of %s with the same rows, k and operand "
                     "formats (or a, b given as well)", name, of, d->gpu);
            goto done;
        }
        d->A = dup_elems(tw->A, rk);
        d->B = dup_elems(tw->B, rk);
    }
    if (!(d->A = d->A ? d->A : tc_hex_get(j, "a", rk, d->ins->a)) ||
        !(d->B = d->B ? d->B : tc_hex_get(j, "b", rk, d->ins->b)) || !(d->C = tc_hex_get(j, "c", d->rows, d->ins->c)) ||
        !(d->D = tc_hex_get(j, "d", d->rows, d->ins->d))) {
        snprintf(err, errlen, "%s: a, b, c or d missing, of the wrong length or with bad digits", name);
        goto done;
    }
    rc = 0;
done:
    json_decref(j);
    if (rc)
        free_one(d);
    return rc;
}

/* The file as a stream: gzip -dc (no shell) for .gz, else the file. */
static FILE *open_stream(const char *path, pid_t *pid)
{
    size_t n = strlen(path);
    *pid = 0;
    if (n < 3 || strcmp(path + n - 3, ".gz"))
        return fopen(path, "r");
    FILE *probe = fopen(path, "r");
    if (!probe)
        return NULL;
    fclose(probe);
    int fd[2];
    if (pipe(fd))
        return NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fd[1], 1);
    posix_spawn_file_actions_addclose(&fa, fd[0]);
    char *argv[] = {"gzip", "-dc", "--", (char *)path, NULL};
    int rc = posix_spawnp(pid, "gzip", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(fd[1]);
    if (rc) {
        close(fd[0]);
        *pid = 0;
        return NULL;
    }
    return fdopen(fd[0], "r");
}

int tc_dots_load(const char *path, tc_dots **sets, size_t *nsets, char *err, size_t errlen)
{
    *sets = NULL;
    *nsets = 0;
    pid_t pid;
    FILE *f = open_stream(path, &pid);
    if (!f) {
        snprintf(err, errlen, "%s: cannot be read", path);
        return -1;
    }
    char *line = NULL;
    size_t cap = 0, lineno = 0;
    int rc = 0;
    tc_lines form; /* bare lines or a record "dots" of them */
    tc_lines_init(&form, "dots");
    while (getline(&line, &cap, f) > 0) {
        lineno++;
        char why[256];
        int role = tc_lines_next(&form, line, why, sizeof why);
        if (role < 0) {
            snprintf(err, errlen, "%s:%zu: %s", path, lineno, why);
            rc = -1;
            break;
        }
        if (role == 0)
            continue;
        tc_dots *grown = realloc(*sets, (*nsets + 1) * sizeof **sets);
        if (!grown) {
            snprintf(err, errlen, "out of memory");
            rc = -1;
            break;
        }
        *sets = grown;
        if (parse_line(line, &(*sets)[*nsets], *sets, *nsets, why, sizeof why)) {
            snprintf(err, errlen, "%s:%zu: %s", path, lineno, why);
            rc = -1;
            break;
        }
        (*nsets)++;
    }
    char why[256];
    if (!rc && tc_lines_end(&form, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", path, why);
        rc = -1;
    }
    free(line);
    fclose(f);
    int st = 0;
    if (pid && (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))) {
        if (!rc)
            snprintf(err, errlen, "%s: gzip -dc failed", path);
        rc = -1;
    }
    if (!rc && *nsets == 0) {
        snprintf(err, errlen, "%s: no dots lines", path);
        rc = -1;
    }
    if (rc) {
        tc_dots_free_all(*sets, *nsets);
        *sets = NULL;
        *nsets = 0;
    }
    return rc;
}
