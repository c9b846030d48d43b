#!/usr/bin/env python3
"""The gemm cases of a new record against the committed H100 record's cases
of the same path and shape (tools/device.sh writers): the first 512 sampled
outputs (positions and GPU bits: the same seed draws the same positions),
the object's keys, the inferred structure and cuBLASLt's algorithm.
Usage: tools/writers-compare.py NEW.jsonl[.gz] [COMMITTED.jsonl.gz]"""
import sys

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from tcscope_records import load  # noqa: E402


def cases(path):
    return {(o["path"], o["m"], o["k"]): o for o in load(path)[1] if o.get("kind") == "gemm"}


new = cases(sys.argv[1])
old = cases(sys.argv[2] if len(sys.argv) > 2 else "reports/baselines/h100-gemm.packed.xz")
bad = 0
for key, o in sorted(new.items()):
    p = old[key]
    n = min(len(o["outputs"]["i"]), len(p["outputs"]["i"]))
    same = all(o["outputs"][f][:n] == p["outputs"][f][:n] for f in ("i", "j")) and \
        o["outputs"]["d_hex"][:8 * n] == p["outputs"]["d_hex"][:8 * n]
    checks = {"outputs (%d)" % n: same, "keys": set(o) == set(p),
              "inferred": o["structure"]["inferred"] == p["structure"]["inferred"], "algo": o.get("algo") == p.get("algo")}
    pr = o["structure"]["prediction"]
    print("%-18s %5d %6d  %s  predicted %d/%d" % (key[0], key[1], key[2], "  ".join(
        "%s %s" % (k, "same" if v else "DIFFERS") for k, v in checks.items()), pr["bit_exact"], pr["n"]))
    bad += not all(checks.values())
sys.exit(1 if bad else 0)
