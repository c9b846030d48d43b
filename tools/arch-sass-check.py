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

  tools/arch-sass-check.py [CUOBJDUMP]     exit 0 when every kernel holds its
                                           opcode, 1 naming each that does not,
                                           2 without cuobjdump or the objects
"""
import collections
import os
import re
import subprocess
import sys

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
    out, fn = {}, None
    for line in r.stdout.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            fn = m.group(1)
            out[fn] = collections.Counter()
            continue
        m = INSTR.match(line)
        if fn and m and m.group(1).endswith("MMA"):
            out[fn][m.group(1) + m.group(2)] += 1
    return out


def stem_ok(stem, ops):
    """stem among the opcodes seen; "-": none seen (an emulated form)."""
    if stem == "-":
        return not ops
    return any(o.split(".")[0] == stem for o in ops)


def main(argv):
    cuobjdump = argv[0] if argv else "cuobjdump"
    try:
        subprocess.run([cuobjdump, "--version"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        sys.stderr.write("arch-sass-check: no cuobjdump (%s)\n" % cuobjdump)
        return 2
    t = forms.tables()
    rows, bad = [], []
    for key in forms.ARCHS:
        arch = t[key][0]
        obj = os.path.join(OBJ, "arch_%s.cu.o" % key)
        if not os.path.exists(obj):
            sys.stderr.write("arch-sass-check: %s missing (make build/opt/probes/cuda/arch_%s.cu.o)\n" % (obj, key))
            return 2
        got = sass(cuobjdump, obj, arch.target)
        for f in forms.forms_on(key, t):
            sym = gen_arch.kernel_symbol(key, f.name)
            ops = got.get(sym)
            verdict = "missing" if ops is None else (
                ("ok" if f.sass != "-" else "ok (emulated)") if stem_ok(f.sass, ops) else "wrong opcode")
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
            got = sass(cuobjdump, obj, arch.target)
            for i in instrs:
                sym = "tcx_" + isa.ident(i.name)
                if sym not in got:
                    continue        # another file's kernel
                ops = got[sym]
                stem = here.get(gen_arch.form_of(i))     # this architecture's word for it
                if stem:
                    verdict = ("ok" if stem != "-" else "ok (emulated)") if stem_ok(stem, ops) else "wrong opcode"
                else:
                    verdict = "ok (absent: traps)" if not ops else "opcode where the table has none"
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
        print("%-8s %4d kernels checked" % (target, per[target]))
    for b in bad:
        print("FAIL " + b)
    print("%d kernels, %d failed (build/arch-sass.tsv)" % (len(rows), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
