#!/usr/bin/env python3
"""Checks the per-architecture ISA tables (probes/isa/arch/*.def) against
ptxas, the assembler that decides what an architecture accepts:
every form of the seven tables is assembled for each of the seven
architectures, and ptxas must accept exactly the forms the architecture has
(its own and those it inherits): a form the table gives it and ptxas
refuses, or one ptxas accepts and the table does not give it (the
architecture below, a sibling, a dropped wgmma), is a failure. One PTX file
per architecture, one kernel per form; ptxas names each line it refuses.

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


def assemble(ptxas, target, fs):
    """The forms of fs that ptxas refuses for target (its error lines), and
    ptxas's text when it failed without naming a form's line."""
    text = [".version 9.0", ".target %s" % target, ".address_size 64", ""]
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
    refused, other = {}, []
    for line in (r.stdout + r.stderr).splitlines():
        m = re.search(r"forms\.ptx, line (\d+);", line)
        if m and int(m.group(1)) in line_of:
            refused.setdefault(line_of[int(m.group(1))].name, line.split(";", 1)[1].strip())
        elif "error" in line and "ptxas fatal" not in line:
            other.append(line)
    if r.returncode and not refused:
        other.append("ptxas exit %d: %s" % (r.returncode, (r.stdout + r.stderr).strip()[:400]))
    return refused, other


def main(argv):
    ptxas = argv[0] if argv else "ptxas"
    try:
        subprocess.run([ptxas, "--version"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        sys.stderr.write("isa-ptxas-check: no ptxas (%s)\n" % ptxas)
        return 2
    t = forms.tables()
    every = list({f.name: f for key in forms.ARCHS for f in t[key][1]}.values())
    bad = []
    for key in forms.ARCHS:
        arch = t[key][0]
        have = {f.name for f in forms.forms_on(key, t)}
        refused, other = assemble(ptxas, arch.target, every)
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
