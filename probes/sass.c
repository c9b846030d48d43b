/* sass: parser of `cuobjdump -sass` text and the timed-loop check (sass.h). */
#include "probes/sass.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned long addr;
    char opcode[64];          /* "HMMA.16816.F32", "BRA" */
    long target;              /* branch target address, -1 if not a branch */
} sass_insn;

typedef struct {
    char *name;
    sass_insn *insn;
    size_t n, cap;
} sass_fn;

struct tc_sass {
    sass_fn *fn;
    size_t n, cap;
};

/* Pending label of nvdisasm-style listings (".L_x_3:"), resolved to the next address. */
typedef struct {
    char name[32];
    long addr;
} sass_label;

static void *grow(void *p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * size);
    if (!q)
        abort();
    *cap = c;
    return q;
}

static size_t stem_len(const char *opcode)
{
    const char *dot = strchr(opcode, '.');
    return dot ? (size_t)(dot - opcode) : strlen(opcode);
}

/* Tensor-core opcodes are the stems ending in "MMA" (HMMA, HGMMA, QGMMA, ...). */
static bool is_tensor_op(const char *opcode)
{
    size_t n = stem_len(opcode);
    return n >= 4 && !strncmp(opcode + n - 3, "MMA", 3);
}

static bool stem_is(const char *opcode, const char *stem)
{
    size_t n = stem_len(opcode);
    return n == strlen(stem) && !strncmp(opcode, stem, n);
}

static bool is_conversion(const char *opcode)
{
    static const char *const conv[] = {"F2FP", "F2F", "I2F", "F2I", "I2FP", "F2IP"};
    for (size_t i = 0; i < sizeof conv / sizeof conv[0]; i++)
        if (stem_is(opcode, conv[i]))
            return true;
    return false;
}

static bool is_branch(const char *opcode)
{
    return stem_is(opcode, "BRA") || stem_is(opcode, "JMP");
}

/* The address comment "/ *0150* /" (without the spaces) at p: its value, *end set past it; -1 if none. */
static long parse_addr_comment(const char *p, const char **end)
{
    if (strncmp(p, "/*", 2) != 0)
        return -1;
    const char *q = p + 2;
    if (!isxdigit((unsigned char)*q))
        return -1;
    char *e;
    unsigned long v = strtoul(q, &e, 16);
    if (strncmp(e, "*/", 2) != 0)
        return -1;
    *end = e + 2;
    return (long)v;
}

static long find_label(const sass_label *labels, size_t nlabels, const char *name, size_t len)
{
    for (size_t i = 0; i < nlabels; i++)
        if (strlen(labels[i].name) == len && !strncmp(labels[i].name, name, len))
            return labels[i].addr;
    return -1;
}

/* Branch target from the operand text: "0x150" (cuobjdump) or "`(.L_x_3)" (nvdisasm). */
static long parse_target(const char *ops, const sass_label *labels, size_t nlabels)
{
    const char *hx = strstr(ops, "0x");
    const char *lb = strstr(ops, ".L_");
    if (lb) {
        size_t len = strcspn(lb, ") ;\n");
        return find_label(labels, nlabels, lb, len);
    }
    if (hx)
        return (long)strtoul(hx, NULL, 16);
    return -1;
}

static void add_insn(sass_fn *f, long addr, const char *text, const sass_label *labels, size_t nlabels)
{
    while (*text == ' ' || *text == '\t')
        text++;
    if (*text == '@') {                 /* predicate: @P0, @!UP1, @!PT */
        text += strcspn(text, " \t");
        while (*text == ' ' || *text == '\t')
            text++;
    }
    size_t n = strcspn(text, " \t;");
    if (n == 0)
        return;
    f->insn = grow(f->insn, &f->cap, f->n + 1, sizeof *f->insn);
    sass_insn *in = &f->insn[f->n++];
    in->addr = (unsigned long)addr;
    if (n >= sizeof in->opcode)
        n = sizeof in->opcode - 1;
    memcpy(in->opcode, text, n);
    in->opcode[n] = '\0';
    in->target = is_branch(in->opcode) ? parse_target(text + n, labels, nlabels) : -1;
}

