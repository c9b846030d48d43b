#!/usr/bin/env python3
"""Fingerprints of other builds against sm_90a's (tools/device/jit-arch.sh):
for every instruction of each audit record NEW, its fingerprint beside the
reference audit's (the same tree's sm_90a build) and the committed baseline's
(reports/baselines/h200-audit.jsonl.gz): same, or each field that differs.

  tools/jit-arch-compare.py REF.jsonl BASELINE.jsonl[.gz] NEW.jsonl... [--out DIR]
Prints one line per instruction and a summary per record; with --out writes
DIR/compare.txt and DIR/compare.json. Exit 0 when every fingerprint is the
same as REF's, 1 when any differs (listed), 2 when a record cannot be read.
"""
import gzip
import json
import os
import sys


def read(path):
    """(header, {instr: audit object}) of an audit record."""
    try:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as f:
            lines = [json.loads(l) for l in f if l.strip()]
    except (OSError, ValueError) as e:
        raise SystemExit("jit-arch-compare: %s: %s" % (path, e))
    header = next((l for l in lines if "schema" in l), {})
    return header, {l["instr"]: l for l in lines if l.get("kind") == "audit" and "instr" in l}


def norm(v):
    """A field's value as text, lower case: records of other versions write a
    number as 25 or "25", a NaN as 0x7FFF or 0x7fff."""
    return json.dumps(v).strip('"').lower() if v is not None else None


def diff(a, b):
    """The fingerprint fields where a and b differ: 'field: a -> b'."""
    fa, fb = a.get("fingerprint", {}), b.get("fingerprint", {})
    return ["%s: %s -> %s" % (k, fa.get(k), fb.get(k)) for k in sorted(set(fa) | set(fb))
            if norm(fa.get(k)) != norm(fb.get(k))]


def verdict(o):
    v = o.get("verification", {})
    return "verified %d/%d" % (v.get("elements", 0) - v.get("mismatches", 0), v.get("elements", 0)) \
        if v.get("verified") else "NOT verified (%s mismatches)" % v.get("mismatches")


def main(argv):
    out_dir = None
    if "--out" in argv:
        i = argv.index("--out")
        out_dir = argv[i + 1] if i + 1 < len(argv) else None
        argv = argv[:i] + argv[i + 2:]
        if not out_dir:
            sys.stderr.write("jit-arch-compare: --out needs a folder\n")
            return 2
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    ref_h, ref = read(argv[0])
    base_h, base = read(argv[1])
    text, doc, differs = [], {"reference": {"path": argv[0], "compiler": ref_h.get("compiler")},
                              "baseline": {"path": argv[1], "compiler": base_h.get("compiler")}, "builds": []}, 0
    for path in argv[2:]:
        h, new = read(path)
        build = {"path": path, "compiler": h.get("compiler"), "gpu": h.get("gpu"), "driver": h.get("driver"),
                 "instructions": []}
        text.append("# %s: %s on %s, driver %s" % (path, h.get("compiler"), h.get("gpu"), h.get("driver")))
        same = 0
        for name, o in sorted(new.items()):
            row = {"instr": name, "verification": verdict(o)}
            for label, other in (("sm90a", ref), ("baseline", base)):
                if name not in other:
                    row[label] = "absent"
                else:
                    d = diff(other[name], o)
                    row[label] = "same" if not d else d
            if row["sm90a"] != "same":
                differs += 1
            else:
                same += 1
            build["instructions"].append(row)
            text.append("%-36s %-26s sm90a: %-6s baseline: %s" % (
                name, row["verification"], row["sm90a"] if isinstance(row["sm90a"], str) else "DIFFERS",
                row["baseline"] if isinstance(row["baseline"], str) else "DIFFERS"))
            for label in ("sm90a", "baseline"):
                if isinstance(row[label], list):
                    text.extend("    %s: %s" % (label, d) for d in row[label])
        text.append("# %d instructions, %d with the sm_90a build's fingerprint" % (len(new), same))
        doc["builds"].append(build)
    print("\n".join(text))
    if out_dir:
        with open(os.path.join(out_dir, "compare.txt"), "w") as f:
            f.write("\n".join(text) + "\n")
        with open(os.path.join(out_dir, "compare.json"), "w") as f:
            json.dump(doc, f, indent=1)
    return 1 if differs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
