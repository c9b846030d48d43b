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
  tools/probe_collect.py upgrade REC.jsonl.gz FACTS.jsonl
      Brings a collected record to what `probe infer` writes today, in
      place: structure.prediction.profile the profile's name ("h200"), not
      the path of the machine that ran; and the FP32 FMA cases
      (probe.tensor_core_chain false), recorded before their prediction
      was, get structure.input_conversion, .prediction and .status as the
      writer makes them (reports/probe_record.c): n and bit_exact the sums
      of probe.classes, the recorded outputs' facts from FACTS, which
      build/opt/tools/probe_fma_prediction REC.jsonl.gz prints (the
      replay's predictions of them).
  tools/probe_collect.py table REC.jsonl.gz
      The Markdown table of doc/probe.md: call x shape -> structure and the
      share of verify outputs predicted bit for bit, from the record alone.

Standard library only.
"""
import gzip
import json
import os
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
    write(out, header, objs)
    print("%s: %d cases" % (out, len(objs)))


def write(out, header, objs):
    """Header, objects, trailer; gzip with no name and time in it (the same bytes for the same objects)."""
    with open(out + ".tmp", "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as z:
        for o in [header] + objs + [{"kind": "end", "objects": len(objs)}]:
            z.write((json.dumps(o, separators=(",", ":")) + "\n").encode("utf-8"))
    os.replace(out + ".tmp", out)


def profile_name(p):
    """The profile's name: its file name without .profile (reports/record_gemm_structure.c)."""
    if not isinstance(p, str):
        return p
    base = p.rsplit("/", 1)[-1]
    return base[:-len(".profile")] if base.endswith(".profile") and len(base) > len(".profile") else base


def fma_prediction(o, fact):
    """structure.input_conversion, .prediction, .status of an FP32 FMA case, as the writer makes them."""
    classes = o["probe"]["classes"]
    n, hit = sum(c["n"] for c in classes), sum(c["bit_exact"] for c in classes)
    if fact["misses_recorded"] < min(8, n - hit):
        raise SystemExit("probe_collect: %s %dx%dx%d: its first mismatches lie beyond the recorded outputs"
                         % (o["probe"]["call_id"], o["m"], o["n"], o["k"]))
    st = o["structure"]
    st.pop("prediction_error", None)
    st["input_conversion"] = {"candidates": ["as-uploaded"], "decided": True, "used": "as-uploaded"}
    st["prediction"] = {"model": "fp32-fma", "profile": None, "n": n, "bit_exact": hit, "rate": hit / n if n else 0.0,
                        "input_conversion": "as-uploaded",
                        "recorded_outputs_bit_exact": fact["recorded_outputs_bit_exact"],
                        "first_mismatches": fact["first_mismatches"]}
    st["status"] = o["probe"]["status"]


def upgrade(path, facts_path):
    header, objs = objects(path)
    with open(facts_path, encoding="utf-8") as f:
        facts = {(x["call_id"], x["m"], x["n"], x["k"]): x for x in map(json.loads, f) if x}
    fixed = 0
    for o in objs:
        pr = o.get("structure", {}).get("prediction")
        if pr and pr.get("profile") != profile_name(pr.get("profile")):
            pr["profile"] = profile_name(pr["profile"])
            fixed += 1
        key = (o.get("probe", {}).get("call_id"), o["m"], o["n"], o["k"])
        if o.get("probe", {}).get("tensor_core_chain") is False and not pr:
            if key not in facts:
                raise SystemExit("probe_collect: %s %dx%dx%d: an FMA case without its facts in %s" % (key + (facts_path,)))
            fma_prediction(o, facts[key])
            fixed += 1
    write(path, header, objs)
    print("%s: %d objects upgraded" % (path, fixed))


def structure_text(o):
    s = o["structure"]["inferred"]
    pr = s.get("promote")
    parts = ["chunk %s" % s.get("chunk"), "promote %s" % ("never" if not pr else "every %d" % pr)]
    if s.get("splitk", 1) > 1:
        # an XOR tree with its levels' bits, as `probe infer` prints it
        comb = " ".join([str(s.get("combine"))] + [str(b) for b in s.get("xor_bits", [])])
        parts.append("split-K %d %s" % (s["splitk"], comb))
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
    elif len(sys.argv) == 4 and sys.argv[1] == "upgrade":
        upgrade(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "table":
        table(sys.argv[2])
    else:
        raise SystemExit(__doc__)
