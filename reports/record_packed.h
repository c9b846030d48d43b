/* Packed records (reports/SCHEMA.md "Packed records"): the same record as
 * today's JSON lines, with the bulk of its objects kept compact. A line's
 * inputs are not stored: the generator named by the line ("by") draws them
 * again from the line's seed and their sha256 is checked against the one
 * recorded; the outputs are stored as packed little-endian bits after the
 * line; the whole is an xz stream (liblzma).
 *
 * One writer (tc_packed_write) and one reader (tc_packed_read); the reader
 * gives back today's text byte for byte, so every reader of today's form
 * (the tests' replays, record_open.c) reads both forms unchanged. */
#ifndef TC_REPORTS_RECORD_PACKED_H
#define TC_REPORTS_RECORD_PACKED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* The first line of the decompressed stream. */
#define TC_PACKED_MAGIC "tcscope-packed/1"

/* What one packing or reading went through. */
typedef struct {
    size_t lines;        /* lines of today's text */
    size_t packed;       /* of them, objects whose bulk is packed */
    size_t inputs;       /* input elements regenerated (and hashed) */
    size_t outputs;      /* output elements stored as packed bits */
} tc_packed_stats;

/* Whether p (n bytes, the start of a file) begins as an xz stream. */
bool tc_packed_is(const unsigned char *p, size_t n);

/* Packs text[0..len) (a record in today's form: lines ending in "\n") to out
 * as a packed record. An object of kind "tiles", "chain", "hunt" or "gemm"
 * is packed (its inputs must be the generator's for its seed, checked); any
 * other line is kept as it is. st (optional) counts. 0, or -1 with err
 * naming the line (nothing useful written). */
int tc_packed_write(const char *text, size_t len, FILE *out, tc_packed_stats *st, char *err, size_t errlen);
/* The same, calling progress(ctx, bytes of text packed, len) after each
 * line (progress NULL: tc_packed_write). */
int tc_packed_write_progress(const char *text, size_t len, FILE *out, tc_packed_stats *st,
                             void (*progress)(void *ctx, size_t done, size_t total), void *ctx, char *err,
                             size_t errlen);

/* Today's text of a packed record xz[0..n): a fresh buffer (free it) in
 * *text, its length in *len. st (optional) counts. 0, or -1 with err naming
 * the line and object: a damaged stream, a line cut short, or inputs whose
 * sha256 differs from the recorded one (the generator has changed). */
int tc_packed_read(const unsigned char *xz, size_t n, char **text, size_t *len, tc_packed_stats *st, char *err,
                   size_t errlen);

/* A record file opened for reading, in any of its forms: text, gzip (read
 * through `gzip -dc`) or packed (unpacked whole into memory first, so a
 * damaged one or one whose inputs do not match is an error here, with err
 * naming the file and line). Today's text either way. */
typedef struct {
    pid_t pid;  /* the gzip -dc child, or -1 */
    char *text; /* a packed record's text, or NULL */
} tc_record_file;
FILE *tc_record_open(const char *path, tc_record_file *s, char *err, size_t len);
/* Closes it; -1 when the gzip child failed (a truncated or corrupt file). */
int tc_record_close(FILE *f, tc_record_file *s);

#endif