tc_sass *tc_sass_parse(const char *text, char *err, size_t errlen)
{
    tc_sass *s = calloc(1, sizeof *s);
    if (!s)
        abort();
    sass_fn *cur = NULL;
    sass_label labels[256];
    size_t nlabels = 0;
    const char *line = text;
    while (line && *line) {
        const char *nl = strchr(line, '\n');
        size_t len = nl ? (size_t)(nl - line) : strlen(line);
        char buf[1024];
        if (len >= sizeof buf)
            len = sizeof buf - 1;
        memcpy(buf, line, len);
        buf[len] = '\0';
        line = nl ? nl + 1 : NULL;

        const char *fn = strstr(buf, "Function : ");
        if (fn) {
            fn += strlen("Function : ");
            size_t fl = strcspn(fn, " \t\r");
            s->fn = grow(s->fn, &s->cap, s->n + 1, sizeof *s->fn);
            cur = &s->fn[s->n++];
            memset(cur, 0, sizeof *cur);
            cur->name = strndup(fn, fl);
            nlabels = 0;
            continue;
        }
        if (!cur)
            continue;
        const char *p = buf;
        while (*p == ' ' || *p == '\t')
            p++;
        if (p[0] == '.' && p[1] == 'L' && strchr(p, ':')) {
            /* A label names the next instruction: it has the previous address + 16. */
            if (nlabels < sizeof labels / sizeof labels[0]) {
                size_t ll = strcspn(p, ":");
                if (ll >= sizeof labels[0].name)
                    ll = sizeof labels[0].name - 1;
                memcpy(labels[nlabels].name, p, ll);
                labels[nlabels].name[ll] = '\0';
                labels[nlabels].addr = cur->n ? (long)cur->insn[cur->n - 1].addr + 16 : 0;
                nlabels++;
            }
            continue;
        }
        const char *after;
        long addr = parse_addr_comment(p, &after);
        if (addr < 0)
            continue;
        add_insn(cur, addr, after, labels, nlabels);
    }
    if (s->n == 0) {
        snprintf(err, errlen, "no 'Function :' section in the disassembly");
        tc_sass_free(s);
        return NULL;
    }
    return s;
}

void tc_sass_free(tc_sass *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->fn[i].name);
        free(s->fn[i].insn);
    }
    free(s->fn);
    free(s);
}

typedef struct {
    char *buf;
    size_t len, cap;
} text_buf;

/* Appends what fmt formats to t. */
static void put(text_buf *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(text_buf *t, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = t->cap - t->len;
        int n = vsnprintf(t->buf + t->len, room, fmt, ap);
        va_end(ap);
        if (n < 0)
            abort();
        if ((size_t)n < room) {
            t->len += (size_t)n;
            return;
        }
        t->buf = grow(t->buf, &t->cap, t->len + (size_t)n + 1, 1);
    }
}

char *tc_sass_format(const tc_sass *s)
{
    text_buf t = {NULL, 0, 0};
    t.buf = grow(NULL, &t.cap, 1 << 16, 1);
    t.buf[0] = '\0';
    for (size_t i = 0; i < s->n; i++) {
        const sass_fn *f = &s->fn[i];
        put(&t, "Function : %s\n", f->name);   /* no indent: a line never longer than the one read */
        for (size_t k = 0; k < f->n; k++) {
            const sass_insn *in = &f->insn[k];
            if (in->target >= 0)   /* as cuobjdump writes it */
                put(&t, "/*%04lx*/ %s 0x%lx ;\n", in->addr, in->opcode, (unsigned long)in->target);
            else   /* not a branch, or one whose target the parser could not read: read so again */
                put(&t, "/*%04lx*/ %s ;\n", in->addr, in->opcode);
        }
    }
    return t.buf;
}

size_t tc_sass_function_count(const tc_sass *s)
{
    return s->n;
}

const char *tc_sass_function_name(const tc_sass *s, size_t i)
{
    return i < s->n ? s->fn[i].name : NULL;
}

static const sass_fn *find_fn(const tc_sass *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->fn[i].name, name))
            return &s->fn[i];
    return NULL;
}

long tc_sass_instruction_count(const tc_sass *s, const char *function)
{
    const sass_fn *f = find_fn(s, function);
    return f ? (long)f->n : -1;
}

const char *tc_sass_verdict_name(tc_sass_verdict v)
{
    switch (v) {
    case TC_SASS_MATCH: return "match";
    case TC_SASS_EMULATED: return "emulated";
    case TC_SASS_MISSING: return "missing";
    case TC_SASS_MERGED: return "merged";
    case TC_SASS_EXTRA: return "extra";
    case TC_SASS_HOISTED: return "hoisted";
    case TC_SASS_UNROLLED: return "unrolled";
    case TC_SASS_SERIALIZED: return "serialized";
    case TC_SASS_NO_FUNCTION: return "no-function";
    }
    return "?";
}

/* Innermost loop (backward branch span [target, branch]) holding addr: the
 * index of its branch instruction, or -1 when addr is in no loop. */
static long innermost_loop(const sass_fn *f, unsigned long addr)
{
    long best = -1;
    unsigned long best_span = 0;
    for (size_t i = 0; i < f->n; i++) {
        const sass_insn *b = &f->insn[i];
        if (b->target < 0 || (unsigned long)b->target >= b->addr)
            continue;           /* forward branch, or the "BRA self" end marker */
        if (addr < (unsigned long)b->target || addr > b->addr)
            continue;
        unsigned long span = b->addr - (unsigned long)b->target;
        if (best < 0 || span < best_span) {
            best = (long)i;
            best_span = span;
        }
    }
    return best;
}

