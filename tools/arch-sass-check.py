#!/usr/bin/env python3
"""The portable build's SASS, checked with cuobjdump (no GPU needed):
  - every form kernel of every architecture (build/opt/probes/cuda/
    arch_smXX.cu.o, one kernel per form its table gives it) holds the SASS
    opcode its table names (probes/isa/arch/smXX.def);
  - every warp-level executor kernel (mma_gen.cu.o, mma_sp_gen.cu.o, built
    for all seven) holds the catalogue's opcode on every architecture that has
    the instruction, and no tensor-core opcode where it does not (it traps).
Writes build/arch-sass.tsv: architecture, kernel, form, expected stem, the
tensor-core opcodes seen (with counts), verdict.

sm_70 (a build with PTXAS12, forms.TOOLKIT12): its form kernels are the cubin
arch_sm70.sm_70.cubin, its executors the sm_70 ELF of each executor's fat
binary, which must be the cubin tools/cubin12.sh built, byte for byte. The
nvdisasm of PyPI's wheels (13.2 and later) refuses SM70 ("deprecated"), and
no 12.x one is on PyPI: then a copy of the cubin with its ELF architecture
set to sm_75 is disassembled, read with Turing's decoder, whose encoding
Volta's shares (Volta's HMMA.884 STEP0..3 read as such); the rows say
"(read as sm_75)". A nvdisasm that reads SM70 (CUDA 13.0 or older) reads
it as it is.

  tools/arch-sass-check.py [CUOBJDUMP] [--with-sm70] [--only TARGET]
      exit 0 when every kernel holds its opcode, 1 naming each that does not,
      2 without cuobjdump or the objects (sm_70's only with --with-sm70:
      without, a build without PTXAS12 skips it, saying so); --only sm_70:
      that architecture alone
"""
import collections
import filecmp
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "probes", "isa"))
import forms  # noqa: E402
import gen_arch  # noqa: E402
import isa  # noqa: E402

OBJ = os.path.join(ROOT, "build", "opt", "probes", "cuda")
# An instruction line: /*addr*/ [@P] OPCODE.MODS operands ;  a tensor-core
# opcode's stem ends in MMA (HMMA, IMMA, BMMA, DMMA, QMMA, OMMA, [HQIB]GMMA,
# UTC*MMA); HFMA2.MMA is an FMA (its .MMA a modifier), not one.
INSTR = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+(?:@!?U?P\w+\s+)?([A-Z0-9_]+)((?:\.[0-9A-Za-z_]+)*)")


