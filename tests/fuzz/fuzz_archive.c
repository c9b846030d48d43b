/* Archives (reports/file_tree.h): any bytes are read or refused with a
 * message; a tree that is read holds only clean relative names, each once,
 * every file within the caps and NUL-terminated, the total their sum, and
 * its folder lists plain names. */
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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tc_tree t;
    char err[512] = "";
    if (tc_tree_from_memory(data, size, &t, err, sizeof err) != 0) {
        FUZZ_CHECK(err[0] != '\0' && t.n == 0 && t.files == NULL);
        return 0;
    }
    size_t sum = 0;
    FUZZ_CHECK(t.n <= TC_TREE_FILES_MAX && t.total <= TC_TREE_TOTAL_MAX);
    for (size_t i = 0; i < t.n; i++) {
        const tc_tree_file *f = &t.files[i];
        FUZZ_CHECK(clean(f->name));
        FUZZ_CHECK(f->size <= TC_TREE_MEMBER_MAX && f->data[f->size] == '\0');
        FUZZ_CHECK(tc_tree_find(&t, f->name) == f); /* each name once */
        sum += f->size;
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
