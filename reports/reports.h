/* reports: tcscope run records (versioned JSON Lines), their validation,
 * and small builders for the fields every producer shares.
 *
 * A record file is one JSON object per line:
 *   line 1      the header  {"schema":"tcscope-record/1","record":...,"gpu":...,...}
 *   lines 2..n  objects     {"kind":"audit"|"corpus"|"bench"|"sweep", ...}
 *                           (the raw GPU records "corpus", "chains", "dots"
 *                           hold "tiles", "chain", "dots": SCHEMA.md)
 *   last line   the trailer {"kind":"end","objects":N}
 * The trailer makes a file cut at a line boundary detectable; a run stopped
 * by a device error ends its record with {"kind":"partial",...} instead, and
 * a run marker beside the record (tc_run_begin) tells whether it is current. Required fields
 * per kind are listed in reports/SCHEMA.md and checked by tc_record_check_*.
 * Producers build objects as json_t and hand them over, or hand over C
 * structs that a writer here turns into objects (the bench:
 * reports/record_bench.h); nothing here knows how the numbers were made. Comparison: reports/compare.h; advice:
 * reports/choose.h; Markdown/HTML: reports/render.h.
 */
#ifndef TC_REPORTS_H
#define TC_REPORTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#define TC_RECORD_SCHEMA "tcscope-record/1"
#define TC_RECORD_SCHEMA_MAJOR 1

/* The tcscope version compiled in (git describe at build time, else a constant). */
const char *tc_version(void);

/* A whole record in memory: header and the objects in file order. */
typedef struct {
    json_t *header;    /* object */
    json_t *objects;   /* array of objects, trailer excluded */
} tc_record;

/* What ran the work, as a record's header says it (SCHEMA.md "Header"):
 * reports' own type, so that nothing here depends on the backends; the CLI
 * fills it from a backend's facts (cli/run_info.h), the bench from its GPU.
 * Strings empty and numbers 0 when unknown (written as "" and null). */
typedef struct {
    char backend[64];      /* "gpu:0", "model:h100", "exact" */
    char device[128];      /* the header's "gpu": "NVIDIA H100 80GB HBM3", "model (no GPU)" */
    char driver[32];
    char cuda[32];
    char compiler[160];    /* what made the code that ran */
    int sm;                /* compute capability * 10 */
    int sm_count;
    int clock_mhz;         /* SM clock at the start of the run */
} tc_run_info;

/* A new header of `kind` ("audit", "corpus", "bench", "sweep", "hunt": the kind of every
 * object the record will hold, or "mixed").
 * run may be NULL (fields then empty/null); seeds may be NULL when n is 0.
 * Date (UTC, ISO 8601), host and tcscope version are filled in here. */
json_t *tc_record_header(const char *kind, const tc_run_info *run, const uint64_t *seeds, size_t nseeds);

/* Validation: true, or false with a one-line reason in err naming the field. */
bool tc_record_check_header(const json_t *h, char *err, size_t len);
bool tc_record_check_object(const json_t *o, char *err, size_t len);
/* What a record is: the header's "record" field (records written before
 * 2026-11-24 called it "kind", which is still read; "kind" is now only the
 * objects'). NULL when the header has neither. */
const char *tc_record_header_kind(const json_t *header);

/* The header's kind is every object's kind, or "mixed", or (a command's
 * --json record) one of the object kinds that command prints. */
bool tc_record_check_kinds(const json_t *header, const json_t *objects, char *err, size_t len);

/* A record printed while it is made: begin prints the header, object one
 * object (validated, of the header's kind), end the trailer with the count
 * of objects printed (partial: why the run stopped, as tc_record_write).
 * The header's kind string must outlive the stream. 0 or -1 (+ err). */
typedef struct {
    FILE *f;
    const char *kind;
    size_t objects;
} tc_record_stream;
int tc_record_stream_begin(tc_record_stream *s, FILE *f, const json_t *header, char *err, size_t len);
int tc_record_stream_object(tc_record_stream *s, const json_t *o, char *err, size_t len);
int tc_record_stream_end(tc_record_stream *s, const char *partial);