static int finish(tc_sass_check *out, tc_sass_verdict v, const char *function, const char *why)
{
    out->verdict = v;
    out->usable = (v == TC_SASS_MATCH || v == TC_SASS_EMULATED);
    out->emulated = (v == TC_SASS_EMULATED);
    char what[200];
    if (v == TC_SASS_MATCH)
        snprintf(what, sizeof what, "%d %s per iteration as built", out->in_loop, out->opcode);
    else if (v == TC_SASS_EMULATED)
        snprintf(what, sizeof what, "%d %s per PTX MMA, %d conversions (%d in the loop)",
                 out->per_mma, out->opcode, out->conversions, out->conversions_in_loop);
    else
        snprintf(what, sizeof what, "%d of %d expected %s in the loop, %d tensor ops in it, %d outside, %d loops: %s",
                 out->expected_in_loop, out->expected, out->stem, out->in_loop, out->outside_loop,
                 out->loops_with_mma, why);
    snprintf(out->message, sizeof out->message, "%s: %s: %s", function, tc_sass_verdict_name(v), what);
    return out->usable ? 0 : -1;
}

int tc_sass_check_loop(const tc_sass *s, const char *function, const char *stem,
                       int expected, tc_sass_check *out)
{
    memset(out, 0, sizeof *out);
    out->expected = expected;
    snprintf(out->stem, sizeof out->stem, "%s", stem);
    out->per_mma = 1;
    const sass_fn *f = find_fn(s, function);
    if (!f)
        return finish(out, TC_SASS_NO_FUNCTION, function, "kernel not in the disassembly");

    long loops[64];
    int nloops = 0, timed = -1;
    for (size_t i = 0; i < f->n; i++) {
        const sass_insn *in = &f->insn[i];
        if (is_conversion(in->opcode))
            out->conversions++;
        if (!is_tensor_op(in->opcode))
            continue;
        long l = innermost_loop(f, in->addr);
        if (l < 0) {
            out->outside_loop++;
            continue;
        }
        int k;
        for (k = 0; k < nloops && loops[k] != l; k++)
            ;
        if (k == nloops && nloops < 64)
            loops[nloops++] = l;
    }
    out->loops_with_mma = nloops;
    if (nloops == 0 && out->outside_loop == 0)
        return finish(out, TC_SASS_MISSING, function, "no tensor-core opcode");
    if (nloops == 0)
        return finish(out, TC_SASS_HOISTED, function, "no tensor-core opcode inside a loop");
    if (nloops > 1)
        return finish(out, TC_SASS_UNROLLED, function, "the compiler unrolled or split the loop, so the count per iteration is unknown");
    timed = (int)loops[0];

    const sass_insn *br = &f->insn[timed];
    for (size_t i = 0; i < f->n; i++) {
        const sass_insn *in = &f->insn[i];
        if (in->addr < (unsigned long)br->target || in->addr > br->addr)
            continue;
        if (is_conversion(in->opcode))
            out->conversions_in_loop++;
        if (!strncmp(in->opcode, "WARPGROUP.DEPBAR", 16))
            out->waits_in_loop++;
        if (!is_tensor_op(in->opcode))
            continue;
        out->in_loop++;
        if (stem_is(in->opcode, stem))
            out->expected_in_loop++;
        /* Report the opcode that the loop runs: the expected one if present. */
        if (!out->opcode[0] || (stem_is(in->opcode, stem) && !stem_is(out->opcode, stem)))
            snprintf(out->opcode, sizeof out->opcode, "%s", in->opcode);
    }
    if (out->outside_loop > 0)
        return finish(out, TC_SASS_HOISTED, function, "tensor-core opcodes were moved out of the timed loop");
    /* Fewer tensor ops than PTX MMAs: some were merged (FP8 mma on sm_90 is
     * F2FP + HMMA from a zero accumulator + FADD, and identical products merge). */
    if (out->in_loop < expected)
        return finish(out, TC_SASS_MERGED, function, "MMAs with unchanging operands were merged");
    if (out->in_loop % expected != 0)
        return finish(out, out->expected_in_loop ? TC_SASS_EXTRA : TC_SASS_MISSING, function,
                      "tensor-core opcodes are not a whole number per PTX MMA");
    out->per_mma = out->in_loop / expected;
    /* Some of the expected opcode beside others (1 HMMA and 3 DMMA for 4
     * HMMA): neither the instruction built nor a whole emulation of it. */
    if (out->expected_in_loop && out->expected_in_loop != out->in_loop)
        return finish(out, TC_SASS_EXTRA, function, "other tensor-core opcodes beside the expected ones");
    /* A wgmma loop is built with one wait per iteration; one per wgmma means
     * ptxas serialized the pipeline. */
    if (out->waits_in_loop > 1)
        return finish(out, TC_SASS_SERIALIZED, function,
                      "ptxas serialized the wgmmas: a wait after each one");
    /* Several SASS MMAs per PTX MMA, or another opcode than the native one:
     * the instruction is built from other operations. */
    if (out->per_mma > 1 || out->expected_in_loop == 0)
        return finish(out, TC_SASS_EMULATED, function, "");
    return finish(out, TC_SASS_MATCH, function, "");
}
