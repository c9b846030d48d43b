#!/usr/bin/env python3
"""Writes the CUDA kernels from the instruction table probes/isa/sm90a.def:
the executor kernels (probes/cuda/*_gen*.cu, gen_exec.py) and the timing
kernels (probes/cuda/timing_*.cu, gen_timing.py); and from the
per-architecture tables probes/isa/arch/*.def the form kernels
(probes/cuda/arch_*.cu) and each catalogue instruction's architectures
(probes/catalogue_archs.c, gen_arch.py). The generated files are committed,
so a build needs no Python.

  python3 probes/isa/gen.py            write them (make gen)
  python3 probes/isa/gen.py --check    exit 1, naming the files, if writing
                                       them would change any (make gen-check)
Python 3 standard library only.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import gen_arch  # noqa: E402
import gen_exec  # noqa: E402
import gen_timing  # noqa: E402
import isa  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main(argv):
    if argv not in ([], ["--check"]):
        sys.stderr.write("usage: gen.py [--check]\n")
        return 2
    instrs = isa.catalogue()
    out = gen_exec.files(instrs)
    out.update(gen_timing.files(instrs))
    out.update(gen_arch.files(instrs))
    stale = []
    for rel, text in sorted(out.items()):
        path = os.path.join(ROOT, rel)
        try:
            with open(path) as f:
                same = f.read() == text
        except FileNotFoundError:
            same = False
        if same:
            continue
        if argv:
            stale.append(rel)
        else:
            with open(path, "w") as f:
                f.write(text)
    if stale:
        sys.stderr.write("generated files differ from probes/isa/sm90a.def or probes/isa/arch/ (run make gen and commit):\n  %s\n"
                         % "\n  ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