def sass(cuobjdump, obj, target):
    """{kernel: Counter of tensor-core opcodes} of obj's SASS for target."""
    r = subprocess.run([cuobjdump, "-sass", "-arch", target, obj],
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit("arch-sass-check: cuobjdump -sass -arch %s %s: %s" % (target, obj, r.stderr.strip()[:300]))
    return listing(r.stdout)


def listing(out):
    """{kernel: Counter of tensor-core opcodes} of cuobjdump -sass's text."""
    got, fn = {}, None
    for line in out.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            fn = m.group(1)
            got[fn] = collections.Counter()
            continue
        m = INSTR.match(line)
        if fn and m and m.group(1).endswith("MMA"):
            got[fn][m.group(1) + m.group(2)] += 1
    return got


def as_sm75(cubin, into):
    """A copy of an sm_70 cubin (ELF ABI 7: the architecture in bytes 0 and 2
    of e_flags) whose header says sm_75."""
    with open(cubin, "rb") as fh:
        b = bytearray(fh.read())
    if b[:4] != b"\x7fELF" or len(b) < 52:
        raise SystemExit("arch-sass-check: %s is not an ELF file" % cubin)
    flags = struct.unpack_from("<I", b, 48)[0]
    if flags & 0xff != 70 or (flags >> 16) & 0xff != 70:
        raise SystemExit("arch-sass-check: %s: e_flags 0x%x do not name sm_70 as ABI 7 does" % (cubin, flags))
    struct.pack_into("<I", b, 48, (flags & ~0xff00ff) | 75 | 75 << 16)
    out = os.path.join(into, os.path.basename(cubin))
    with open(out, "wb") as fh:
        fh.write(b)
    return out


def text_sections(elf):
    """[(symbol index, kernel name)] of the .text.NAME section symbols of an
    ELF64 file: what nvdisasm -fun takes."""
    with open(elf, "rb") as fh:
        b = fh.read()
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3a)
    sh = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize) for i in range(shnum)]

    def name(strtab, off):
        start = sh[strtab][4] + off
        return b[start:b.index(b"\0", start)].decode()
    out = []
    for sec in sh:
        if sec[1] != 2:                         # SHT_SYMTAB
            continue
        for i in range(sec[5] // sec[9]):
            st_name, st_info, _o, st_shndx = struct.unpack_from("<IBBH", b, sec[4] + i * sec[9])
            if st_info & 0xf == 3 and st_shndx < shnum:     # STT_SECTION
                sname = name(shstrndx, sh[st_shndx][0])
                if sname.startswith(".text."):
                    out.append((i, sname[len(".text."):]))
    return out


def nvdisasm_of(cuobjdump):
    for d in (os.environ.get("NVDISASM_PATH"), os.path.dirname(os.path.abspath(cuobjdump))):
        if d and os.access(os.path.join(d, "nvdisasm"), os.X_OK):
            return os.path.join(d, "nvdisasm")
    return shutil.which("nvdisasm") or "nvdisasm"


def disassemble(nvdisasm, elf, sections):
    """{kernel: Counter} of the sections [(index, name)] nvdisasm reads: all
    in one call, else each half apart, down to the single kernels it refuses
    (they are left out, and so checked as missing)."""
    if not sections:
        return {}
    r = subprocess.run([nvdisasm, "-c", "-fun", ",".join(str(i) for i, _ in sections), elf],
                       capture_output=True, text=True)
    if r.returncode == 0:
        text = re.sub(r"^//-+ \.text\.(\S+)\s+-+$", r"Function : \1", r.stdout, flags=re.M)
        return listing(text)
    if len(sections) == 1:
        return {}
    half = len(sections) // 2
    got = disassemble(nvdisasm, elf, sections[:half])
    got.update(disassemble(nvdisasm, elf, sections[half:]))
    return got


def sass70(cuobjdump, cubin):
    """(sass(), read as sm_75?, the kernels not read) of an sm_70 cubin. Read
    as sm_75: Volta code that Turing's decoder does not know (the chain
    kernels' __cuda_sm70_warpsync) makes nvdisasm refuse a kernel; it is
    left out, and named."""
    r = subprocess.run([cuobjdump, "-sass", cubin], capture_output=True, text=True)
    if r.returncode == 0:
        return listing(r.stdout), False, []
    if "deprecated" not in r.stdout + r.stderr:
        raise SystemExit("arch-sass-check: cuobjdump -sass %s: %s" % (cubin, (r.stdout + r.stderr).strip()[:300]))
    with tempfile.TemporaryDirectory() as d:
        copy = as_sm75(cubin, d)
        sections = text_sections(copy)
        got = disassemble(nvdisasm_of(cuobjdump), copy, sections)
    return got, True, [n for _, n in sections if n not in got]


def joined(cuobjdump, obj, cubin):
    """True if obj's fat binary holds cubin as its sm_70 ELF, byte for byte."""
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([cuobjdump, "-xelf", "all", os.path.abspath(obj)], capture_output=True, text=True, cwd=d)
        elf = [f for f in os.listdir(d) if f.endswith(".sm_70.cubin")]
        return r.returncode == 0 and len(elf) == 1 and filecmp.cmp(os.path.join(d, elf[0]), cubin, shallow=False)


def stem_ok(stem, ops):
    """stem among the opcodes seen: an opcode (HMMA) or an opcode with its
    first modifiers (HMMA.884); "-": none seen (an emulated form)."""
    if stem == "-":
        return not ops
    return any(o == stem or o.startswith(stem + ".") for o in ops)


def main(argv):
    with70 = "--with-sm70" in argv
    argv = [a for a in argv if a != "--with-sm70"]
    only = None
    if "--only" in argv:
        i = argv.index("--only")
        if i + 1 >= len(argv):
            sys.stderr.write("arch-sass-check: --only needs a target (sm_70)\n")
            return 2
        only = argv[i + 1]
        del argv[i:i + 2]
    cuobjdump = argv[0] if argv else "cuobjdump"
    try:
        subprocess.run([cuobjdump, "--version"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        sys.stderr.write("arch-sass-check: no cuobjdump (%s)\n" % cuobjdump)
        return 2
    t = forms.tables()
    rows, bad = [], []
    skipped = []
    for key in forms.ARCHS:
        arch = t[key][0]
        if only and arch.target != only:
            continue
        old = key in forms.TOOLKIT12
        obj = os.path.join(OBJ, ("arch_%s.sm_70.cubin" if old else "arch_%s.cu.o") % key)
        if old and not os.path.exists(obj) and not with70:
            skipped.append(arch.target)
            continue
        if not os.path.exists(obj):
            sys.stderr.write("arch-sass-check: %s missing (make %s%s)\n" % (
                obj, "PTXAS12=a 12.x ptxas " if old else "", os.path.relpath(obj, ROOT)))
            return 2
        got, read75, _ = sass70(cuobjdump, obj) if old else (sass(cuobjdump, obj, arch.target), False, [])
        note = " (read as sm_75)" if read75 else ""
        for f in forms.forms_on(key, t):
            sym = gen_arch.kernel_symbol(key, f.name)
            ops = got.get(sym)
            verdict = "missing" if ops is None else (
                ("ok" if f.sass != "-" else "ok (emulated)") + note if stem_ok(f.sass, ops) else "wrong opcode")
            rows.append((arch.target, sym, f.name, f.sass, ops, verdict))
        # the warp-level executors of the catalogue, built for every architecture
        instrs = isa.catalogue()
        on = gen_arch.instr_archs(instrs, t)
        here = {f.name: f.sass for f in forms.forms_on(key, t)}
        for fname in ("mma_gen", "mma_sp_gen"):
            obj = os.path.join(OBJ, fname + ".cu.o")
            if not os.path.exists(obj):
                sys.stderr.write("arch-sass-check: %s missing\n" % obj)
                return 2
            if old:
                cubin = os.path.join(OBJ, fname + ".sm_70.cubin")
                if not os.path.exists(cubin) or not joined(cuobjdump, obj, cubin):
                    bad.append("%s: %s holds no sm_70 ELF equal to %s" % (arch.target, obj, cubin))
                    continue
                got, _, unread = sass70(cuobjdump, cubin)
                bad += ["%s: %s: %s not read as sm_75 code" % (arch.target, cubin, n) for n in unread
                        if n.startswith("tcx_")]
            else:
                got = sass(cuobjdump, obj, arch.target)
            for i in instrs:
                sym = "tcx_" + isa.ident(i.name)
                if sym not in got:
                    continue        # another file's kernel
                ops = got[sym]
                stem = here.get(gen_arch.form_of(i))     # this architecture's word for it
                if stem:
                    verdict = ("ok" if stem != "-" else "ok (emulated)") + note if stem_ok(stem, ops) else "wrong opcode"
                else:
                    verdict = "ok (absent: traps)" + note if not ops else "opcode where the table has none"
                rows.append((arch.target, sym, i.name, stem or "(absent)", ops, verdict))
    os.makedirs(os.path.join(ROOT, "build"), exist_ok=True)
    with open(os.path.join(ROOT, "build", "arch-sass.tsv"), "w") as fh:
        fh.write("arch\tkernel\tform\texpected\tseen\tverdict\n")
        for a, sym, name, stem, ops, verdict in rows:
            seen = " ".join("%s x%d" % (o, n) for o, n in sorted(ops.items())) if ops else "-"
            fh.write("\t".join((a, sym, name, stem, seen, verdict)) + "\n")
            if not verdict.startswith("ok"):
                bad.append("%s %s (%s): expected %s, seen %s: %s" % (a, sym, name, stem, seen, verdict))
    per = collections.Counter(r[0] for r in rows)
    for key in forms.ARCHS:
        target = t[key][0].target
        if only and target != only:
            continue
        if target in skipped:
            print("%-8s not built (make PTXAS12=a 12.x ptxas: doc/gpus.md)" % target)
        else:
            print("%-8s %4d kernels checked" % (target, per[target]))
    for b in bad:
        print("FAIL " + b)
    print("%d kernels, %d failed (build/arch-sass.tsv)" % (len(rows), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