/* A command's --json output (SCHEMA.md "Command output"): a record on
 * stdout, printed line by line as it is made, so that a long run shows its
 * progress and a killed one leaves a record with no trailer (which every
 * reader refuses). The header's kind is the command; every object gets its
 * "kind" first. With on false every call does nothing, so a command calls
 * them whether or not --json was given. A check failure (a bug: an object
 * the schema does not allow) is said on stderr and ends the record
 * "partial" at tc_json_out_end. */
typedef struct {
    tc_record_stream s;
    json_t *header;
    bool on, failed;
} tc_json_out;
/* header: tc_record_header(COMMAND, ...) plus any fields (stolen). 0 or -1. */
int tc_json_out_begin(tc_json_out *j, bool on, json_t *header);
/* Prints o (stolen) with "kind" set to kind, put first. 0 or -1. */
int tc_json_out_put(tc_json_out *j, const char *kind, json_t *o);
/* The trailer: "end" with the count, or "partial" with stopped = why when
 * why is not NULL (the command stopped on an error). Frees the header. */
int tc_json_out_end(tc_json_out *j, const char *why);
/* Whether a record of this process ended "partial": the command stopped
 * short, so its exit status is never 0 or 1 (cli/tcscope.c makes it 2). */
bool tc_json_out_ended_partial(void);
/* A record held in a string (what a child's --json printed): as tc_record_load. */
int tc_record_parse(const char *text, const char *name, tc_record *rec, char *err, size_t len);

/* Reads a record file. Returns 0, or -1 with err set when the file cannot be
 * read, a line is not JSON, the schema is not TC_RECORD_SCHEMA_MAJOR, a
 * required field is missing, or the trailer is missing/wrong (truncation). */
int tc_record_load(const char *path, tc_record *rec, char *err, size_t len);
/* tc_record_load, or else the single-document bench file `tcscope bench`
 * wrote before it wrote bench records (reports/record_bench.h) ("record":
 * "tcscope-bench", version 1; the committed baselines), converted into
 * bench objects. */
int tc_record_load_any(const char *path, tc_record *rec, char *err, size_t len);
/* One JSON document from a file, gzip-compressed or not (as records are
 * read; the committed h100-bench.json.gz): the document, or NULL with err
 * set (unreadable, not JSON, a corrupt .gz). flags: jansson's load flags. */
json_t *tc_json_load_file(const char *path, size_t flags, char *err, size_t len);
/* Writes header, objects and trailer (each validated first) to path through
 * tc_record_write, replacing a regular file there. 0 or -1 + err. */
int tc_record_save(const char *path, const tc_record *rec, char *err, size_t len);
/* An empty record with the given header (reference stolen). */
tc_record tc_record_new(json_t *header);
/* Appends an object after validating it (reference stolen even on failure). */
int tc_record_add(tc_record *rec, json_t *obj, char *err, size_t len);
void tc_record_free(tc_record *rec);

/* ---- Output folders (reports/outdir.c, reports/run_marker.c) -----------
 * Every file a command writes goes through these: created inside the output
 * folder only, under a plain name (tc_out_name_ok), written to a temporary
 * file in the same folder (O_CREAT|O_EXCL|O_NOFOLLOW), flushed to disk, then
 * renamed onto its name; never through a symbolic link. An existing file is
 * replaced only with force (--force). */
#define TC_OUT_NAME_MAX 200

typedef struct tc_outdir_s {
    int fd;               /* the folder, opened without following a link */
    int lock_fd;          /* its .lock while this run holds it (owns_lock) */
    bool owns_lock;       /* false: not locked, or inside the run that holds it */
    bool force;           /* replace existing files of the run's names */
    char path[4096];      /* as given, for messages */
    char run_name[TC_OUT_NAME_MAX + 1]; /* set by tc_run_begin: "audit", "sweep" */
    char run_id[64];      /* set by tc_run_begin; stamped into records */
    json_t *run;          /* the run marker's object */
} tc_outdir;

/* Opens the folder, creating it and its missing parents. The folder itself
 * and every component created here are opened with O_NOFOLLOW: a symbolic
 * link there is refused. Existing parents are the user's path and followed.
 * One run per folder at a time: the folder's .lock is taken (flock, see
 * reports/outdir_lock.c); a folder another run holds is refused, naming it.
 * 0, or -1 with err. */
int tc_outdir_open(tc_outdir *d, const char *path, bool force, char *err, size_t len);
/* The same for the folder of one file written whole (tc_record_save, bench
 * --out FILE): not locked, since its one rename cannot mix two runs. */
