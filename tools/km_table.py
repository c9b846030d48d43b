#!/usr/bin/env python3
"""The table across GPUs (doc/findings.md), generated from what is committed, never typed:

  - measured here: oracle/profiles/h100.profile and h200.profile (tcscope audit on the GPU),
    for the instructions the recorded data also has;
  - inferred from recorded rows: reports/baselines/km/<gpu>-audit-rows.json
    (tcscope audit --backend corpus:reports/baselines/km/km-<gpu>.jsonl.gz), a field shown
    only where the record says "decided", else "not decidable (values)".

  tools/km_table.py            print the table
  tools/km_table.py --update doc/findings.md   replace the text between the km-table markers
"""
import glob
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN, END = "<!-- km-table begin (tools/km_table.py) -->", "<!-- km-table end -->"
FIELDS = ["block", "align_bits", "align_round", "acc"]


def pair(instr):
    """'wmma.m16n16k16.f32.f16.f16.f32' -> ('wmma.m16n16k16', 'f16 -> f32')."""
    p = instr.split(".")
    return ".".join(p[:2]), "%s -> %s" % (p[3], p[2])


def profile_sections(path):
    out, cur = {}, None
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        m = re.match(r"\[instr (.+)\]$", line)
        if m:
            cur = out.setdefault(m.group(1), {})
        elif cur is not None and "=" in line:
            k, v = (x.strip() for x in line.split("=", 1))
            cur[k] = v
    return out


def cell(field):
    # values are the profile's text, or (records from 2026-11-24 on) an integer field's JSON number
    vals = [str(v) for v in field["values"]]
    if field["status"] == "decided":
        return vals[0]
    if field["status"] == "not decidable":
        return "not decidable (%s%s)" % (", ".join(vals), ", ..." if field.get("more_values") else "")
    return "%s (no other value tried)" % vals[0]


def rows():
    records = sorted(glob.glob(os.path.join(ROOT, "reports/baselines/km/*-audit-rows.json")))
    instrs, out = set(), []
    for rec in records:
        doc = json.load(open(rec))
        for r in doc["instructions"]:
            instrs.add(r["instr"])
            shape, fmt = pair(r["instr"])
            src = "inferred from %d recorded rows (fit %d, verify %d: %s)" % (
                r["rows"], r["fit_rows"], r["verify_rows"],
                "%d mismatches" % r["verify_mismatches"] if r["fits"] else "no fit")
            if not r["fits"]:
                out.append((doc["device"], fmt, shape, ["no single arithmetic of the grid fits"] + [""] * 3, src))
                continue
            out.append((doc["device"], fmt, shape, [cell(r["fields"][f]) for f in FIELDS], src))
    for gpu in ("h100", "h200"):
        path = os.path.join(ROOT, "oracle/profiles/%s.profile" % gpu)
        if not os.path.exists(path):
            continue
        prof = profile_sections(path)
        for instr in sorted(instrs):
            if instr in prof:
                shape, fmt = pair(instr)
                out.append((gpu.upper(), fmt, shape, [prof[instr][f] for f in FIELDS],
                            "measured here (oracle/profiles/%s.profile)" % gpu))
    return sorted(out, key=lambda x: (x[1], x[0]))


def table():
    lines = ["| GPU | format (in -> out) | instruction | block | alignment bits | alignment rounding | accumulator "
             "| source |", "|---|---|---|---|---|---|---|---|"]
    for gpu, fmt, shape, vals, src in rows():
        lines.append("| %s | %s | %s | %s | %s |" % (gpu, fmt, shape, " | ".join(vals), src))
    return "\n".join(lines) + "\n"


def main():
    t = table()
    if len(sys.argv) == 3 and sys.argv[1] == "--update":
        text = open(sys.argv[2]).read()
        if BEGIN not in text or END not in text:
            sys.exit("%s: no km-table markers" % sys.argv[2])
        a, rest = text.split(BEGIN, 1)
        _, b = rest.split(END, 1)
        open(sys.argv[2], "w").write(a + BEGIN + "\n" + t + END + b)
    elif len(sys.argv) == 1:
        sys.stdout.write(t)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
