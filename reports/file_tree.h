/* file_tree: the regular files of a folder or of an archive, read whole
 * into memory under the limits of LIMITS.md ("Archives"), so that an input
 * archive is never unpacked to disk: nothing is left behind on any path
 * (an error, a signal), and no member can be a link, a device or a path
 * outside the tree. Archives are read by libarchive (tar, plain or
 * compressed with xz, gzip or zstd). */
#ifndef TC_FILE_TREE_H
#define TC_FILE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* LIMITS.md "Archives": one member, all members together, how many. */
#define TC_TREE_MEMBER_MAX ((size_t)64 << 20)
#define TC_TREE_TOTAL_MAX ((size_t)256 << 20)
#define TC_TREE_FILES_MAX 4096 /* names are found by a linear search: at most 8M comparisons */

typedef struct {
    char *name;          /* "DIR/DIR/FILE", relative, no "." or ".." part */
    unsigned char *data; /* size bytes, then a NUL */
    size_t size;
} tc_tree_file;

/* The caps a read applies: LIMITS.md's (tc_tree_caps_default), or the
 * fuzz harness's small ones, so that it reaches them with small inputs. */
typedef struct {
    size_t member_max, total_max, files_max;
} tc_tree_caps;
extern const tc_tree_caps tc_tree_caps_default;

typedef struct {
    tc_tree_file *files;
    size_t n, cap, total;
    tc_tree_caps caps;
} tc_tree;

/* An archive file / the same bytes in memory: every member a regular file
 * or a folder (a link, device or FIFO is refused, as is an absolute path or
 * a ".." part, and a name given twice), within the limits. 0, or -1 with
 * err naming the member; t is then empty. caps: NULL for LIMITS.md's. */
int tc_tree_from_archive(const char *path, tc_tree *t, char *err, size_t len);
int tc_tree_from_memory(const void *buf, size_t size, const tc_tree_caps *caps, tc_tree *t, char *err, size_t len);
/* The regular files of folder root exactly `depth` levels down (1: root's
 * own files), names not starting with '.', within the same limits. */
int tc_tree_from_dir(const char *root, int depth, tc_tree *t, char *err, size_t len);
void tc_tree_free(tc_tree *t);

/* The file of that name, or NULL. */
const tc_tree_file *tc_tree_find(const tc_tree *t, const char *name);
/* The folders directly under prefix ("" or "A/B/"), names not starting with
 * '.', sorted, each once: *out is a malloc'd array of malloc'd names. */
size_t tc_tree_folders(const tc_tree *t, const char *prefix, char ***out);
void tc_tree_names_free(char **names, size_t n);

/* A km table (import km): lines of hex (base 16) or binary (base 2)
 * words, each at most 32 bits, the same count on every line (blank lines
 * skipped). The words (rows * n of them; free) or NULL when file is NULL
 * or the text is not such a table. */
uint32_t *tc_tree_file_words(const tc_tree_file *file, int base, size_t *rows, int *n);

#endif
