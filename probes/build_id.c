/* The GNU build-id of this program or of an executable (probes/build_id.h).
 * Both read the same notes: in memory through dl_iterate_phdr (no file
 * opened, nothing run), or from the file's PT_NOTE segments. */
#include "probes/build_id.h"

#include <elf.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define NATIVE_CLASS (__ELF_NATIVE_CLASS == 64 ? ELFCLASS64 : ELFCLASS32)
#define NATIVE_DATA (__BYTE_ORDER == __LITTLE_ENDIAN ? ELFDATA2LSB : ELFDATA2MSB)
/* The largest note segment read from a file (a build-id note is 36 bytes;
 * the property and ABI notes beside it a few dozen). */
#define NOTES_MAX (1 << 16)

static size_t align_up(size_t n, size_t a)
{
    return (n + a - 1) / a * a;
}

/* The NT_GNU_BUILD_ID note (owner "GNU") among len bytes of notes whose
 * entries are aligned to align (the segment's p_align: 4, or 8 for the
 * property notes; name and descriptor are placed as glibc's
 * ELF_NOTE_DESC_OFFSET does): 0 with hex filled, or -1. Every size is
 * checked against len: a file's notes are not trusted. */
static int find_build_id(const unsigned char *p, size_t len, size_t align, char hex[TC_BUILD_ID_HEX])
{
    if (align < 4)
        align = 4;
    if (align != 4 && align != 8)
        return -1;
    size_t off = 0;
    while (len - off >= sizeof(ElfW(Nhdr))) {
        ElfW(Nhdr) h;
        memcpy(&h, p + off, sizeof h);
        if (h.n_namesz > len || h.n_descsz > len)
            return -1;
        size_t desc = off + align_up(sizeof h + h.n_namesz, align);
        if (desc > len || len - desc < h.n_descsz)
            return -1;
        if (h.n_type == NT_GNU_BUILD_ID && h.n_namesz == sizeof "GNU" && !memcmp(p + off + sizeof h, "GNU", 4)) {
            if (h.n_descsz == 0 || 2 * (size_t)h.n_descsz >= TC_BUILD_ID_HEX)
                return -1;
            for (size_t i = 0; i < h.n_descsz; i++)
                snprintf(hex + 2 * i, 3, "%02x", p[desc + i]);
            return 0;
        }
        size_t next = off + align_up(desc - off + h.n_descsz, align);
        if (next <= off || next > len)
            return -1;
        off = next;
    }
    return -1;
}

typedef struct {
    char *hex;
    int rc;
} self_search;

/* dl_iterate_phdr visits the main program first: its notes are read and
 * the walk stops there (a library's build-id is not the program's). */
static int visit_main(struct dl_phdr_info *info, size_t size, void *arg)
{
    self_search *s = arg;
    for (ElfW(Half) i = 0; i < info->dlpi_phnum && s->rc != 0; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE)
            s->rc = find_build_id((const unsigned char *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz, ph->p_align,
                                  s->hex);
    }
    return 1;
}

int tc_build_id_self(char hex[TC_BUILD_ID_HEX])
{
    self_search s = {hex, -1};
    dl_iterate_phdr(visit_main, &s);
    return s.rc;
}

/* One PT_NOTE segment of the file searched. */
static int notes_in_file(FILE *f, const ElfW(Phdr) *ph, char hex[TC_BUILD_ID_HEX])
{
    if (ph->p_filesz == 0 || ph->p_filesz > NOTES_MAX)
        return -1;
    unsigned char *buf = malloc(ph->p_filesz);
    if (!buf)
        return -1;
    int rc = fseeko(f, (off_t)ph->p_offset, SEEK_SET) == 0 && fread(buf, ph->p_filesz, 1, f) == 1
                 ? find_build_id(buf, ph->p_filesz, ph->p_align, hex)
                 : -1;
    free(buf);
    return rc;
}

static int build_id_in_file(FILE *f, char hex[TC_BUILD_ID_HEX])
{
    ElfW(Ehdr) e;
    if (fread(&e, sizeof e, 1, f) != 1 || memcmp(e.e_ident, ELFMAG, SELFMAG) || e.e_ident[EI_CLASS] != NATIVE_CLASS ||
        e.e_ident[EI_DATA] != NATIVE_DATA || e.e_phentsize != sizeof(ElfW(Phdr)))
        return -1;
    for (ElfW(Half) i = 0; i < e.e_phnum; i++) {
        ElfW(Phdr) ph;
        if (fseeko(f, (off_t)(e.e_phoff + (ElfW(Off))i * sizeof ph), SEEK_SET) != 0 || fread(&ph, sizeof ph, 1, f) != 1)
            return -1;
        if (ph.p_type == PT_NOTE && notes_in_file(f, &ph, hex) == 0)
            return 0;
    }
    return -1;
}

int tc_build_id_of_file(const char *path, char hex[TC_BUILD_ID_HEX])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    int rc = build_id_in_file(f, hex);
    if (fclose(f) != 0)
        rc = -1;
    return rc;
}
