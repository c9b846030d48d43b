/* Archives (reports/file_tree.h): any bytes are read or refused with a
 * message; a tree that is read holds only clean relative names, each once,
 * every file within the caps and NUL-terminated, the total their sum, and
 * its folder lists plain names. The caps are small ones (tc_tree_caps), so
 * that inputs of a few KB reach them. Every file is also read as a km
 * table (tc_tree_file_words): a table read has rows of one width, and its
 * words written again in hex read back the same. */
#include "reports/file_tree.h"
#include "tests/fuzz/fuzz.h"

static bool clean(const char *name)
{
    if (!name[0] || name[0] == '/')
        return false;
    for (const char *p = name; *p;) {
        size_t n = strcspn(p, "/");
        if (n == 0 || (n == 1 && p[0] == '.') || (n == 2 && !strncmp(p, "..", 2)))
            return false;
        p += n + (p[n] == '/');
    }
    return name[strlen(name) - 1] != '/';
}

static void as_table(const tc_tree_file *f)
{
    size_t rows, rows2;
    int n, n2;
    uint32_t *w = tc_tree_file_words(f, 2, &rows, &n);
    FUZZ_CHECK(!w || (rows >= 1 && n >= 1));
    free(w);
    if (!(w = tc_tree_file_words(f, 16, &rows, &n)))
        return;
    FUZZ_CHECK(rows >= 1 && n >= 1);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    FUZZ_CHECK(m != NULL);
    for (size_t i = 0; i < rows * (size_t)n; i++)
        fprintf(m, "%x%c", (unsigned)w[i], (i + 1) % (size_t)n ? ' ' : '\n');
    fclose(m);
    tc_tree_file again = {"again", (unsigned char *)text, len};
    uint32_t *w2 = tc_tree_file_words(&again, 16, &rows2, &n2);
    FUZZ_CHECK(w2 && rows2 == rows && n2 == n && !memcmp(w, w2, rows * (size_t)n * sizeof *w));
    free(w2);
    free(text);
    free(w);
}

/* Small caps, so that small inputs reach them (LIMITS.md's take 64 MiB). */
static const tc_tree_caps caps = {4096, 16384, 16};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tc_tree t;
    char err[512] = "";
    if (tc_tree_from_memory(data, size, &caps, &t, err, sizeof err) != 0) {
        FUZZ_CHECK(err[0] != '\0' && t.n == 0 && t.files == NULL);
        return 0;
    }
    size_t sum = 0;
    FUZZ_CHECK(t.n <= caps.files_max && t.total <= caps.total_max);
    for (size_t i = 0; i < t.n; i++) {
        const tc_tree_file *f = &t.files[i];
        FUZZ_CHECK(clean(f->name));
        FUZZ_CHECK(f->size <= caps.member_max && f->data[f->size] == '\0');
        FUZZ_CHECK(tc_tree_find(&t, f->name) == f); /* each name once */
        sum += f->size;
        as_table(f);
    }
    FUZZ_CHECK(sum == t.total);
    char **dirs;
    size_t nd = tc_tree_folders(&t, "", &dirs);
    for (size_t i = 0; i < nd; i++) {
        FUZZ_CHECK(dirs[i][0] != '\0' && dirs[i][0] != '.' && !strchr(dirs[i], '/'));
        FUZZ_CHECK(i == 0 || strcmp(dirs[i - 1], dirs[i]) < 0);
    }
    tc_tree_names_free(dirs, nd);
    tc_tree_free(&t);
    return 0;
}