int tc_outdir_open_for_file(tc_outdir *d, const char *path, bool force, char *err, size_t len);
/* Folder `name` (a plain name, tc_out_name_ok) inside parent, created when
 * missing, opened with O_NOFOLLOW: a symbolic link there is refused. Covered
 * by the parent's lock. 0, or -1 with err. */
int tc_outdir_sub(const tc_outdir *parent, const char *name, tc_outdir *d, char *err, size_t len);
/* Releases the lock (removing .lock) and closes the folder. */
void tc_outdir_close(tc_outdir *d);
/* A plain file name: not empty, at most TC_OUT_NAME_MAX bytes, no '/', no
 * control character, not starting with '.' (so never '.' or '..'). */
bool tc_out_name_ok(const char *name, char *err, size_t len);
/* 0 when none of names exists (or each is a regular file and d->force);
 * else -1 with err naming the first: kept without --force; a symbolic link
 * or a non-file is never replaced. */
int tc_out_check_free(const tc_outdir *d, const char *const *names, size_t n, char *err, size_t len);
/* Removes d/name if it is a regular file (a link is refused). */
int tc_out_remove(const tc_outdir *d, const char *name, char *err, size_t len);
/* Writes d/name atomically: emit (0 or -1) fills the temporary file, which
 * is then renamed onto name (replacing a regular file only with d->force). */
int tc_out_write(const tc_outdir *d, const char *name, int (*emit)(FILE *f, const void *ctx), const void *ctx,
                 char *err, size_t len);
int tc_out_write_text(const tc_outdir *d, const char *name, const char *text, char *err, size_t len);

/* A run in an output folder. tc_run_begin checks that none of `files` exists
 * (unless force), writes the marker d/NAME.run {"schema":"tcscope-run/1",
 * "run_id","state":"running","started","command","host","pid","files"},
 * and with force removes the earlier `files`. tc_run_end rewrites it with
 * state "done", or "stopped" and the reason (stopped != NULL). */
int tc_run_begin(tc_outdir *d, const char *name, int argc, char **argv, const char *const *files, size_t nfiles,
                 char *err, size_t len);
int tc_run_end(const tc_outdir *d, const char *stopped, char *err, size_t len);
/* "tcscope ARG ARG..": the command a run marker records (malloc'd; NULL when out of memory). */
char *tc_run_command_line(int argc, char **argv);
/* A record at path is current unless a marker of its name (DIR/NAME.run for
 * DIR/NAME.ext) names another run or a run not done. 0, or -1 with err.
 * Called by tc_record_load. */
int tc_record_check_current(const char *path, const json_t *header, char *err, size_t len);
/* Writes a record as d/name: the header gets d's run_id (when a run was
 * begun); partial != NULL ends it with {"kind":"partial","objects":N,
 * "stopped":partial} instead of the end trailer, which every reader refuses
 * as incomplete. */
int tc_record_write(const tc_outdir *d, const char *name, const tc_record *rec, const char *partial, char *err,
                    size_t len);

/* Objects of one kind, in file order; the array is new, its items borrowed. */
json_t *tc_record_objects_of(const tc_record *rec, const char *kind);

/* Builders for shared field conventions. */
json_t *tc_json_bits(uint64_t bits);          /* "0x3c00" (lower case, no padding) */
bool tc_json_get_bits(const json_t *j, uint64_t *bits);
json_t *tc_json_real_or_null(double x);       /* NaN/Inf are not JSON: null */
double tc_json_number(const json_t *j);       /* integer or real; NaN if null/absent */

/* The corpus hash: FNV-1a 64 over each output's bits as 8 little-endian
 * bytes, in order. Same function on the GPU side and in compare. */
uint64_t tc_corpus_hash(const uint64_t *bits, size_t n);

/* A corpus object: count = n, hash over all n outputs, and the first
 * min(n, nkeep) outputs (with their inputs when A/B/C are given: per output
 * k values of A and of B and one C; pass NULL to omit). */
json_t *tc_record_corpus_new(const char *instr, const uint64_t *D, size_t n, size_t nkeep,
                             int k, const uint64_t *A, const uint64_t *B, const uint64_t *C);

#endif
