#!/usr/bin/env python3
"""Checks the per-architecture ISA tables (probes/isa/arch/*.def) against
ptxas, the assembler that decides what an architecture accepts:
every form of the eight tables is assembled for each architecture this
ptxas builds, and ptxas must accept exactly the forms the architecture has
(its own and those it inherits): a form the table gives it and ptxas
refuses, or one ptxas accepts and the table does not give it (the
architecture below, a sibling, a dropped wgmma), is a failure. One PTX file
per architecture, one kernel per form; ptxas names each line it refuses.

CUDA 13's ptxas checks the seven it builds (sm_75 ... sm_120a); a 12.x ptxas
(the nvidia-cuda-nvcc-cu12 wheel: tools/toolkit-matrix.py ptxas 12.9) checks
sm_70, which CUDA 13 no longer builds (forms.TOOLKIT12). The PTX says
.version 9.0; a ptxas that reads an older ISA is given the file again with
the version it names (the instruction text untouched, as
tools/ptxas-other.sh does).

  tools/isa-ptxas-check.py [PTXAS]     exit 0 when every claim holds, else 1
                                       naming each form; 2 without ptxas
"""
import os
import re
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "probes", "isa"))
import forms  # noqa: E402


def kernel(f, i):
    """A kernel holding form f; returns (text, the line offset of f's statement)."""
    head = [".visible .entry k%d(.param .u64 q)" % i, "{",
            ".reg .b32 %r<700>;", ".reg .b64 %rd<300>;", ".reg .f64 %fd<300>;", ".reg .pred p;",
            "setp.ne.b32 p, %r699, 0;"]
    stmt = forms.ptx(f, rd="%fd" if f.d == "f64" else "%rd")
    return "\n".join(head + [stmt, "ret;", "}", ""]), len(head)


def assemble(ptxas, target, fs, version="9.0"):
    """The forms of fs that ptxas refuses for target (its error lines), and
    ptxas's text when it failed without naming a form's line."""
    text = [".version %s" % version, ".target %s" % target, ".address_size 64", ""]
    line_of = {}
    for i, f in enumerate(fs):
        k, off = kernel(f, i)
        line_of[len(text) + off + 1] = f     # 1-based line of the statement
        text.extend(k.split("\n"))
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "forms.ptx")
        with open(src, "w") as fh:
            fh.write("\n".join(text))
        r = subprocess.run([ptxas, "-arch", target, src, "-o", os.path.join(d, "forms.o")],
                           capture_output=True, text=True)
    older = re.search(r"Unsupported \.version %s; current version is '([0-9.]+)'" % re.escape(version),
                      r.stdout + r.stderr)
    if older:
        return assemble(ptxas, target, fs, older.group(1))
    refused, other = {}, []
    for line in (r.stdout + r.stderr).splitlines():
        m = re.search(r"forms\.ptx, line (\d+);", line)
        if m and int(m.group(1)) in line_of:
            refused.setdefault(line_of[int(m.group(1))].name, line.split(";", 1)[1].strip())
        elif "error" in line and not re.search(r"ptxas\S* fatal", line):
            other.append(line)
    if r.returncode and not refused:
        other.append("ptxas exit %d: %s" % (r.returncode, (r.stdout + r.stderr).strip()[:400]))
    return refused, other


def refusals(ptxas, target, fs):
    """assemble() until the forms left assemble: a ptxas that stops naming
    lines after some errors (12.0 does) would otherwise seem to accept the
    forms after them."""
    refused, other = assemble(ptxas, target, fs)
    while refused:
        more, other2 = assemble(ptxas, target, [f for f in fs if f.name not in refused])
        if not more:
            return refused, other + other2
        refused.update(more)
    return refused, other


def main(argv):
    ptxas = argv[0] if argv else "ptxas"
    try:
        v = subprocess.run([ptxas, "--version"], capture_output=True, check=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError):
        sys.stderr.write("isa-ptxas-check: no ptxas (%s)\n" % ptxas)
        return 2
    major = re.findall(r"V(\d+)\.\d+\.\d+", v)
    if not major:
        sys.stderr.write("isa-ptxas-check: %s --version names no release\n" % ptxas)
        return 2
    cuda12 = int(major[-1]) < 13
    t = forms.tables()
    every = list({f.name: f for key in forms.ARCHS for f in t[key][1]}.values())
    bad = []
    for key in forms.ARCHS:
        arch = t[key][0]
        if (key in forms.TOOLKIT12) != cuda12:
            print("%-8s not checked by this ptxas (V%s): %s" % (
                arch.target, major[-1], "a 12.x ptxas checks it" if not cuda12 else "CUDA 13's checks it"))
            continue
        have = {f.name for f in forms.forms_on(key, t)}
        refused, other = refusals(ptxas, arch.target, every)
        bad += ["%s: %s refused (the table says it has it): %s" % (arch.target, n, refused[n])
                for n in sorted(have & set(refused))]
        bad += ["%s: %s accepted (the table says it lacks it)" % (arch.target, f.name)
                for f in every if f.name not in have and f.name not in refused]
        bad += ["%s: %s" % (arch.target, o) for o in other]
        print("%-8s %3d forms, %3d of the others refused: %s" % (
            arch.target, len(have), len(every) - len(have), "ok" if not bad else "see below"))
    for b in bad:
        print("FAIL " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
