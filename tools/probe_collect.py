#!/usr/bin/env python3
"""The framework probe records of one GPU run as one record, and its table.

  tools/probe_collect.py collect OUT.jsonl.gz REC.jsonl[.gz]...
      One tcscope-record/1 of kind gemm from the per-case records that
      `tcscope probe infer --out` wrote (or an earlier collected record,
      .gz, to extend): the first header (its per-case `probe_call`
      dropped: each object's `probe.call_id` names its call; `library`
      and `library_version` likewise per object), every gemm object in
      call and shape order, the trailer. A case (call, M, N, K) given
      twice is kept from the first file that has it (newer runs first),
      the others said on stderr. The per-object `meaning` strings are
      dropped (reports/SCHEMA.md says them once); every other byte of each
      object is as the inference wrote it.
  tools/probe_collect.py table REC.jsonl.gz
      The Markdown table of doc/probe.md: call x shape -> structure and the
      share of verify outputs predicted bit for bit, from the record alone.

Standard library only.
"""
import gzip
import json
import sys


def drop_meaning(x):
    if isinstance(x, dict):
        return {k: drop_meaning(v) for k, v in x.items() if k != "meaning"}
    if isinstance(x, list):
        return [drop_meaning(v) for v in x]
    return x


def objects(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        lines = [json.loads(s) for s in f if s.strip()]
    if len(lines) < 3 or lines[0].get("schema") != "tcscope-record/1" or lines[-1].get("kind") != "end":
        raise SystemExit("probe_collect: %s is not a whole tcscope-record/1" % path)
    return lines[0], lines[1:-1]


def collect(out, paths):
    header, objs, seen = None, [], set()
    for p in paths:
        h, o = objects(p)
        header = header or h
        for x in o:
            key = (x.get("probe", {}).get("call_id", ""), x["m"], x["n"], x["k"])
            if key in seen:
                print("probe_collect: %s %dx%dx%d of %s: kept from an earlier file" % (key + (p,)), file=sys.stderr)
                continue
            seen.add(key)
            objs.append(drop_meaning(x))
    objs.sort(key=lambda o: (o.get("probe", {}).get("call_id", ""), o["k"], o["m"], o["n"]))
    for key in ("probe_call", "library", "library_version"):
        header.pop(key, None)
    header["cases_planned"] = len(objs)
    with gzip.open(out, "wt", encoding="utf-8") as f:
        for o in [header] + objs + [{"kind": "end", "objects": len(objs)}]:
            f.write(json.dumps(o, separators=(",", ":")) + "\n")
    print("%s: %d cases" % (out, len(objs)))


def structure_text(o):
    s = o["structure"]["inferred"]
    pr = s.get("promote")
    parts = ["chunk %s" % s.get("chunk"), "promote %s" % ("never" if not pr else "every %d" % pr)]
    if s.get("splitk", 1) > 1:
        parts.append("split-K %d %s" % (s["splitk"], s.get("combine")))
    if not o.get("probe", {}).get("tensor_core_chain", True):
        parts = ["no tensor-core step: FP32 FMA chains"] + parts[1:]
    return ", ".join(parts)


def table(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        lines = [json.loads(s) for s in f]
    print("| call | M x N x K | structure | verify outputs bit for bit | status |")
    print("|---|---|---|---|---|")
    for o in lines[1:-1]:
        # explained: the structure's prediction; unexplained: the best candidate's, as the inference kept it
        pred = o["structure"].get("prediction") or (o["probe"].get("best_candidates") or [{}])[0]
        print("| `%s` | %d x %d x %d | %s | %d / %d (%.2f%%) | %s |" % (
            o["probe"]["call_id"], o["m"], o["n"], o["k"], structure_text(o), pred.get("bit_exact", 0),
            pred.get("n", 0), 100.0 * pred.get("rate", 0), o["probe"]["status"]))


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "collect":
        collect(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        raise SystemExit(__doc__)
